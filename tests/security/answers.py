"""Every answer a seat gets to order text it sends, without keeping any of
it: the order page's review (``POST .../review``), ``next.json`` (the
page's dry run), and the email answer exactly as the inbound pipeline
writes it (:func:`pbem.service.play.orders.submit_orders` with a
``before_commit`` that calls :func:`pbem.service.post.notify.order_answer` on
the game as committed then, like ``pbem.service.inbound``), each with the
log lines written meanwhile. Nothing is stored: the email submission is
rolled back after its answer is read, so the same position can be probed
again (and again with hidden cards changed).

Shared by the hidden-information tests (``test_no_leaks.py``,
``test_turn_end.py``)."""
from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import logging
import re
from email import message_from_bytes, policy

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage
from pbem.service.core.snapshot import engine_state
from pbem.service.play.orders import submit_orders
from pbem.service.post import notify
from pbem.service.post.outbox import render

from .conftest import CSRF_RE

#: the answer mail's clock (its Date and Message-ID); the answer is compared
#: between runs, so it must not move
FIXED_NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)

_SIGNIN_LINK = re.compile(r"/signin/[A-Za-z0-9_.\-]+")
_MSGID = re.compile(r"[0-9]{6,}\.[0-9]+\.[0-9]+\.[A-Za-z]+@[A-Za-z0-9.\-]+")
_probe_ids = itertools.count()


def normalise_page(text: str) -> str:
    """A page with its random CSRF token blanked."""
    return CSRF_RE.sub('name="csrf_token" value="-"', text)


def email_text(raw: bytes | None) -> str:
    """Subject and every part, the random sign-in link tokens and
    Content-IDs blanked (empty for a stale turn notice, never sent)."""
    if raw is None:
        return ""
    msg = message_from_bytes(raw, policy=policy.default)
    parts = [f"Subject: {msg['Subject']}"]
    for part in msg.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        parts.append(content if isinstance(content, str) else content.hex())
    return _MSGID.sub("<cid>", _SIGNIN_LINK.sub("/signin/-", "\n".join(parts)))


class _Captured(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.levelname} {record.getMessage()}")


@contextlib.contextmanager
def captured_logs():
    """The log lines (every logger, every level) written inside the block."""
    handler = _Captured()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler.lines
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


class _ReadAndUndo(Exception):
    """Raised after the answer is read: the submission's transaction is
    rolled back, nothing of it kept."""


def email_answer(game_id: int, seat: int, text: str, *, step: int | None) -> str:
    """The answer mail seat ``seat`` (0-based) gets to ``text`` sent by email
    (refusal or confirmation), as text; nothing is kept. A confirmation
    names the phase the game has moved to once the orders are applied (the
    seat's turn is over, every seat is told); that phase is blanked, being
    the outcome of the orders, not an answer about them."""
    key = f"probe:{next(_probe_ids)}"
    out: dict[str, str] = {}

    def write_answer(res) -> None:
        g = db.session.get(Game, game_id)
        state = engine_state(g) if g.state is not None else None
        notify.order_answer(g, g.seat(seat), res, in_reply_to="<probe@example.org>", dedupe_key=key,
                            state=state, now=FIXED_NOW)
        db.session.flush()
        row = db.session.execute(select(OutboxMessage).where(OutboxMessage.dedupe_key == key)).scalar_one()
        body = email_text(render(row))
        if res.accepted:
            body = body.replace(g.phase, "<the phase after these orders>")
        out["text"] = f"{res.status}\n{body}"
        raise _ReadAndUndo

    try:
        submit_orders(game_id, seat, text, expected_step=step, source="email", before_commit=write_answer)
    except _ReadAndUndo:
        pass
    finally:
        db.session.rollback()
    return out["text"]


def _csrf_token(client, page: str) -> str:
    """The CSRF token of ``client``'s session (read from ``page`` once; it
    lasts as long as the session)."""
    token = getattr(client, "_probe_csrf_token", None)
    if token is None:
        token = client._probe_csrf_token = CSRF_RE.search(client.get(page).get_data(as_text=True)).group(1)
    return token


def order_answers(client, game_id: int, seat: int, text: str) -> dict[str, str]:
    """Every answer seat ``seat`` (0-based; ``client`` signed in as its
    player) gets to order ``text``, keyed by path: the review page (status
    and HTML), next.json, the email answer, and the log lines each wrote.
    Rate-limit counters are reset first (a property test asks many times)."""
    from pbem.web.extensions import limiter

    limiter.reset()
    db.session.rollback()
    step = db.session.get(Game, game_id).step
    db.session.rollback()
    base = f"/games/{game_id}/seat/{seat + 1}"
    token = _csrf_token(client, base)
    out: dict[str, str] = {}
    with captured_logs() as logs:
        review = client.post(f"{base}/review", data={"csrf_token": token, "step": step, "orders": text})
        out["review"] = f"{review.status_code}\n{normalise_page(review.get_data(as_text=True))}"
    out["review log"] = "\n".join(logs)
    with captured_logs() as logs:
        nxt = client.get(f"{base}/next.json", query_string={"orders": text, "step": step})
        out["next.json"] = f"{nxt.status_code}\n{json.dumps(nxt.get_json(), sort_keys=True)}"
    out["next.json log"] = "\n".join(logs)
    with captured_logs() as logs:
        out["email"] = email_answer(game_id, seat, text, step=step)
    out["email log"] = "\n".join(logs)
    return out
