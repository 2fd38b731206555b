"""The bots' words on the pages, in the reader's language (issue 27):
the choices of a seat on the new-game form and the replace-player form,
and a bot's name (:mod:`pbem.i18n.bot_names`).

Template globals (set by :mod:`pbem.web.games`): ``bot_choices()``, ``bot_word(name)``.
"""
from __future__ import annotations

from flask_babel import gettext

from pbem.i18n.bot_names import bot_name
from pbem.service.core.bots import OFFERED_BOTS
from pbem.web.language import page_lang


def bot_word(name: str | None) -> str:
    """Bot ``name`` (``"standard"``...) in the page's language; ``""`` for None."""
    return bot_name(name, page_lang()) if name else ""


def bot_choices() -> dict[str, str]:
    """Who may sit at a seat on the forms: ``""`` a person, then each bot the pages offer."""
    return {"": gettext("A person (by email)"), **{b: bot_word(b) for b in OFFERED_BOTS}}
