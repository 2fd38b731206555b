"""Bot seats in the service (issue 27 section 3): seating, running a bot's
decision exactly once, no mail to a bot, a person's pace."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from pbem.service.core import queue
from pbem.service.core.bots import is_bot_email
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Move, OutboxMessage, Player
from pbem.service.play import bot_turns
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import SeatSpec, create_game
from pbem.service.play.orders import submit_orders

from .helpers import game as game_row

ADA = "ada@example.org"


def new_bot_game(t0, bots=("random", "random"), **kw) -> int:
    seats = [SeatSpec(ADA, "Ada")] + [SeatSpec(bot=b) for b in bots]
    return create_game("tally", ADA, seats, seed=7, now=t0, **kw).id


def moves(gid: int) -> list[Move]:
    db.session.commit()
    return list(db.session.execute(select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars())


@pytest.fixture
def no_bot_task(monkeypatch):
    """Bot runs are not started by commits: the test runs them itself."""
    real = queue.enqueue
    monkeypatch.setattr(queue, "enqueue", lambda name, *a: None if name == queue.BOTS else real(name, *a))


def test_a_game_of_one_person_and_bots_starts_at_once_and_waits_for_the_person(app, t0):
    gid = new_bot_game(t0)
    g = game_row(gid)
    assert g.status == "active" and g.person_paced and g.deadline_at is None
    assert [s.bot for s in g.seats] == [None, "random", "random"]
    assert all(s.joined for s in g.seats)
    assert is_bot_email(g.seat(1).player.email) and g.seat(1).player_id == g.seat(2).player_id


def test_the_host_may_set_a_deadline_for_a_game_against_bots(app, t0):
    g = game_row(new_bot_game(t0, deadline_seconds=3600))
    assert not g.person_paced and g.deadline_at == t0 + dt.timedelta(hours=1)


@pytest.mark.parametrize("seats, why", [
    ([SeatSpec(bot="random"), SeatSpec(bot="greedy")], "at least one person"),
    ([SeatSpec(ADA), SeatSpec(bot="clever")], "unknown bot"),
])
def test_refused_tables(app, t0, seats, why):
    with pytest.raises(ServiceError, match=why):
        create_game("tally", ADA, seats, now=t0)


def test_bots_answer_the_persons_move_with_source_bot(app, t0):
    gid = new_bot_game(t0)
    r = submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)
    assert r.resolved
    ms = moves(gid)
    assert [(m.seat_index, m.source) for m in ms[:3]] == [(0, "web"), (1, "bot"), (2, "bot")]
    # then everyone bids at once: the bots' bids are stored, the game waits for Ada
    g = game_row(gid)
    assert g.phase == "Bidding" and len(ms) == 3


def test_a_whole_game_against_bots_never_mails_a_bot(app, t0):
    gid = new_bot_game(t0, bots=("random", "greedy"))
    for _ in range(40):
        g = game_row(gid)
        if g.status == "finished":
            break
        order = "bid 0" if g.phase == "Bidding" else "add 1"
        assert submit_orders(gid, 0, order, expected_step=g.step, source="web", now=t0).status == "stored"
    assert game_row(gid).status == "finished"
    rows = db.session.execute(select(OutboxMessage)).scalars().all()
    assert rows and not [r for r in rows if is_bot_email(r.recipient)]
    assert {m.source for m in moves(gid) if m.seat_index > 0} == {"bot"}


def test_a_second_run_for_the_same_step_does_nothing(app, t0, no_bot_task):
    gid = new_bot_game(t0)
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)
    assert len(moves(gid)) == 1
    first = bot_turns.play_bots(gid, now=t0)
    assert [(step, seat) for step, seat, _ in first.moves][:2] == [(1, 1), (2, 2)]
    again = bot_turns.play_bots(gid, now=t0)
    assert again.moves == [] and len(moves(gid)) == 3
    # a run that chose at step 1 and submits late is refused by the step check
    late = submit_orders(gid, 1, "add 1", expected_step=1, source="bot", now=t0)
    assert late.status == "stale" and len(moves(gid)) == 3


def test_a_crash_between_choosing_and_submitting_leaves_the_decision_owed(app, t0, no_bot_task, monkeypatch):
    gid = new_bot_game(t0)
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)

    def dies(*a, **kw):
        raise SystemExit("worker killed")

    monkeypatch.setattr(bot_turns, "submit_orders", dies)
    with pytest.raises(SystemExit):
        bot_turns.play_bots(gid, now=t0)
    db.session.rollback()
    assert len(moves(gid)) == 1 and game_row(gid).step == 1
    monkeypatch.undo()
    run = bot_turns.play_bots(gid, now=t0)
    assert [(step, seat) for step, seat, _ in run.moves][:2] == [(1, 1), (2, 2)]
    assert [m.step for m in moves(gid)] == [0, 1, 2]


def test_the_scan_restarts_a_lost_run(app, t0, monkeypatch):
    gid = new_bot_game(t0)
    real = queue.enqueue
    monkeypatch.setattr(queue, "enqueue", lambda name, *a: None if name == queue.BOTS else real(name, *a))
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)
    assert len(moves(gid)) == 1
    monkeypatch.setattr(queue, "enqueue", real)
    later = t0 + dt.timedelta(seconds=bot_turns.STALLED_SECONDS + 1)
    scan(now=later)
    assert [m.source for m in moves(gid)] == ["web", "bot", "bot"]


def test_the_bots_seed_is_the_games_seed_step_and_seat():
    assert bot_turns.bot_seed(7, 3, 1) == bot_turns.bot_seed(7, 3, 1)
    assert len({bot_turns.bot_seed(7, 3, 1), bot_turns.bot_seed(7, 4, 1), bot_turns.bot_seed(7, 3, 2),
                bot_turns.bot_seed(8, 3, 1)}) == 4


def test_the_standard_bot_plays_within_its_budget(app, t0):
    app.config["BOT_SECONDS"] = 0.05
    gid = new_bot_game(t0, bots=("standard",))
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)
    assert [(m.seat_index, m.source) for m in moves(gid)] == [(0, "web"), (1, "bot")]


def test_a_bot_player_row_is_never_mailed(app, t0):
    from pbem.service.post.mailprefs import route

    new_bot_game(t0)
    bot = db.session.execute(select(Player).where(Player.email.like("%@bots.invalid"))).scalars().first()
    for kind in ("turn", "invite", "signin", "over", "missed", "seat_given", "talk", "refusal"):
        assert route(bot, kind) == "drop", kind


def test_the_host_gives_a_seat_to_a_bot_and_back_to_a_person(app, t0):
    from pbem.service.play.bot_seats import give_to_bot
    from pbem.service.play.replacement import replace_player

    from .helpers import new_tally

    gid = new_tally(t0)
    with pytest.raises(ServiceError, match="unknown bot"):
        give_to_bot(gid, 1, "clever", now=t0)
    give_to_bot(gid, 1, "random", now=t0)
    give_to_bot(gid, 2, "random", now=t0)
    with pytest.raises(ServiceError, match="at least one person"):
        give_to_bot(gid, 0, "greedy", now=t0)
    g = game_row(gid)
    assert [s.bot for s in g.seats] == [None, "random", "random"] and g.seat(1).joined
    told = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "seat_given")).scalars().all()
    assert sorted(m.recipient for m in told) == ["bo@example.org", "cy@example.org"]
    replace_player(gid, 1, "dee@example.org", "Dee", now=t0)
    g = game_row(gid)
    assert g.seat(1).bot is None and g.seat(1).player.email == "dee@example.org"


def test_the_bots_move_through_the_real_worker(app, t0):
    """Not eager: the pbem.bot_turns task goes through the broker to the embedded worker."""
    from pbem.service.embedded import EmbeddedWorker

    from .test_worker import wait_for

    app.config["BOT_SECONDS"] = 0.05
    gid = new_bot_game(t0, bots=("greedy", "standard"))
    with EmbeddedWorker(app, beat=False):
        assert submit_orders(gid, 0, "add 1", expected_step=0, source="web").resolved
        assert wait_for(lambda: game_row(gid).step == 3, timeout=60), "the bots did not move"
    assert [m.source for m in moves(gid)] == ["web", "bot", "bot"]


def test_a_second_person_at_a_table_of_bots_brings_deadlines_back(app, t0):
    from pbem.service.play.replacement import replace_player

    gid = new_bot_game(t0)
    assert game_row(gid).deadline_at is None
    replace_player(gid, 1, "bo@example.org", "Bo", now=t0)
    g = game_row(gid)
    assert not g.person_paced and g.deadline_at == t0 + dt.timedelta(seconds=g.deadline_seconds)
