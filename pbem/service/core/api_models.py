"""Tables of the public API (issue 28; migration 0014): personal access
tokens and the answers kept for ``Idempotency-Key``.

Written only by :mod:`pbem.service.accounts.tokens` (tokens) and
:mod:`pbem.service.play.api_orders` (kept answers); the pages and the API
read and act through them. docs/api.md.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.service.core.db import db
from pbem.service.core.columns import UTCDateTime, utcnow

#: ApiToken.scope values: read only / read and send orders
SCOPE_READ, SCOPE_ORDER = "read", "order"
SCOPES = (SCOPE_READ, SCOPE_ORDER)


class ApiToken(db.Model):
    """A player's personal access token. Only ``token_hash`` (SHA-256 hex
    of the whole token, which holds 256 random bits) is kept; ``prefix``
    (its first characters) tells the player which is which on the tokens
    page. ``game_id`` set: the token reaches that game only. A token
    stops working at ``expires_at`` (UTC) or once ``revoked_at`` is set."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16), default="")
    scope: Mapped[str] = mapped_column(String(8), default=SCOPE_READ)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: when the token last opened a request (kept to the hour: no write per request)
    last_used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)

    player: Mapped["Player"] = relationship("Player")  # noqa: F821  (models.Player)

    @property
    def can_order(self) -> bool:
        return self.scope == SCOPE_ORDER


class ApiIdempotency(db.Model):
    """The answer given to an order request with an ``Idempotency-Key``,
    kept so that the same request sent again gets the same answer and
    changes nothing. ``fingerprint``: SHA-256 of what was asked (game,
    seat, body); the key reused for another request is refused.
    ``status``: the HTTP status; ``body``: the JSON answer."""

    __tablename__ = "api_idempotency"
    __table_args__ = (UniqueConstraint("token_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(200))
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


#: what a webhook is told (ApiWebhook.events)
WEBHOOK_EVENTS = ("your_move", "turn_resolved", "game_over")


class ApiWebhook(db.Model):
    """An HTTPS address a token registered to be told of its games
    (:data:`WEBHOOK_EVENTS`; :mod:`pbem.service.accounts.webhooks`). Each
    call is signed with ``secret`` (HMAC-SHA256). ``failures``: calls
    failed in a row; at the limit the hook is ``disabled_at`` (with
    ``last_error``) and its player told."""

    __tablename__ = "api_webhooks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(2000))
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    disabled_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_error: Mapped[str] = mapped_column(String(300), default="")

    token: Mapped[ApiToken] = relationship()
