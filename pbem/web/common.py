"""Small helpers shared by the page blueprints: loading a game and a seat
with access checks, deadlines in the reader's zone, who must move."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from flask import abort, g
from flask_babel import gettext

from pbem.engine import get_game
from pbem.mail.compose import format_deadline
from pbem.service.core.models import FINISHED, Game, Seat, utcnow
from pbem.service.core.snapshot import engine_state
from pbem.service.play.reads import find_game
from pbem.web import language, sessions


def get_game_or_404(game_id: int) -> Game:
    game = find_game(game_id)
    if game is None:
        abort(404, gettext("There is no game %(game)s.", game=game_id))
    return game


def seat_of(game: Game, number: int) -> Seat:
    """Seat ``number`` (as players count, from 1), or 404."""
    for seat in game.seats:
        if seat.number == number:
            return seat
    abort(404, gettext("This game has no seat %(number)s.", number=number))


def my_seat(game: Game, number: int) -> Seat:
    """Seat ``number`` when the signed-in player holds it, else 403: no page
    shows a seat's private information to anyone else. The session must
    still hold for the seat's player (not signed out; checked on the
    player row the game's seats bring along, no query of its own), else
    the browser is signed out (:func:`pbem.web.sessions.require`)."""
    seat = seat_of(game, number)
    if g.player_id is None or seat.player_id != g.player_id:
        abort(403, gettext("This is another player's seat. Sign in with the link from your own email to see "
                           "yours."))
    sessions.require(seat.player)
    # the seat's player is the signed-in one, checked just now: ``g.player``
    # is that row (no second read, no second check)
    g.__dict__.setdefault("_player", seat.player)
    return seat


def viewer_zone(game: Game) -> str:
    return g.player.timezone if g.get("player") is not None and g.player.timezone else game.timezone


def deadline_text(when: dt.datetime | None, zone: str) -> str:
    """The deadline in ``zone`` and the page's language (Babel, through
    :func:`pbem.mail.compose.format_deadline`, as the mails write it).
    The page's footer names ``zone`` (:func:`pbem.web.locale.shown_zone`)."""
    g.shown_zone = zone
    return format_deadline(when, zone, locale=language.page_lang()) if when else ""


def time_left(when: dt.datetime | None, now: dt.datetime | None = None) -> str:
    """"2 days 3 hours left", "40 minutes left", "deadline passed", in the
    page's language (Babel's ``format_timedelta``;
    :func:`pbem.web.language.time_left`)."""
    return language.time_left(when, now or utcnow())


@dataclass
class Situation:
    """Where a game stands, for lists and headers: ``waiting`` the seats
    that owe a decision (0-based), ``state`` the engine state (None before
    the start)."""

    state: object | None
    waiting: list[int]


def situation(game: Game) -> Situation:
    if game.state is None or game.status == FINISHED:
        return Situation(engine_state(game) if game.state else None, [])
    state = engine_state(game)
    return Situation(state, list(state.current_seats()))


def engine_of(game: Game):
    return get_game(game.kind)
