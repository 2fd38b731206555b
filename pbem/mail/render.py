"""The mail templates (``pbem/mail/templates/<kind>.txt`` and ``.html``)
rendered in the recipient's language: one Jinja2 environment per language,
with that language's catalog installed (:func:`env_for`).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from babel.support import NullTranslations
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from pbem.i18n import DEFAULT, pick_language, translations

from . import text_board
from .inputs import Envelope


TEMPLATES = Path(__file__).parent / "templates"


def _make_env(translations: NullTranslations) -> Environment:
    """The mail templates' environment with ``translations`` installed
    (Jinja2's i18n extension, newstyle: ``_("... %(name)s", name=x)``
    escapes ``x`` in HTML, ``ngettext`` gets ``num``)."""
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],  # {% trans %}, _() and ngettext in the mail templates
    )
    env.install_gettext_translations(translations, newstyle=True)
    env.filters["view_blocks"] = text_board.blocks  # a text board's grid kept whole on a phone
    # |urlize (a talk message's or a notice's links): what a player wrote is never endorsed, nor told where it came from
    env.policies["urlize.rel"] = "nofollow noopener noreferrer ugc"
    return env


@functools.lru_cache(maxsize=None)
def env_for(lang: str) -> Environment:
    """One Environment per language, made once and never changed after.

    ``install_gettext_translations`` writes the environment's globals, so
    installing the recipient's catalog before each render would race
    between threads (a Celery worker, the web app). An overlay would share
    the globals dict and the template cache with its parent (templates
    keep the globals they were loaded with), so each language gets an
    environment of its own: five languages, a few compiled templates each."""
    return _make_env(translations(lang))


def language(locale: str | None) -> str:
    """The supported language of a babel locale name (``"fi_FI"``, ``"fi"``,
    ``"de-AT"``); English for anything else."""
    return pick_language(locale)


def catalog(env_or_locale: Envelope | str) -> NullTranslations:
    """The catalog of an envelope's (or a locale's) language."""
    locale = env_or_locale if isinstance(env_or_locale, str) else env_or_locale.locale
    return translations(language(locale))


def render(kind: str, context: dict, lang: str = DEFAULT) -> tuple[str, str]:
    """(plain text, HTML) of the template pair ``kind`` with ``context``, in
    ``lang``; the text with at most one blank line between sections.
    Raises ``jinja2.TemplateNotFound`` for an unknown kind and
    ``jinja2.UndefinedError`` for a value the template needs and ``context`` lacks."""
    env = env_for(lang)
    text = env.get_template(f"{kind}.txt").render(lang=lang, **context)
    html = env.get_template(f"{kind}.html").render(lang=lang, **context)
    # Template blocks leave runs of blank lines; one blank line separates sections.
    text = re.sub(r"\n{3,}", "\n\n", text.replace("\r", "")).strip("\n") + "\n"
    return text, html
