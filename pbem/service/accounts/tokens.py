"""Personal access tokens of the public API (issue 28; docs/api.md): the
only writer of :class:`pbem.service.core.api_models.ApiToken`.

- :func:`create_token`: a new token for a player (scope ``read`` or
  ``order``, optionally one game, expiring after ``days``, default 365);
  returns the row and the token itself, which is never stored (only its
  SHA-256) and so shown once.
- :func:`revoke_token`: the player ends one of their tokens.
- :func:`tokens_of`: a player's tokens, newest first.
- :func:`authenticate`: the token a request carries, or why it is refused
  (:class:`TokenRefused`: ``missing``, ``invalid``, ``revoked``,
  ``expired``). A refusal is logged with the reason and, for a known
  token, its id and prefix; never the token.

A token is ``pbem_`` and 43 URL-safe characters (256 random bits), so a
plain SHA-256 is the right hash: no password stretching is needed for a
secret nobody chose. The lookup is by the hash (unique index), which
takes as long for every wrong token.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import logging
import secrets

from sqlalchemy import select, update
from sqlalchemy.orm import joinedload

from pbem.engine.messages import Msg
from pbem.service.core.api_models import SCOPES, ApiToken
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import Seat, utcnow

log = logging.getLogger(__name__)

#: what every token starts with (secret scanners can look for it)
TOKEN_PREFIX = "pbem_"
#: days a token lasts unless the player chooses otherwise
DEFAULT_DAYS = 365
#: the longest life a player may choose, days
MAX_DAYS = 3 * 365
#: most live tokens a player may hold at once
MAX_TOKENS = 20
#: characters of the token shown on the tokens page to tell tokens apart
SHOWN = 12
#: how often ``last_used_at`` is written, seconds (not on every request)
USED_EVERY = 3600


class TokenRefused(Exception):
    """A request's token does not open the API: ``reason`` is one of
    ``missing``, ``invalid``, ``revoked``, ``expired``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def token_hash(token: str) -> str:
    """SHA-256 hex of ``token`` (what is stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def create_token(player_id: int, name: str, scope: str, *, game_id: int | None = None,
                 days: int | None = DEFAULT_DAYS, now: dt.datetime | None = None) -> tuple[ApiToken, str]:
    """Create a token for ``player_id``; returns ``(row, token)``. ``name``
    (1-100 characters) says what it is for; ``scope`` one of
    :data:`SCOPES`; ``game_id``: a game where the player holds a seat;
    ``days`` 1 to :data:`MAX_DAYS`. Raises :class:`ServiceError` (nothing
    written). Commits."""
    now = now or utcnow()
    name = " ".join((name or "").split())[:100]
    if not name:
        raise ServiceError(Msg("Please give the token a name, so you know later what it is for."))
    if scope not in SCOPES:
        raise ServiceError(Msg("Please choose what the token may do."))
    try:
        days = int(days if days is not None else DEFAULT_DAYS)
    except (TypeError, ValueError):
        days = 0
    if not 1 <= days <= MAX_DAYS:
        raise ServiceError(Msg("A token lasts from 1 to {days} days.", days=MAX_DAYS))
    if game_id is not None and not _holds_seat(player_id, game_id):
        raise ServiceError(Msg("You have no seat in that game."))
    if len([t for t in tokens_of(player_id) if is_live(t, now)]) >= MAX_TOKENS:
        raise ServiceError(Msg("You have {n} tokens already; please revoke one first.", n=MAX_TOKENS))
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    begin_write()
    row = ApiToken(player_id=player_id, name=name, token_hash=token_hash(token), prefix=token[:SHOWN],
                   scope=scope, game_id=game_id, created_at=now, expires_at=now + dt.timedelta(days=days))
    db.session.add(row)
    db.session.commit()
    log.info("api token %s created for player %s (scope %s, game %s)", row.id, player_id, scope, game_id)
    return row, token


def _holds_seat(player_id: int, game_id: int) -> bool:
    return db.session.execute(select(Seat.id).where(Seat.game_id == game_id, Seat.player_id == player_id)
                              .limit(1)).first() is not None


def revoke_token(player_id: int, token_id: int, *, now: dt.datetime | None = None) -> None:
    """End token ``token_id`` of ``player_id`` now. Raises
    :class:`NotAllowed` when it is not theirs. Revoking twice keeps the
    first time. Commits."""
    begin_write()
    done = db.session.execute(update(ApiToken).where(ApiToken.id == token_id, ApiToken.player_id == player_id)
                              .values(revoked_at=db.func.coalesce(ApiToken.revoked_at, now or utcnow())))
    if done.rowcount != 1:
        db.session.rollback()
        raise NotAllowed(Msg("That is not one of your tokens."))
    db.session.commit()
    log.info("api token %s revoked by player %s", token_id, player_id)


def tokens_of(player_id: int) -> list[ApiToken]:
    """Every token of ``player_id``, revoked and expired ones too, newest first."""
    return list(db.session.execute(select(ApiToken).where(ApiToken.player_id == player_id)
                                   .order_by(ApiToken.id.desc())).scalars())


def is_live(token: ApiToken, now: dt.datetime | None = None) -> bool:
    """Neither revoked nor expired at ``now``."""
    return token.revoked_at is None and token.expires_at > (now or utcnow())


def authenticate(token: str | None, *, now: dt.datetime | None = None) -> ApiToken:
    """The live :class:`ApiToken` whose token is ``token``; raises
    :class:`TokenRefused` (logged at WARNING with the reason, never the
    token). Notes ``last_used_at`` at most once per :data:`USED_EVERY`.
    The row comes detached from the session, loaded with its ``player``."""
    now = now or utcnow()
    if not token:
        log.warning("api request refused: no token")
        raise TokenRefused("missing")
    # the player in the same statement: every request speaks to them
    row = db.session.execute(select(ApiToken).options(joinedload(ApiToken.player))
                             .where(ApiToken.token_hash == token_hash(token))).scalar_one_or_none()
    if row is None:
        log.warning("api request refused: unknown token")
        raise TokenRefused("invalid")
    for reason, failed in (("revoked", row.revoked_at is not None), ("expired", row.expires_at <= now)):
        if failed:
            log.warning("api request refused: token %s (%s...) of player %s is %s", row.id, row.prefix,
                        row.player_id, reason)
            raise TokenRefused(reason)
    if row.last_used_at is None or (now - row.last_used_at).total_seconds() > USED_EVERY:
        _note_use(row.id, now)
    # detached, with its player: a commit later in the request (orders) does
    # not expire them, so the seat check and the answer's language do not
    # read them again
    db.session.expunge(row.player)
    db.session.expunge(row)
    return row


def _note_use(token_id: int, now: dt.datetime) -> None:
    try:
        begin_write()
        db.session.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=now))
        db.session.commit()
    except Exception:  # noting the use is a courtesy: the request goes on
        db.session.rollback()
        log.exception("could not note the use of api token %s", token_id)


__all__ = ["TokenRefused", "create_token", "revoke_token", "tokens_of", "authenticate", "is_live", "token_hash",
           "DEFAULT_DAYS", "MAX_DAYS", "TOKEN_PREFIX"]
