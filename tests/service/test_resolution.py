"""Resolution: once, simultaneous decisions in seat order, replay."""
from __future__ import annotations

from sqlalchemy import func, select

from pbem.service.core.db import db
from pbem.service.core.models import GameEvent, Move, PendingOrder
from pbem.service.play.orders import submit_orders
from pbem.service.play.replay import state_at, verify
from pbem.service.play.resolve import resolve_game

from .helpers import body_text, compose_pending, game, new_tally, outbox


def play_round(gid: int, adds=(1, 1, 1)) -> None:
    compose_pending()
    for seat, k in enumerate(adds):
        res = submit_orders(gid, seat, f"add {k}", expected_step=game(gid).step, source="web")
        assert res.status == "stored", res.summary()
        compose_pending()  # each notice as it went out then


def test_resolving_twice_applies_once(app, t0):
    gid = new_tally(t0)
    res = submit_orders(gid, 0, "add 3", expected_step=0, source="web")
    assert game(gid).step == 1
    # the same resolve task delivered again: nothing happens
    again = resolve_game(gid)
    assert again.status == "idle" or again.status == "waiting"
    assert game(gid).step == 1
    assert db.session.scalar(select(func.count()).select_from(Move)) == 1
    assert len(outbox(kind="turn", seat_index=1)) == 1


def test_simultaneous_bids_wait_for_everyone_then_apply_in_seat_order(app, t0):
    gid = new_tally(t0)
    play_round(gid)
    g = game(gid)
    assert g.phase == "Bidding"
    step = g.step
    # every seat was told to bid, once
    assert sorted(r.seat_index for r in outbox(kind="turn") if r.dedupe_key.startswith(f"turn:{gid}:{step}:")) == [0, 1, 2]
    r2 = submit_orders(gid, 2, "bid 1", expected_step=step, source="web")
    assert r2.status == "stored" and not r2.ready and r2.waiting_for == [0, 1]
    # a seat may change its mind before the others are in
    assert submit_orders(gid, 2, "bid 0", expected_step=step, source="web").status == "stored"
    r0 = submit_orders(gid, 0, "bid 0", expected_step=step, source="email")
    assert not r0.ready and game(gid).step == step
    assert len(db.session.execute(select(PendingOrder)).all()) == 2
    r1 = submit_orders(gid, 1, "bid 1", expected_step=step, source="web")
    assert r1.ready
    g = game(gid)
    assert g.step == step + 3
    moves = db.session.execute(select(Move).where(Move.step >= step).order_by(Move.step)).scalars().all()
    assert [(m.seat_index, m.text, m.source) for m in moves] == [
        (0, "bid 0", "email"), (1, "bid 1", "web"), (2, "bid 0", "web")]
    reveal = db.session.execute(select(GameEvent).where(GameEvent.kind == "reveal")).scalar_one()
    assert "seat 2 scores 2" in reveal.text
    assert db.session.execute(select(PendingOrder)).first() is None


def test_private_events_reach_only_their_seat(app, t0):
    gid = new_tally(t0, options={"length": "long"})
    play_round(gid)
    step = game(gid).step
    for seat, bid in enumerate((3, 0, 1)):
        # bids above a seat's secret are illegal; bid 0 always is
        submit_orders(gid, seat, f"bid {min(bid, state_at(gid).view(seat)['secret'])}",
                      expected_step=step, source="web")
        compose_pending()
    play_round(gid)
    private = db.session.execute(select(GameEvent).where(GameEvent.seat_index.is_not(None))).scalars().all()
    assert len(private) == 3
    for row in outbox(kind="turn"):
        text = body_text(row)
        for event in private:
            if event.seat_index != row.seat_index:
                assert f"- {event.text}" not in text or any(
                    e.text == event.text for e in private if e.seat_index == row.seat_index)
    # seat 1's next notice quotes its own bid and the reveal (events since its last move)
    notice = [body_text(r) for r in outbox(kind="turn", seat_index=0) if r.dedupe_key.startswith(f"turn:{gid}:{step + 3}:")]
    own = next(e.text for e in private if e.seat_index == 0)
    assert len(notice) == 1 and f"- {own}" in notice[0] and "- Bids: Ada" in notice[0]


