"""Held orders as a reader sees them: a seat's held lines, each written
in the reader's language, and the note pages and mail show with them.
What holds a line, and when it is applied, is :mod:`pbem.service.play.held`."""
from __future__ import annotations

from typing import Iterable

from sqlalchemy import select

from pbem.engine.messages import Msg, Msgc
from pbem.service.core.db import db
from pbem.service.core.echo import Held, said_orders
from pbem.service.core.models import HeldOrder

#: the line that drops a seat's held orders, as a message: each language's
#: translation drops them too (:func:`pbem.service.play.held.is_cancel`)
CANCEL_LINE = Msgc("held orders", "cancel held")


def held_lines(game_id: int, seat_index: int) -> list[str]:
    """The seat's held lines, oldest first (empty when none)."""
    text = db.session.execute(select(HeldOrder.text).where(
        HeldOrder.game_id == game_id, HeldOrder.seat_index == seat_index)).scalar_one_or_none()
    return [line for line in (text or "").split("\n") if line]


def held_in(engine, lines: Iterable[str]) -> list[Held]:
    """Held lines (canonical texts) that write themselves in a reader's
    language (:class:`pbem.service.core.echo.Held`, by the game's ``held_text``)."""
    return [Held(line, engine) for line in lines]


def note(lines: list[str], engine):
    """The line a page or mail shows for held orders, each written in the
    reader's words (a ``Msg``; empty for none); ``engine`` the game."""
    if not lines:
        return ""
    return Msg("Held for your next decisions: {orders}. They are applied when due; send new ones to "
               "replace them, or \u201c{cancel}\u201d to drop them.",
               orders=said_orders(held_in(engine, lines)), cancel=CANCEL_LINE)
