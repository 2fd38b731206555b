"""The late player's grace (issue 25, section 4).

A host may give each seat's first missed deadline in a game a grace of
``games.grace_hours`` hours (0: none) instead of the default order: at that
deadline the game waits, once, and the late seat is told once, at once
(the ``grace`` notice), when its orders are now due. Nothing contradicts it
afterwards: no "missed" mail goes out at the deadline that gave the grace
(the turn does not resolve then), a second scan finds the seat's grace
spent and the deadline not yet passed, and the next mail about it comes
only when the graced deadline passes, as announced (docs/long-games.md).
"""
from __future__ import annotations

import datetime as dt

from pbem.i18n import stored_event_data
from pbem.engine.messages import Msg
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent
from pbem.service.post import grace_notice


def graced_seats(game: Game, missing) -> list[int]:
    """The seats of ``missing`` whose first missed deadline this is, when
    the game gives a grace (else none)."""
    if not game.grace_hours or game.deadline_at is None:
        return []
    return [s for s in sorted(missing) if game.seat(s).grace_step is None]


def give(game: Game, seats: list[int], *, now: dt.datetime) -> dt.datetime:
    """Give ``seats`` their grace on the locked ``game``: each seat's
    ``grace_step`` is set (never again in this game), the deadline moves
    ``grace_hours`` past the missed one (past ``now`` if the scan came
    late), a public log line and one ``grace`` notice per late seat are
    written. Returns the new deadline. Does not commit."""
    hours = dt.timedelta(hours=game.grace_hours)
    new = max(game.deadline_at, now) + hours
    game.deadline_at = new
    if game.deadline_base_at is not None:
        game.deadline_base_at = game.deadline_base_at + hours
    for index in seats:
        seat = game.seat(index)
        seat.grace_step = game.step
        msg = Msg("{name} (seat {n}) missed the deadline; as it is their first, the game waits "
                  "{hours} h more for their orders.", name=seat.player.name, n=seat.number, hours=game.grace_hours)
        db.session.add(GameEvent(game_id=game.id, step=game.step, seat_index=None, kind="grace", created_at=now,
                                 text=str(msg), data=stored_event_data(msg, {"seat": index})))
    db.session.flush()
    for index in seats:
        grace_notice.tell(game, game.seat(index), now=now)
    return new
