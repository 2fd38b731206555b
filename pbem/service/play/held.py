"""Held orders: order lines a seat sends before their decision comes due.

A game says which lines may wait (:meth:`pbem.engine.api.Game.hold_order`,
judged on the text alone, so taking one reveals nothing hidden) and when a
held line answers the decision a seat owes
(:meth:`~pbem.engine.api.Game.held_order_due`). Die Stadt holds wall
orders (``wall cw guard``) and tower orders: most wall rounds then cost one
mail per seat, not one per piece.

- A submission's lines that come after the seat's turn ends, or that are
  sent while another seat decides, are held when every one of them is
  holdable (:func:`pbem.service.play.order_check.check_orders`); otherwise they are
  refused as before. A submission with held lines replaces the seat's held
  lines; the line ``cancel held`` (or its translation, :func:`cancel_in`:
  ``peru pidetyt``) drops them (also a button on the order page).
- The resolver applies them in the transaction that makes their decision
  due (:func:`apply_due`, called by
  :func:`pbem.service.play.resolve.resolve_locked`): while one seat alone
  decides and holds a line due now, that line is read on the state of that
  moment (:meth:`~pbem.engine.api.Game.parse_held_action`) and applied. A line
  the engine refuses then is dropped, and the seat is told in a log line
  only it sees; it is then asked as usual.
- Held lines are shown on the seat's order page and in its mail, and are
  dropped when the game ends or the seat changes hands.
"""
from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Callable, Iterable

from sqlalchemy import delete, select

from pbem.engine.fold import LANGUAGES, fold
from pbem.engine import OrderError
from pbem.i18n import translate
from pbem.service.core.db import db
from pbem.service.core.held_text import CANCEL_LINE
from pbem.service.core.models import HeldOrder

#: the line that drops a seat's held orders (any case, any spacing), canonical
CANCEL = "cancel held"
#: most held lines one seat may keep (a pile-3 wall round is at most 4 pieces a seat, plus a tower)
MAX_HELD = 8
#: most held lines applied in one resolution (a guard against a game whose held lines never run out)
MAX_APPLIED = 200


def game_holds(kind) -> bool:
    """Whether the game (a registered :class:`~pbem.engine.api.Game`) holds
    any order line for later (overrides ``hold_order``): the order page then
    offers to send them while another seat decides."""
    from pbem.engine.api import Game

    return type(kind).hold_order is not Game.hold_order


def cancel_in(lang: str) -> str:
    """The line that drops held orders in ``lang`` (``peru pidetyt`` in ``fi``)."""
    return translate(CANCEL_LINE, lang)


@cache
def _cancel_lines() -> frozenset[str]:
    return frozenset(fold(" ".join(cancel_in(lang).split())) for lang in LANGUAGES)


def is_cancel(text: str) -> bool:
    """Whether ``text`` is the line that drops the seat's held orders, in
    any language (any case, spacing and diacritics: ``zrusit odlozene``)."""
    return fold(" ".join(text.split())) in _cancel_lines()


def rows_of(game, *, force: bool = False) -> dict[int, HeldOrder]:
    """Seat -> its held-order row, for a game row loaded with its lock
    (``Game.held_count`` read then: no query when nobody holds orders;
    ``force``: query anyway, after writing held orders)."""
    if not force and not game.held_count:
        return {}
    return {r.seat_index: r for r in db.session.execute(
        select(HeldOrder).where(HeldOrder.game_id == game.id)).scalars()}


def replace(game_id: int, seat_index: int, lines: Iterable[str], *, source: str,
            now: dt.datetime) -> HeldOrder | None:
    """Keep ``lines`` (canonical texts) as the seat's held orders, in place
    of any it held; no lines: drop them. Returns the row (``None`` when
    dropped). Inside the caller's transaction."""
    lines = list(lines)
    row = db.session.execute(select(HeldOrder).where(
        HeldOrder.game_id == game_id, HeldOrder.seat_index == seat_index)).scalar_one_or_none()
    if not lines:
        if row is not None:
            db.session.delete(row)
            db.session.flush()
        return None
    if row is None:
        row = HeldOrder(game_id=game_id, seat_index=seat_index)
        db.session.add(row)
    row.text, row.source, row.created_at = "\n".join(lines), source, now
    db.session.flush()
    return row


def drop_all(game_id: int, seat_index: int | None = None) -> None:
    """Drop the held orders of a game (the game ended or was cancelled), or
    of one seat (it changed hands)."""
    stmt = delete(HeldOrder).where(HeldOrder.game_id == game_id)
    if seat_index is not None:
        stmt = stmt.where(HeldOrder.seat_index == seat_index)
    db.session.execute(stmt)


def apply_due(engine, state, rows: dict[int, HeldOrder],
              apply: Callable[[int, object, str], None],
              dropped: Callable[[int, str, str], None]) -> set[int]:
    """Apply held lines whose decision is due in ``state``: while exactly
    one seat decides and its row holds a line
    :meth:`~pbem.engine.api.Game.held_order_due` now, take the first such
    line out and call ``apply(seat, action, source)`` with the engine's
    reading of it (which applies it to ``state``); a line the engine refuses
    now goes to ``dropped(seat, line, why)``. Rows left empty are deleted.
    Returns the seats whose rows changed."""
    changed: set[int] = set()
    for _ in range(MAX_APPLIED):
        if not rows or state.is_terminal():
            break
        current = state.current_seats()
        row = rows.get(current[0]) if len(current) == 1 else None
        if row is None:
            break
        seat = current[0]
        lines = [line for line in row.text.split("\n") if line]
        due = next((i for i, line in enumerate(lines) if engine.held_order_due(state, seat, line)), None)
        if due is None:
            break
        line = lines.pop(due)
        row.text = "\n".join(lines)
        changed.add(seat)
        if not lines:
            del rows[seat]
            db.session.delete(row)
        try:
            apply(seat, engine.parse_held_action(state, seat, line), row.source)
        except OrderError as err:       # the state is unchanged (State.apply)
            dropped(seat, line, err.message)
    return changed
