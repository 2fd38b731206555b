"""Translation for the service: catalogs, the player's language, engine messages.

The catalogs are ``pbem/translations/<lang>/LC_MESSAGES/messages.po``
(Babel/gettext; docs/i18n/README.md). ``./run`` and CI compile them to
``.mo``; when a ``.mo`` is missing or older than its ``.po`` (a package
installed without ``./run``) the ``.po`` is read directly, so a fresh clone
never serves English by accident.

- :func:`translations` gives a ``babel.support.Translations`` per language
  (pages use Flask-Babel, mails Jinja2's i18n extension, both over these).
- :func:`translate` turns an engine :class:`~pbem.engine.messages.Msg` (or a
  plain string, returned unchanged) into the language's text.
- :func:`pick_language` chooses a supported language from an
  ``Accept-Language`` header or a stored choice.
- :func:`fold` is the engine's spelling-tolerant folding of a player's words
  (:func:`pbem.engine.fold.fold`, ``"Lázně"`` -> ``"lazne"``), re-exported so
  mail compares a letter's words with ``Game.order_words()`` exactly as the
  engine folded them, importing nothing of pbem but this package.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations

from pbem.engine.fold import LANGUAGES, fold  # noqa: F401  (fold: re-exported for mail)
from pbem.engine.messages import BY_LANGUAGE, Msg, msg_from_json, said_text
from pbem.i18n import catalan

DEFAULT = "en"
"""The reference language: the msgids are English."""

CATALOG_DIR = Path(__file__).resolve().parent.parent / "translations"
"""Where the ``<lang>/LC_MESSAGES/messages.po`` catalogs live."""

LANGUAGE_NAMES = {"en": "English", "fi": "suomi", "cs": "čeština", "ca": "català", "de": "Deutsch"}
"""Each supported language in its own words (the language picker)."""


def supported(lang: str | None) -> str | None:
    """``lang`` (``"fi"``, ``"de-AT"``, ``"cs_CZ"``) as a supported code, or ``None``."""
    if not lang:
        return None
    code = lang.replace("_", "-").split("-")[0].strip().lower()
    return code if code in LANGUAGES else None


def pick_language(*choices: str | None) -> str:
    """The first supported of ``choices``, else :data:`DEFAULT`."""
    for c in choices:
        code = supported(c)
        if code:
            return code
    return DEFAULT


@functools.lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    """The catalog of ``lang`` (``NullTranslations`` for English or an
    unknown code). Cached for the life of the process."""
    lang = supported(lang) or DEFAULT
    if lang == DEFAULT:
        return NullTranslations()
    folder = CATALOG_DIR / lang / "LC_MESSAGES"
    po, mo = folder / "messages.po", folder / "messages.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        return Translations.load(str(CATALOG_DIR), [lang])
    if not po.exists():
        return NullTranslations()
    return _from_po(po)


def _from_po(po: Path) -> Translations:
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(fp=buf)


def translate(text: Any, lang: str) -> str:
    """``text`` in ``lang``: an engine :class:`Msg` is looked up by its
    template (plural by its count) and formatted with its parameters, each
    ``Msg`` parameter translated too; anything else is ``str(text)``."""
    if not isinstance(text, Msg):
        return str(text)
    if text.context == BY_LANGUAGE:       # order words an engine wrote per language
        return said_text(text, supported(lang) or DEFAULT)
    t = translations(lang)
    params = {k: translate(v, lang) if isinstance(v, Msg) else v for k, v in text.params.items()}
    if text.plural is not None:
        template = t.ngettext(text.template, text.plural, text.n or 0)
    elif text.context is not None:
        template = t.pgettext(text.context, text.template)
    else:
        template = t.gettext(text.template)
    try:
        if supported(lang) == "ca":       # "de {castle}" -> "d'E9", "de {palace}" -> "del palau"
            return catalan.fill(template, params)
        return template.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: never lose the message
        return text.template.format(**params) if text.plural is None else str(text)


MSG_KEY = "_msg"
"""The key under which a game log line's :class:`Msg` is kept in
``GameEvent.data`` (the ``text`` column holds its English text)."""


def stored_event_data(text: Any, data: dict[str, Any] | None) -> dict[str, Any]:
    """``data`` of a game log line to store: with the line's message
    (:meth:`Msg.to_json`) under :data:`MSG_KEY` when ``text`` is a ``Msg``."""
    data = dict(data or {})
    if isinstance(text, Msg):
        data[MSG_KEY] = text.to_json()
    return data


def event_text(text: str, data: dict[str, Any] | None, lang: str) -> str:
    """A stored game log line (``GameEvent.text``, ``.data``) in ``lang``:
    from its kept message when there is one, else the English text; marked
    as a bot's when its data say so (:func:`bot_marked`)."""
    kept = (data or {}).get(MSG_KEY)
    return bot_marked(translate(msg_from_json(kept), lang) if kept else text, data, lang)


#: a game log line's data key: the line tells an order a bot made (issue 27)
BOT_KEY = "bot"


def bot_marked(line: str, data: dict[str, Any] | None, lang: str) -> str:
    """``line`` (a log line already in ``lang``) followed by "(bot)" in
    ``lang`` when ``data`` (the line's stored data) says a bot made the order."""
    if not (data or {}).get(BOT_KEY):
        return line
    return translate(Msg("{line} (bot's order)", line=line), lang)


def msg_json(text: Any) -> dict[str, Any] | None:
    """``text``'s message as JSON data when it is a :class:`Msg`, else ``None``
    (what ``games.phase_msg`` keeps)."""
    return text.to_json() if isinstance(text, Msg) else None
