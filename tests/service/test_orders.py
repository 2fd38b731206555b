"""submit_orders: accepted, refused, stale; the state is untouched on refusal."""
from __future__ import annotations

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Move, PendingOrder
from pbem.service.play.orders import submit_orders

from .helpers import body_text, game, new_tally, outbox


def test_game_starts_when_everyone_joined_and_first_seat_is_told(app, t0):
    gid = new_tally(t0)
    g = game(gid)
    assert g.status == "active" and g.step == 0
    turn = outbox(kind="turn")
    assert [r.seat_index for r in turn] == [0]
    assert turn[0].recipient == "ada@example.org"
    assert "add 1" in body_text(turn[0])
    invites = outbox(kind="invite")
    assert sorted(r.recipient for r in invites) == ["bo@example.org", "cy@example.org"]


def test_accepted_order_resolves_and_notifies_next_seat(app, t0):
    gid = new_tally(t0)
    res = submit_orders(gid, 0, "ADD 2", expected_step=0, source="web")
    assert res.status == "stored" and res.ready
    assert res.orders == ["add 2"]
    g = game(gid)
    assert g.step == 1
    assert [(m.step, m.seat_index, m.text, m.source) for m in db.session.execute(select(Move)).scalars()] == [
        (0, 0, "add 2", "web")]
    assert [r.seat_index for r in outbox(kind="turn")] == [0, 1]
    assert "Ada adds 2" in body_text(outbox(kind="turn")[1])


def test_illegal_line_refuses_all_and_leaves_state_untouched(app, t0):
    gid = new_tally(t0)
    before = game(gid).state
    res = submit_orders(gid, 0, "add 2\nadd 9", expected_step=0, source="web")
    assert res.status == "refused"
    assert res.lines[0].order == "add 2" and res.lines[1].error
    assert "add 1" in res.legal
    assert "add 9" in res.summary() and "REFUSED" in res.summary()
    g = game(gid)
    assert g.state == before and g.step == 0
    assert db.session.execute(select(PendingOrder)).first() is None


def test_unparseable_and_not_your_turn(app, t0):
    gid = new_tally(t0)
    res = submit_orders(gid, 0, "please add two", expected_step=0, source="email")
    assert res.status == "refused" and "could not be read" in res.message
    res = submit_orders(gid, 1, "add 1", expected_step=0, source="web")
    assert res.status == "refused" and "not your turn" in res.message
    res = submit_orders(gid, 0, "add 1\nadd 1", expected_step=0, source="web")
    assert res.status == "refused" and "your turn ends with line 1" in res.message
    assert res.lines[0].order == "add 1" and "Past the end of your turn" in res.lines[1].error
    assert game(gid).step == 0


def test_stale_order_is_refused(app, t0):
    gid = new_tally(t0)
    submit_orders(gid, 0, "add 1", expected_step=0, source="web")
    res = submit_orders(gid, 1, "add 1", expected_step=0, source="web")
    assert res.status == "stale"
    assert "moved on" in res.message
    g = game(gid)
    assert g.step == 1
    res = submit_orders(gid, 1, "add 1", expected_step=1, source="web")
    assert res.status == "stored" and game(gid).step == 2


def test_the_order_that_completes_a_turn_resolves_it_in_its_own_transaction(app, t0):
    # no worker at all: a task would fail loudly if one were sent
    app.extensions["celery"].tasks["pbem.resolve"].apply = None
    gid = new_tally(t0)
    res = submit_orders(gid, 0, "add 2", expected_step=0, source="web")
    assert res.resolved and res.step == 1 and "resolved" in res.message
    assert game(gid).step == 1
    assert db.session.execute(select(PendingOrder)).scalars().all() == []
    # the next seat's notice was committed with the turn, before the answer
    assert [(r.seat_index, r.step, r.status) for r in outbox(kind="turn")] == [(0, 0, "pending"), (1, 1, "pending")]


def test_a_resolution_that_fails_in_the_request_keeps_the_orders_for_the_worker(app, t0, monkeypatch, caplog):
    from pbem.service.play import resolve

    gid = new_tally(t0)
    real = resolve.resolve_locked
    calls = []

    def broken(game, **kw):
        calls.append(game.id)
        if len(calls) == 1:
            real(game, **kw)  # writes the turn, then fails before the commit
            raise RuntimeError("engine bug")
        return real(game, **kw)

    monkeypatch.setattr(resolve, "resolve_locked", broken)
    res = submit_orders(gid, 0, "add 2", expected_step=0, source="web")
    assert res.status == "stored" and res.ready and not res.resolved
    assert "resolving in the request failed" in caplog.text
    # the orders were stored again without the failed resolution, and the
    # eager worker task resolved them afterwards, once
    assert len(calls) == 2 and game(gid).step == 1
    assert [(m.step, m.text) for m in db.session.execute(select(Move)).scalars()] == [(0, "add 2")]
    assert len(outbox(kind="turn", seat_index=1)) == 1
