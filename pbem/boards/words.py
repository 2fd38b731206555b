"""The words a board picture draws, in the viewer's language.

Board modules write every word they draw (legends, labels, captions, seat
lines, tooltips) as an English :class:`~pbem.engine.messages.Msg`, so
``pybabel extract`` finds it (keywords ``Msg``/``Msgn``, ``babel.cfg``), and
turn it into text with the callable :func:`words` gives for the picture's
language. The language arrives as the ``lang`` argument of
:func:`pbem.boards.render_svg` / ``render_png`` / ``picture_key`` (default
``"en"``); it is part of every cache key (:mod:`pbem.boards.raster`,
:mod:`pbem.service.post.pictures`). Without a catalog the English text is drawn.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from pbem.engine.messages import Msg, Msgc, Msgn  # noqa: F401  (re-exported for the board modules)

DEFAULT = "en"


@functools.lru_cache(maxsize=16)
def words(lang: str | None = DEFAULT) -> Callable[[Any], str]:
    """``t(msg) -> str``: ``msg`` (a :class:`Msg`, or any text, drawn as
    it is) in ``lang`` (a supported code; anything else draws English)."""
    from pbem.i18n import supported, translate

    code = supported(lang) or DEFAULT

    def t(msg: Any) -> str:
        return translate(msg, code)

    return t


#: the templates engines write a seat with (``pbem.engine.phrases``)
SEAT_TEMPLATES = ("seat {n}", "Seat {n}")


def with_names(msg: Any, names: dict[int, str]) -> Any:
    """``msg`` (an engine's :class:`Msg`, e.g. a phase) with every seat it
    names (a nested ``Msg("seat {n}")``) replaced by that seat's player's
    name (``names``: seat index -> name), so it still translates whole;
    anything else unchanged."""
    if not isinstance(msg, Msg):
        return msg
    if msg.template in SEAT_TEMPLATES and msg.plural is None:
        name = names.get(int(msg.params.get("n", 0)) - 1)
        if name:
            return name
    params = {k: with_names(v, names) for k, v in msg.params.items()}
    if msg.plural is not None:
        out = Msgn(msg.template, msg.plural, msg.n or 0, **{k: v for k, v in params.items() if k != "n"})
    else:
        out = Msg(msg.template, **params)
    out.context = msg.context     # a pgettext context, or said()'s: text per language
    return out


__all__ = ["Msg", "Msgc", "Msgn", "words", "with_names", "DEFAULT"]
