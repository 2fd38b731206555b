"""Sign-in sessions: whether a browser's session cookie still signs its
player in, and ending a session (sign out on this device, or everywhere).

The session cookie (Flask's signed cookie) carries ``player_id``, ``sv``
(the player's ``players.session_version`` when the session was checked
last) and ``sid`` (a random name of this sign-in, 128 bits). A session
holds while its ``sv`` equals the player's ``session_version``:

- *Sign out everywhere* (:func:`end_everywhere`) adds one to the version:
  every cookie of the player, on any device and any copy of it, stops
  signing in.
- *Sign out* (:func:`end_here`, this device) adds one too and records in
  ``used_tokens`` which session that step ended
  (``session-end:<player>:<old version>:<sid>``). A session of another
  device that finds a newer version reads the records of the steps it
  missed; when each names another session it takes the new version and
  holds. So a captured copy of the signed-out cookie is useless, and the
  player's other devices stay signed in.

The versions and the records are the accounts wing's
(:mod:`pbem.service.accounts.sessions`, the only writer of both); this
module keeps the cookie's side. The check (:func:`holds`) reads the
player's row, which every page that
acts for a player loads anyway (:attr:`flask.g.player`; the order POST
gets it with the game's seats, :func:`pbem.web.common.my_seat`): it costs
no query of its own on the common path, and the records are read only by a
session that missed a step, once. A cookie from before session versions
(``player_id`` alone) counts as version 0 without a name: it holds until
the player's first sign-out of either kind.
"""
from __future__ import annotations

import secrets

from flask import abort, current_app, flash, g, redirect, request, session
from flask_babel import gettext

from pbem.service.accounts import sessions as accounts
from pbem.service.accounts.players import find_player
from pbem.service.core.models import Player


def start(player: Player) -> None:
    """Sign this browser in as ``player``: a new session (nothing from
    before survives it) with a fresh name and the player's current version."""
    session.clear()
    session.permanent = True
    session["player_id"] = player.id
    session["sv"] = player.session_version or 0
    session["sid"] = secrets.token_urlsafe(16)


def holds(player: Player) -> bool:
    """Whether this request's session still signs ``player`` in (its
    ``player_id`` is ``player.id``, checked by the caller). A session that
    survived another device's sign-out takes the current version (the
    cookie is written again). A cookie with an older version is refused
    unless every step since named another session."""
    sv, sid = session.get("sv", 0), session.get("sid")
    current = player.session_version or 0
    if sv == current:
        return True
    if not isinstance(sv, int) or sv > current or not isinstance(sid, str):
        return False
    ended = accounts.ended_sessions(player.id)
    for version in range(sv, current):
        names = ended.get(version)
        if not names or sid in names:  # everywhere, or this very session
            return False
    session["sv"] = current
    return True


def require(player: Player) -> None:
    """Go on only when the session holds for ``player``; otherwise the
    browser is signed out and the request starts again as a visitor's
    (a redirect to the same path, which then asks for a sign-in)."""
    if not holds(player):
        signed_out_here()
        flash(gettext("Your sign-in has ended (you signed out on this device or everywhere). "
                      "Sign in again with a link from your email."))
        abort(redirect(request.full_path.rstrip("?")))


def forget_if_ended() -> None:
    """Before a sign-in link starts a session: a cookie whose sign-in has
    ended (or names a player no longer there) is dropped, so the link's
    session never counts as one this browser already holds
    (:func:`pbem.web.scope.add_seat` adds a seat to a held session)."""
    pid = session.get("player_id")
    if isinstance(pid, int):
        player = find_player(pid)
        if player is None or not holds(player):
            signed_out_here()


def signed_out_here() -> None:
    """Forget the sign-in of this request and this browser (no database)."""
    session.clear()
    g.player_id = None
    g.pop("_player", None)


def end_here(player_id: int) -> None:
    """*Sign out* on this device: this session and every copy of its cookie
    stop working, the player's other sessions hold
    (:func:`pbem.service.accounts.sessions.end_session`, which commits)."""
    sid = session.get("sid")
    # a record lasts as long as a session that missed the step could (its
    # cookie is refreshed on every request, never older than this)
    accounts.end_session(player_id, sid if isinstance(sid, str) else None,
                         lifetime=current_app.permanent_session_lifetime)
    signed_out_here()


def end_everywhere(player_id: int) -> None:
    """*Sign out everywhere*: every session of the player ends
    (:func:`pbem.service.accounts.sessions.end_all_sessions`, which commits)."""
    accounts.end_all_sessions(player_id)
    signed_out_here()
