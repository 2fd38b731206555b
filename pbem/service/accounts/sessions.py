"""Sign-in sessions, the service's side: ending them (the cookie's side is
:mod:`pbem.web.sessions`).

A session cookie signs its player in while the version it carries equals
``players.session_version``. Ending sessions adds one to that version in
one ``UPDATE`` (two sign-outs at once both count), under the write lock
(:func:`pbem.service.core.db.begin_write`):

- :func:`end_all_sessions` (*sign out everywhere*): every cookie of the
  player, on any device, stops signing in.
- :func:`end_session` (*sign out* on one device) also records in
  ``used_tokens`` which session the step ended
  (``session-end:<player>:<old version>:<session name>``), so the player's
  other sessions can take the new version and hold
  (:func:`ended_sessions`), while every copy of the ended cookie is
  refused.

The only writer of ``players.session_version`` and of these records. Each
action commits.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from pbem.service.core.db import begin_write, db
from pbem.service.core.models import Player, UsedToken, utcnow

#: prefix of the ``used_tokens`` rows that name the session a sign-out ended
RECORD = "session-end:"
#: the name recorded for a cookie from before session names: it ends that
#: cookie's copies only, never another session
NO_NAME = "-"


def end_session(player_id: int, name: str | None, *, lifetime: dt.timedelta,
                now: dt.datetime | None = None) -> int:
    """*Sign out* the session called ``name`` (``None``: a cookie from
    before session names) of ``player_id``: the player's version goes up by
    one and the step is recorded as this session's, kept for ``lifetime``
    (a session that missed the step and made no request for that long has
    expired anyway). Returns the new version. Commits."""
    now = now or utcnow()
    old = _step(player_id)
    db.session.add(UsedToken(nonce=f"{RECORD}{player_id}:{old}:{name or NO_NAME}", used_at=now,
                             expires_at=now + lifetime))
    db.session.commit()
    return old + 1


def end_all_sessions(player_id: int) -> int:
    """*Sign out everywhere*: every session of ``player_id`` ends. Returns
    the new version. Commits."""
    new = _step(player_id) + 1
    db.session.commit()
    return new


def ended_sessions(player_id: int) -> dict[int, set[str]]:
    """``{version: names of the sessions the step from it ended}``; a
    version missing here was left by *sign out everywhere*."""
    prefix = f"{RECORD}{player_id}:"
    out: dict[int, set[str]] = {}
    rows = db.session.execute(select(UsedToken.nonce).where(UsedToken.nonce.startswith(prefix, autoescape=True)))
    for (nonce,) in rows:
        version, _, name = nonce[len(prefix):].partition(":")
        if version.isdigit():
            out.setdefault(int(version), set()).add(name)
    return out


def _step(player_id: int) -> int:
    """Add one to the player's session version (one statement, under the
    write lock); returns the version before."""
    begin_write()
    db.session.execute(update(Player).where(Player.id == player_id)
                       .values(session_version=Player.session_version + 1))
    new = db.session.execute(select(Player.session_version).where(Player.id == player_id)).scalar_one()
    return new - 1
