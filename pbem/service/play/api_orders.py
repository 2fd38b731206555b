"""Orders sent through the public API with an ``Idempotency-Key`` (issue
28; docs/api.md): the only writer of
:class:`pbem.service.core.api_models.ApiIdempotency`.

:func:`submit_once` sends the orders through the same
:func:`pbem.service.play.orders.submit_orders` as the pages and mail, and
keeps the answer under ``(token, key)`` in the same transaction as the
orders (its ``before_commit``), so a request sent again after a lost
answer gets the kept answer and changes nothing. A key is kept
:data:`KEEP_SECONDS` (a day); the same key with another request is
refused (:class:`KeyReused`).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Callable

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from pbem.service.core.api_models import ApiIdempotency
from pbem.service.core.db import db
from pbem.service.core.models import utcnow
from pbem.service.core.snapshot import load_game
from pbem.service.play.orders import submit_orders
from pbem.service.play.submission import SubmitResult

log = logging.getLogger(__name__)

#: how long an answer is kept for its key, seconds
KEEP_SECONDS = 24 * 3600


class KeyReused(Exception):
    """The ``Idempotency-Key`` was used before for a different request."""


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: ``status`` and the JSON ``body`` (a dict);
    ``replayed``: it is the kept answer of an earlier request."""

    status: int
    body: dict
    replayed: bool = False


def fingerprint(*parts: object) -> str:
    """SHA-256 hex of ``parts`` as JSON: what a request asked for."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def recall(token_id: int, key: str, asked: str, *, now: dt.datetime | None = None) -> Answer | None:
    """The kept answer of ``key`` for ``token_id`` (``None``: none kept,
    or older than :data:`KEEP_SECONDS`). Raises :class:`KeyReused` when it
    was kept for another request (``asked`` differs)."""
    row = db.session.execute(select(ApiIdempotency).where(ApiIdempotency.token_id == token_id,
                                                          ApiIdempotency.key == key)).scalar_one_or_none()
    now = now or utcnow()
    if row is None or (now - row.created_at).total_seconds() > KEEP_SECONDS:
        return None
    if row.fingerprint != asked:
        raise KeyReused(key)
    return Answer(row.status, json.loads(row.body), replayed=True)


def submit_once(token_id: int, key: str | None, asked: str, game_id: int, seat_index: int, text: str, *,
                expected_step: int | None, answer: Callable[[SubmitResult], Answer],
                now: dt.datetime | None = None, game=None) -> Answer:
    """Submit ``text`` for seat ``seat_index`` (0-based) of ``game_id``
    (source ``api``) and give ``answer(result)``. With a ``key``: a kept
    answer is given again instead (nothing submitted); otherwise the answer
    is kept with the orders, in their transaction (a refusal's answer too).
    Locks the game row first (:func:`load_game`; ``game``: the row when
    the caller has locked it already). Raises
    :class:`KeyReused`, and what ``submit_orders`` raises
    (:class:`~pbem.service.core.errors.GameNotFound`)."""
    now = now or utcnow()
    # the game row locked first: the key is looked up under the lock, so
    # the same key sent twice at once is answered once, and the orders go
    # on with the row read once (as the order page's POST)
    game = load_game(game_id, for_update=True) if game is None else game
    if key:
        kept = recall(token_id, key, asked, now=now)
        if kept is not None:
            db.session.rollback()
            return kept
    given: list[Answer] = []

    def keep(result: SubmitResult) -> None:
        given.append(answer(result))
        if key:
            _purge(token_id, now)
            db.session.add(ApiIdempotency(token_id=token_id, key=key, fingerprint=asked, status=given[-1].status,
                                          body=json.dumps(given[-1].body), created_at=now))
            db.session.flush()

    try:
        result = submit_orders(game_id, seat_index, text, expected_step=expected_step, source="api",
                               before_commit=keep, now=now, game=game)
    except IntegrityError:  # the same key sent twice at once: the first one's answer stands
        db.session.rollback()
        kept = recall(token_id, key or "", asked, now=now)
        if kept is None:
            raise
        return kept
    return given[-1] if given else answer(result)


def _purge(token_id: int, now: dt.datetime) -> None:
    """Forget this token's answers older than :data:`KEEP_SECONDS`."""
    db.session.execute(delete(ApiIdempotency).where(
        ApiIdempotency.token_id == token_id,
        ApiIdempotency.created_at < now - dt.timedelta(seconds=KEEP_SECONDS)))


__all__ = ["Answer", "KeyReused", "fingerprint", "recall", "submit_once", "KEEP_SECONDS"]