def test_secret_number_is_only_in_its_own_seat_email(app, t0):
    gid = new_tally(t0, seed=11)
    play_round(gid)
    state = state_at(gid)
    secrets = [state.view(s)["secret"] for s in range(3)]
    bidding = [row for row in outbox(kind="turn") if "Bidding" in body_text(row)]
    assert {row.seat_index for row in bidding} == {0, 1, 2}  # every seat was told to bid
    for row in bidding:
        assert f"Your secret number: {secrets[row.seat_index]}" in body_text(row)
        assert body_text(row).count("Your secret number") == 1


def test_replay_gives_the_stored_state_at_every_step(app, t0):
    gid = new_tally(t0, options={"length": "long"})
    play_round(gid, (3, 2, 1))
    step = game(gid).step
    for seat in range(3):
        submit_orders(gid, seat, "bid 0", expected_step=step, source="web")
    play_round(gid, (1, 1, 1))
    assert verify(gid)
    assert state_at(gid, 0).view(None)["counter"] == 0
    assert state_at(gid, 2).view(None)["counter"] == 5


def test_game_over_tells_everyone_the_final_scores(app, t0):
    gid = new_tally(t0)
    play_round(gid, (3, 3, 2))  # tally 8 = target: over
    g = game(gid)
    assert g.status == "finished" and g.deadline_at is None
    over = outbox(kind="over")
    assert sorted(r.seat_index for r in over) == [0, 1, 2]
    assert "1. Ada (seat 1): 3 points" in body_text(over[0]) or "1. Bo (seat 2): 3 points" in body_text(over[0])
    res = submit_orders(gid, 0, "add 1", expected_step=g.step, source="web")
    assert res.status == "refused" and "is over" in res.message


def test_two_orders_in_one_message_are_one_turn_medina(app, t0):
    """Medina: two pieces a turn, both lines in one submission, applied in order."""
    from pbem.engine import get_game
    from pbem.service.play.lifecycle import create_game, join_game

    engine = get_game("medina")
    gid = create_game("medina", "ada@example.org", [("Ada", "ada@example.org"), ("Bo", "bo@example.org"),
                                                     ("Cy", "cy@example.org")], seed=4, now=t0).id
    join_game(gid, 1, now=t0)
    join_game(gid, 2, now=t0)
    # play until a seat owes two pieces in a row
    for _ in range(10):
        g = game(gid)
        state = engine.state_from_json(g.state)
        seat = state.current_seats()[0]
        first = state.legal_actions(seat)[0]
        trial = state.copy()
        trial.apply(seat, first)
        if seat in trial.current_seats() and trial.turn_key() == state.turn_key():  # not setup's merchant
            second = trial.legal_actions(seat)[-1]
            break
        submit_orders(gid, seat, first.to_text(), expected_step=g.step, source="web")
    else:
        raise AssertionError("no two-piece turn in the opening")
    before = g.step
    res = submit_orders(gid, seat, f"{first.to_text()}\n{second.to_text()}", expected_step=before,
                        source="email")
    assert res.status == "stored" and res.orders == [first.to_text(), second.to_text()]
    g = game(gid)
    assert g.step == before + 2
    moves = db.session.execute(select(Move).where(Move.step >= before).order_by(Move.step)).scalars().all()
    assert [(m.seat_index, m.text) for m in moves] == [(seat, first.to_text()), (seat, second.to_text())]
    nxt = engine.state_from_json(g.state).current_seats()
    assert [r.seat_index for r in outbox(kind="turn") if r.dedupe_key.startswith(f"turn:{gid}:{g.step}:")] == nxt
    assert verify(gid)
