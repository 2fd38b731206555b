"""Pages in the viewer's language: template filters and globals over
:mod:`pbem.i18n` and Babel (docs/i18n/README.md).

The page's language is :func:`pbem.web.locale.select_locale` (the signed-in
player's ``players.language``, else the browser's ``Accept-Language``).

Templates get:

- ``page_lang``: the code for ``<html lang>`` (``"fi"``);
- ``|translated``: an engine message (:class:`pbem.engine.messages.Msg`) in
  the page's language; a plain string unchanged (:func:`pbem.i18n.translate`);
- ``|logline``: a stored game log line (``GameEvent``) in the page's
  language (:func:`pbem.i18n.event_text`);
- ``|listing(names=None)``: a list as the language writes one ("A, B and
  C"; Babel's ``format_list``), each item first looked up in ``names``;
- ``status_names``: a game's status (``"invited"``...) as players read it;
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, Mapping

from babel.dates import format_timedelta
from babel.lists import format_list
from flask import Flask, has_request_context
from flask_babel import get_locale, gettext, lazy_gettext

from pbem.i18n import event_text, translate
from pbem.web.locale import select_locale

#: a game's status as the pages name it (``games.status``)
STATUS_NAMES = {
    "invited": lazy_gettext("waiting for players"),
    "active": lazy_gettext("running"),
    "paused": lazy_gettext("paused"),
    "finished": lazy_gettext("finished"),
    "cancelled": lazy_gettext("cancelled"),
}


def page_lang() -> str:
    """The page's language code (``"fi"``): Flask-Babel's locale of the
    request (:func:`pbem.web.locale.select_locale`)."""
    if has_request_context():
        return str(get_locale() or select_locale())
    return select_locale()


def translated(text: Any) -> str:
    """``text`` (an engine ``Msg`` or a plain string) in the page's language."""
    if text is None:
        return ""
    return translate(text, page_lang())


def logline(event: Any) -> str:
    """A game log line (anything with ``text`` and ``data``, a
    ``GameEvent``) in the page's language."""
    return event_text(event.text, getattr(event, "data", None), page_lang())


def listing(items: Iterable[Any], names: Mapping[str, Any] | None = None) -> str:
    """``items`` as one phrase of the page's language ("culture and
    health"), each replaced by ``names[item]`` when it is there."""
    words = [str(names.get(i, i)) if names else str(i) for i in items]
    if not words:
        return ""
    return format_list(words, locale=page_lang())


def time_left(when: dt.datetime | None, now: dt.datetime) -> str:
    """How long until ``when`` in the page's language, from Babel
    (``"2 days 3 hours left"``, ``"40 minutes left"``), or that the
    deadline has passed; ``""`` without a deadline. Both aware or both
    naive UTC."""
    if when is None:
        return ""
    seconds = int((when - now).total_seconds())
    if seconds <= 0:
        return gettext("deadline passed")
    lang = page_lang()
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = max(1, rest // 60) if not days and not hours else rest // 60

    def unit(amount: int, granularity: str) -> str:
        delta = dt.timedelta(**{granularity + "s": amount})
        return format_timedelta(delta, granularity=granularity, threshold=10**6, format="long", locale=lang)

    if days:
        first, second = unit(days, "day"), unit(hours, "hour") if hours else ""
    elif hours:
        first, second = unit(hours, "hour"), unit(minutes, "minute") if minutes else ""
    else:
        first, second = unit(minutes, "minute"), ""
    amount = gettext("%(larger)s %(smaller)s", larger=first, smaller=second) if second else first
    return gettext("%(time)s left", time=amount)


def init_app(app: Flask) -> None:
    """Register the filters and globals above."""
    app.add_template_filter(translated, "translated")
    app.add_template_filter(logline, "logline")
    app.add_template_filter(listing, "listing")
    app.add_template_global(STATUS_NAMES, "status_names")
    app.context_processor(lambda: {"page_lang": page_lang()})


__all__ = ["STATUS_NAMES", "page_lang", "said", "translated", "logline", "listing", "time_left", "init_app"]


def said(err: BaseException) -> str:
    """What a refusal (a ``ServiceError`` and the like) says, in the page's
    language: its first argument through :func:`translated` (an engine or
    service ``Msg`` is translated; plain English text is shown as it is)."""
    text = err.args[0] if err.args else str(err)
    return translated(text if isinstance(text, str) else str(err))
