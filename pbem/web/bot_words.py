"""The bots' words on the pages, in the reader's language (issue 27):
the choices of a seat on the new-game form and the replace-player form,
and a bot's name where the pages name a seat's player.

Template globals (set by :mod:`pbem.web.games`): ``bot_choices()``, ``bot_word(name)``.
"""
from __future__ import annotations

from flask_babel import gettext, lazy_gettext

from pbem.service.core.bots import OFFERED_BOTS

#: a bot's name as the pages write it
_NAMES = {
    "standard": lazy_gettext("Standard bot"),
    "greedy": lazy_gettext("Greedy bot"),
    "random": lazy_gettext("Random bot"),
}


def bot_word(name: str | None) -> str:
    """Bot ``name`` (``"standard"``...) in the page's language; ``""`` for None."""
    return str(_NAMES.get(name, name or ""))


def bot_choices() -> dict[str, str]:
    """Who may sit at a seat on the forms: ``""`` a person, then each bot the pages offer."""
    return {"": gettext("A person (invited by email)"), **{b: bot_word(b) for b in OFFERED_BOTS}}
