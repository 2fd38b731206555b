"""Faults of the real parts: Redis gone while orders arrive, the SMTP
server refusing or down, inbound mail delivered twice or answering an old
notice. PostgreSQL + Redis + real ``celery worker`` processes."""
from __future__ import annotations

import base64
import datetime as dt
import time
from collections import Counter
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import pytest
from sqlalchemy import select

from pbem.service.core.models import InboundMessage, OutboxMessage, OUT_SENT

from .play import (
    count, fresh, moves, new_game, outbox_rows, pending, play_round_of_adds, settle, step, submit,
    wait_step,
)
from .stack import PrivateRedis, wait_for

pytestmark = pytest.mark.integration


# ------------------------------------------------------------------ Redis down
@pytest.mark.slow
def test_redis_stopped_and_restarted_while_orders_arrive(make_stack, tmp_path):
    redis_dir = tmp_path / "redis"
    redis_dir.mkdir()
    broker = PrivateRedis(redis_dir).start()  # never the machine's shared Redis
    try:
        stack = make_stack(broker.url)
        worker = stack.worker()
        gid = new_game()
        play_round_of_adds(gid)
        bid_step = step(gid)
        other = new_game(seed=11)
        other_step = step(other)

        broker.stop()
        # orders keep arriving: each is stored and answered. Resolved in the
        # request (the default), a turn does not need the broker at all:
        resolved_now = submit(other, 0, "add 2")
        assert resolved_now.resolved and step(other) == other_step + 1
        assert moves(other) == [(other_step, 0, "add 2")]
        # left to the worker, only the enqueueing of the resolve task fails
        # (logged, left to the scan)
        stack.app.config["RESOLVE_IN_REQUEST"] = False
        started = time.monotonic()
        answers = [submit(gid, seat, f"bid {seat % 2}") for seat in range(3)]
        assert [a.status for a in answers] == ["stored"] * 3
        assert answers[2].ready and not answers[2].resolved
        assert time.monotonic() - started < 60  # a dead broker does not hang the web process
        assert pending(gid) == [(0, bid_step, "bid 0"), (1, bid_step, "bid 1"), (2, bid_step, "bid 0")]
        assert step(gid) == bid_step

        broker.start()  # same port, empty: the messages sent while down are gone
        # beat's next scan finds the ready turns (re-sent until the worker
        # has reconnected to the broker)
        # (every 5 s, as beat would: a scan a second piles up dozens for the
        # worker to work through once it is back, which on a busy CI machine
        # took longer than the wait)
        last_scan = [0.0]

        def resolved() -> bool:
            if step(gid) >= bid_step + 3 and step(other) >= other_step + 1:
                return True
            if time.monotonic() - last_scan[0] >= 5:
                try:
                    stack.send("pbem.scan")
                    last_scan[0] = time.monotonic()
                except Exception:
                    pass
            time.sleep(0.5)
            return False

        wait_for(resolved, 150, "the worker to reconnect and the scan to resolve both games")
        assert worker.alive  # the worker rode out the outage
        settle(stack)
        assert [m for m in moves(gid) if m[0] >= bid_step] == [
            (bid_step, 0, "bid 0"), (bid_step + 1, 1, "bid 1"), (bid_step + 2, 2, "bid 0")]
        assert moves(other) == [(other_step, 0, "add 2")]
        assert step(gid) == bid_step + 3 and step(other) == other_step + 1
        assert pending(gid) == [] and pending(other) == []
    finally:
        broker.stop()


# ------------------------------------------------------------------ SMTP faults
@pytest.mark.slow
def test_smtp_refusing_then_down_mail_stays_in_outbox_retried_with_backoff_sent_once(stack):
    backoff = 1.0
    stack.smtp.mode = "refuse"
    stack.worker(PBEM_OUTBOX_BACKOFF=str(backoff))
    gid = new_game()  # invitations and the first turn notice go to the outbox

    def pump() -> None:  # beat's deliver-outbox, more often than every 5 s
        stack.send("pbem.deliver_outbox")

    rows = outbox_rows(game_id=gid)
    assert rows
    ids = {r.id for r in rows}

    def refused_at_least(n: int = 3) -> bool:
        pump()
        time.sleep(0.2)
        by_msg = Counter(mid for mid, _t in stack.smtp.handler.refusals)
        return (len(by_msg) == len(ids) and min(by_msg.values()) >= n
                and all(r.status == "pending" for r in outbox_rows(game_id=gid)))

    wait_for(refused_at_least, 30, "three refused attempts of every message", every=0)
    rows = outbox_rows(game_id=gid)
    assert all(r.status == "pending" and r.attempts >= 3 and "451" in (r.last_error or "") for r in rows)
    assert stack.smtp.messages() == []
    # backoff: the attempts of one message are spaced backoff * 2**(n-1) apart
    # (1 s, 2 s, ...) even though delivery was asked for every 0.2 s. The wait
    # counts from the start of the delivery run, so an attempt made later in
    # a run may come up to one run's length (< 0.4 s here) early.
    times: dict[str, list[float]] = {}
    for mid, t in stack.smtp.handler.refusals:
        times.setdefault(mid, []).append(t)
    for series in times.values():
        gaps = [b - a for a, b in zip(series, series[1:])]
        assert len(gaps) >= 2
        for n, gap in enumerate(gaps[:2], 1):
            assert gap >= backoff * 2 ** (n - 1) - 0.4, (gaps, series)
        assert gaps[1] > gaps[0] * 1.4, gaps  # it grows

    # now the server is down altogether (connection refused)
    stack.smtp.stop()
    before = {r.id: r.attempts for r in outbox_rows(game_id=gid)}

    def one_more_failure() -> bool:
        pump()
        time.sleep(0.2)
        return all(r.attempts > before[r.id] and r.status == "pending" for r in outbox_rows(game_id=gid))

    wait_for(one_more_failure, 30, "a failed attempt against the stopped server", every=0)
    rows = outbox_rows(game_id=gid)
    assert all(r.status == "pending" and r.sent_at is None for r in rows)

    # back up: every message is sent, once
    stack.smtp.mode = "accept"
    stack.smtp.start()

    def all_sent() -> bool:
        pump()
        time.sleep(0.3)
        return all(r.status == OUT_SENT for r in outbox_rows(game_id=gid))

    wait_for(all_sent, 60, "every outbox row to be sent", every=0)
    for _ in range(5):  # more delivery runs change nothing
        pump()
    settle(stack)
    rows = outbox_rows(game_id=gid)
    sent_ids = stack.smtp.message_ids()
    assert Counter(sent_ids).most_common(1)[0][1] == 1  # nothing twice
    assert sorted(sent_ids) == sorted(r.raw and _msgid(r) for r in rows)
    assert all(r.status == OUT_SENT and r.sent_at is not None and r.last_error is None for r in rows)


