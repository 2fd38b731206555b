"""Live play: a turn notice to a seat whose player is at the table (sent
orders from the web page within ``LIVE_WINDOW_SECONDS``) waits
``NOTICE_GRACE_SECONDS``; a move made on the page meanwhile supersedes it, so
a game played live sends no mail per move. Everyone else hears at once.
docs/service.md, "Live play"."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.service.core import queue
from pbem.service.play.orders import submit_orders
from pbem.service.play.replacement import replace_player
from pbem.service.post.delivery import deliver_due

from .helpers import game, new_tally, outbox
from .smtpserver import SMTPServer

S = dt.timedelta(seconds=1)
GRACE = 120
WINDOW = 900


@pytest.fixture(autouse=True)
def live_settings(app):
    app.config.update(NOTICE_GRACE_SECONDS=GRACE, LIVE_WINDOW_SECONDS=WINDOW)


@pytest.fixture
def enqueued(monkeypatch):
    """The task names enqueued after each commit (nothing is run)."""
    names: list[str] = []
    monkeypatch.setattr(queue, "enqueue", lambda name, *args: names.append(name))
    return names


def notice(gid: int, step: int, seat: int):
    rows = [r for r in outbox(kind="turn", game_id=gid) if r.step == step and r.seat_index == seat]
    assert len(rows) == 1, f"no single turn notice of seat {seat + 1} at step {step}"
    return rows[0]


def play_round_on_the_web(gid: int, t0: dt.datetime) -> dt.datetime:
    """Seats 1-3 each ``add 1`` from the web page a minute apart; returns
    when the last one moved (the game is then at the bidding)."""
    at = t0
    for seat in range(3):
        at = t0 + (seat + 1) * 60 * S
        assert submit_orders(gid, seat, "add 1", expected_step=seat, source="web", now=at).resolved
    return at


def test_a_live_players_notice_waits_the_grace_and_a_move_on_the_page_supersedes_it(app, t0, enqueued):
    gid = new_tally(t0)
    for seat in range(3):
        asked = len(enqueued)
        last = t0 + (seat + 1) * 60 * S
        assert submit_orders(gid, seat, "add 1", expected_step=seat, source="web", now=last).resolved
        # seats 2 and 3 had not used the page yet: told at once, delivery asked for
        assert enqueued[asked:] == ([queue.DELIVER] if seat < 2 else [])
    assert notice(gid, 1, 1).next_attempt_at == t0 + 60 * S
    bid_step = game(gid).step
    # all three played on the page within the window: each bid notice waits
    # the grace, and the commit that wrote them asked for no delivery (above)
    for seat in range(3):
        row = notice(gid, bid_step, seat)
        assert row.status == "pending" and row.next_attempt_at == last + GRACE * S
    # seat 1 bids on the page within the grace; the others do not
    assert submit_orders(gid, 0, "bid 0", expected_step=bid_step, source="web", now=last + 30 * S).accepted
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        early = deliver_due(now=last + (GRACE - 1) * S)
        # the two invitations; the round's notices went stale before this
        # first run, and nothing of the bidding is due yet
        assert (early.sent, early.superseded) == (2, 4)
        assert notice(gid, bid_step, 0).status == "superseded"  # it has bid: no "your move"
        due = deliver_due(now=last + GRACE * S)
    assert due.sent == 2
    assert notice(gid, bid_step, 1).status == "sent" and notice(gid, bid_step, 2).status == "sent"
    got = sorted(rcpt[0] for rcpt, _raw in smtp.handler.messages)
    assert got == ["bo@example.org", "bo@example.org", "cy@example.org", "cy@example.org"]  # invitation, bidding


def test_a_move_on_the_page_within_the_grace_means_no_mail_at_all(app, t0):
    gid = new_tally(t0)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        # delivery runs after every move, as the worker does after each commit
        at = t0
        deliver_due(now=t0)
        for seat in range(3):
            at = t0 + (seat + 1) * 60 * S
            assert submit_orders(gid, seat, "add 1", expected_step=seat, source="web", now=at).resolved
            deliver_due(now=at)
        # a bidding and a round played live: each move within the grace of the notice before it
        for seat in range(3):
            at += 20 * S
            submit_orders(gid, seat, "bid 0", expected_step=game(gid).step, source="web", now=at)
            deliver_due(now=at)
        for seat in range(3):
            at += 20 * S
            assert submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=at).resolved
            deliver_due(now=at)
        deliver_due(now=at + GRACE * S)
    turns = outbox(kind="turn", game_id=gid)
    sent = [(r.step, r.seat_index) for r in turns if r.status == "sent"]
    # sent: seat 1's first notice and seats 2's and 3's of the first round
    # (they had not used the page yet), and the notices of the bidding now
    # waiting (nobody has answered them); every other one was superseded
    now_step = game(gid).step
    assert sent == [(0, 0), (1, 1), (2, 2), (now_step, 0), (now_step, 1), (now_step, 2)]
    assert len(turns) > len(sent) + 3
    assert all(r.status == "superseded" for r in turns if (r.step, r.seat_index) not in sent)


def test_a_player_by_mail_or_away_from_the_page_is_told_at_once(app, t0, enqueued):
    gid = new_tally(t0)
    # seat 1 answers by mail: seat 2 has never used the page, seat 1 is not live
    assert submit_orders(gid, 0, "add 1", expected_step=0, source="email", now=t0 + S).resolved
    assert notice(gid, 1, 1).next_attempt_at == t0 + S
    assert enqueued[-1] == queue.DELIVER
    # seat 2 plays on the page; seat 3 by mail; then seat 1's turn comes back
    assert submit_orders(gid, 1, "add 1", expected_step=1, source="web", now=t0 + 2 * S).resolved
    assert submit_orders(gid, 2, "add 1", expected_step=2, source="email", now=t0 + 3 * S).resolved
    # the bidding: seat 2 is live (its web order 1 s ago), seats 1 and 3 are not
    assert notice(gid, 3, 0).next_attempt_at == t0 + 3 * S
    assert notice(gid, 3, 1).next_attempt_at == t0 + 3 * S + GRACE * S
    assert notice(gid, 3, 2).next_attempt_at == t0 + 3 * S
    assert enqueued[-1] == queue.DELIVER
    # a player who left the page longer than the window ago is told at once again
    later = t0 + 2 * S + (WINDOW + 1) * S
    for seat in (0, 2):
        submit_orders(gid, seat, "bid 0", expected_step=3, source="email", now=later)
    assert submit_orders(gid, 1, "bid 0", expected_step=3, source="email", now=later).resolved
    assert submit_orders(gid, 0, "add 1", expected_step=6, source="email", now=later + S).resolved
    assert game(gid).seat(1).last_web_order_at == t0 + 2 * S  # orders by mail leave it
    assert notice(gid, 7, 1).next_attempt_at == later + S


def test_a_grace_of_zero_sends_every_notice_at_once(app, t0, enqueued):
    app.config["NOTICE_GRACE_SECONDS"] = 0
    gid = new_tally(t0)
    last = play_round_on_the_web(gid, t0)
    assert all(notice(gid, 3, seat).next_attempt_at == last for seat in range(3))
    assert enqueued[-1] == queue.DELIVER


def test_a_new_player_in_a_live_seat_is_told_at_once(app, t0):
    gid = new_tally(t0)
    last = play_round_on_the_web(gid, t0)
    # Bo played live; Dee takes over seat 2 during the bidding: her notice goes at once when she accepts
    from pbem.service.play.lifecycle import join_game

    replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=game(gid).host_id, now=last + S)
    join_game(gid, 1, player_id=game(gid).seat(1).player_id, now=last + S)
    rows = [r for r in outbox(kind="turn", game_id=gid) if r.step == 3 and r.seat_index == 1]
    assert [r.recipient for r in rows] == ["bo@example.org", "dee@example.org"]
    assert rows[1].next_attempt_at == last + S
    assert game(gid).seat(1).last_web_order_at is None
