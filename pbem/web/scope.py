"""Seat-only sign-ins: what a link from a turn email opens.

A turn email (turn notice, reminder, refused orders) goes to one seat, and
people forward mail. So its link (``links.seat_signin_url``; the token's
subject carries ``"seat": [game id, seat index]``) does not sign its holder
into the whole account: the session it starts remembers the seat, and for
:data:`SEAT_SESSION_SECONDS` (24 hours) opens only

- that game's page (``GET /games/<id>``), and
- that seat's order page and its JSON and review endpoints
  (``/games/<id>/seat/<number>...``, the seat's game record too).

Anywhere else the request runs as a visitor's (``g.player_id`` is
``None``), so every page that needs a player asks for a normal sign-in
(``/signin``, a link sent to the player's address). Further turn-email links
of the same player add their seats to the same session (at most
:data:`MAX_SEATS`); a full sign-in replaces it, and a seat link clicked in a
session already signed in fully as that player changes nothing.

Session keys: ``player_id`` (as for any sign-in) and ``seats``: a list of
``[game id, seat index, valid until (Unix seconds)]``. A session without
``seats`` is a full sign-in.
"""
from __future__ import annotations

import time

from flask import g, request, session

__all__ = ["SEAT_SESSION_SECONDS", "MAX_SEATS", "SEATS_KEY", "enforce", "add_seat", "seat_only"]

#: how long one seat link's session opens that seat's pages
SEAT_SESSION_SECONDS = 24 * 3600
#: seats one seat-only session remembers (the newest)
MAX_SEATS = 20
SEATS_KEY = "seats"


def _live_seats(now: float) -> list[list[int]] | None:
    """The unexpired ``[game, seat, until]`` entries, ``None`` for a full
    sign-in (no ``seats`` key). Malformed entries count as expired."""
    if SEATS_KEY not in session:
        return None
    raw = session.get(SEATS_KEY)
    entries = raw if isinstance(raw, list) else []
    return [e for e in entries if isinstance(e, list) and len(e) == 3
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in e) and e[2] > now]


def _in_scope(seats: list[list[int]]) -> bool:
    endpoint, args = request.endpoint or "", request.view_args or {}
    game_id = args.get("game_id")
    if endpoint == "games.show":
        return any(game_id == gid for gid, _seat, _until in seats)
    # the seat's own pages, its game record too (issue 25)
    if endpoint.startswith("seat.") or endpoint in ("watch.seat_record", "watch.seat_record_json"):
        return any(game_id == gid and args.get("number") == index + 1 for gid, index, _until in seats)
    return False


def enforce() -> None:
    """Before every request (after the session's player is read): a
    seat-only session acts as its player only on its seats' pages, and
    ends when its last seat expires. Sets ``g.seat_only`` (the session is
    seat-only) and ``g.session_player_id`` (the cookie's player, whatever
    the scope)."""
    g.session_player_id = g.get("player_id")
    g.seat_only = False
    if g.session_player_id is None:
        return
    seats = _live_seats(time.time())
    if seats is None:
        return
    if not seats:  # every seat of it has expired: the sign-in is over
        session.clear()
        g.session_player_id = None
    elif _in_scope(seats):
        g.seat_only = True
        return
    else:
        g.seat_only = True
    g.player_id = None
    g.__dict__.pop("_player", None)


def seat_only() -> bool:
    """The current session is a seat-only sign-in."""
    return bool(g.get("seat_only"))


def add_seat(player_id: int, seat: tuple[int, int], sign_in) -> None:
    """Open ``seat`` (game id, seat index) for ``player_id`` in this
    session. ``sign_in(player_id)`` starts a fresh full session (the sign-in
    page's own); it is called, and the session then narrowed to the seat,
    unless the session already belongs to ``player_id``: a full one stays
    full, a seat-only one gains the seat."""
    now = time.time()
    same_player = g.get("session_player_id") == player_id and session.get("player_id") == player_id
    seats = _live_seats(now) if same_player else []
    if same_player and seats is None:
        return  # already signed in fully as this player
    if not same_player:
        sign_in(player_id)
        seats = []
    entry = [int(seat[0]), int(seat[1]), int(now + SEAT_SESSION_SECONDS)]
    seats = [e for e in seats if (e[0], e[1]) != (entry[0], entry[1])] + [entry]
    session[SEATS_KEY] = seats[-MAX_SEATS:]
