"""Phrases every engine's messages share: seats and lists, as :class:`Msg`.

A list written into a message (``"culture and health"``, ``"E3, J9"``)
must stay translatable when its items are game words, so a list holding a
``Msg`` is built as nested messages: ``join([a, b, c])`` is
``Msg("{head}, {tail}", head=a, tail=join([b, c]))``. Its English text is
exactly ``", ".join(...)``; a catalog may translate the separator (and
``translate`` reaches every item). Lists joined by a word ("and", "or")
are always nested, so the word translates; a ``", "`` or ``"; "`` list of
plain strings (sites, numbers) is joined as a plain ``str``.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from pbem.engine.messages import Msg


def seat(i: int) -> Msg:
    """``"seat 2"`` for seat index 1 (players count seats from 1)."""
    return Msg("seat {n}", n=i + 1)


def Seat(i: int) -> Msg:
    """``"Seat 2"``: :func:`seat` at the start of a sentence."""
    return Msg("Seat {n}", n=i + 1)


def _nest(items: Sequence[Any], pair: Callable[[Any, Any], Msg], sep: str,
          always: bool = False) -> Any:
    items = list(items)
    if not items:
        return ""
    if not always and not any(isinstance(x, Msg) for x in items):
        return sep.join(str(x) for x in items)
    out = items[-1]
    for head in reversed(items[:-1]):
        out = pair(head, out)
    return out


def join(items: Sequence[Any]) -> Any:
    """``"a, b, c"``; ``""`` for no items; the item itself for one."""
    return _nest(items, lambda h, t: Msg("{head}, {tail}", head=h, tail=t), ", ")


def and_list(items: Sequence[Any]) -> Any:
    """``"a and b and c"``."""
    return _nest(items, lambda h, t: Msg("{head} and {tail}", head=h, tail=t), " and ", True)


def or_list(items: Sequence[Any]) -> Any:
    """``"a or b or c"``."""
    return _nest(items, lambda h, t: Msg("{head} or {tail}", head=h, tail=t), " or ", True)


def semi_list(items: Sequence[Any]) -> Any:
    """``"a; b; c"``."""
    return _nest(items, lambda h, t: Msg("{head}; {tail}", head=h, tail=t), "; ")