def _msgid(row: OutboxMessage) -> str:
    from email import message_from_bytes, policy

    return str(message_from_bytes(row.raw, policy=policy.default)["Message-ID"])


# ------------------------------------------------------------------ inbound mail
def _turn_notice(gid: int, seat: int, at_step: int):
    from email import message_from_bytes, policy

    from tests.service.helpers import raw_of

    row = next(r for r in outbox_rows(game_id=gid, kind="turn")
               if r.dedupe_key == f"turn:{gid}:{at_step}:{seat}")
    return message_from_bytes(raw_of(row), policy=policy.default)


def _reply(notice, body: str, sender: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender or str(notice["To"])
    msg["To"] = str(notice["Reply-To"])
    msg["Subject"] = "Re: " + str(notice["Subject"])
    msg["Date"] = format_datetime(dt.datetime.now(dt.timezone.utc))
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = str(notice["Message-ID"])
    msg["References"] = str(notice["Message-ID"])
    msg.set_content(f"{body}\n\nOn Sunday pbem wrote:\n> Your turn.\n")
    return msg.as_bytes()


def _deliver_inbound(stack, raw: bytes) -> None:
    """As the MTA pipe does: hand the raw message to the inbound task."""
    stack.send("pbem.inbound", base64.b64encode(raw).decode("ascii"))


def test_same_inbound_email_delivered_twice_is_applied_once(stack):
    stack.worker(concurrency=2)
    gid = new_game()
    s0 = step(gid)
    raw = _reply(_turn_notice(gid, 0, s0), "add 2")
    _deliver_inbound(stack, raw)  # the MTA delivers it twice, at once
    _deliver_inbound(stack, raw)
    wait_step(gid, s0 + 1)
    _deliver_inbound(stack, raw)  # and once more, later
    settle(stack)
    assert moves(gid) == [(s0, 0, "add 2")]
    assert step(gid) == s0 + 1
    assert count(InboundMessage) == 1
    answers = [r for r in outbox_rows(game_id=gid) if r.kind in ("confirmation", "refusal")]
    assert len(answers) == 1 and answers[0].kind == "confirmation"
    assert answers[0].recipient == "ada@example.org"


def test_reply_to_an_old_notice_is_refused_as_stale(stack):
    stack.worker()
    gid = new_game()
    s0 = step(gid)
    old_notice = _turn_notice(gid, 0, s0)
    _deliver_inbound(stack, _reply(old_notice, "add 1"))
    wait_step(gid, s0 + 1)
    play_from = step(gid)
    for seat in (1, 2):  # the round goes on to bidding, where seat 1 acts again
        submit(gid, seat, "add 1")
        wait_step(gid, play_from + seat)
    g = fresh(gid)
    assert g.phase == "Bidding"
    stale_step = g.step
    # seat 1 answers the turn email of step s0 again: that email is old
    raw = _reply(old_notice, "bid 0")
    _deliver_inbound(stack, raw)
    mid = str(_parse_id(raw))
    wait_for(lambda: count(InboundMessage) == 2, 30, "the second mail to be processed")
    settle(stack, quiet=0.5)
    from pbem.service.core.db import db

    rec = db.session.execute(select(InboundMessage).where(InboundMessage.message_id == mid)).scalar_one()
    assert rec.result == "stale"
    assert step(gid) == stale_step
    assert pending(gid) == []  # not stored for the new state
    refusal = [r for r in outbox_rows(game_id=gid, kind="refusal")]
    assert len(refusal) == 1 and refusal[0].recipient == "ada@example.org"
    from tests.service.helpers import body_text

    text = body_text(refusal[0])
    assert ("moved on" in text or "before the last move" in text) and f"step {s0}" not in text and "bid 0" in text


def _parse_id(raw: bytes) -> str:
    from email import message_from_bytes, policy

    return str(message_from_bytes(raw, policy=policy.default)["Message-ID"])
