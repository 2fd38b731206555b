"""One submission holds one turn of its seat at most: the lines of a turn
(Medina: two pieces) are taken together, and a line after the turn ends
is refused unread with "your turn ends with line N" on every path
(submit, the order page's dry runs), nothing applied. The turn ends when
the seat owes nothing more or ``State.turn_key`` changes (the seat may
owe the next decision itself: Tally's last adder bids next; the year's
last La Città card, tests/security/test_turn_end.py)."""
from __future__ import annotations

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import PendingOrder
from pbem.service.play.lifecycle import create_game, join_game
from pbem.service.play.orders import submit_orders
from pbem.service.play.queries import next_decision, preview_orders

from .helpers import PLAYERS, game, new_tally


def _medina_turn() -> tuple[int, int, list[str]]:
    """A Medina game after the start merchant: the seat to move, the two
    pieces of its turn and a third line (the next seat's first piece)."""
    players = PLAYERS + [("Di", "di@example.org")]
    gid = create_game("medina", players[0][1], players[:4], seed=9).id
    for i in range(1, 4):
        join_game(gid, i)
    state = _state(gid)
    assert submit_orders(gid, 0, state.legal_actions(0)[0].to_text(), expected_step=state.step,
                         source="web").resolved
    state = _state(gid)
    seat = state.current_seats()[0]
    trial, lines = state.copy(), []
    for _ in range(2):
        action = trial.legal_actions(seat)[0]
        trial.apply(seat, action)
        lines.append(action.to_text())
    nxt = trial.current_seats()[0]
    assert nxt != seat and trial.turn_key() != state.turn_key()
    lines.append(trial.legal_actions(nxt)[0].to_text())
    return gid, seat, lines


def _state(gid: int):
    from pbem.service.core.snapshot import engine_state

    return engine_state(game(gid))


def test_both_medina_pieces_go_in_one_submission_and_a_third_line_is_past_the_turn(app):
    gid, seat, (first, second, third) = _medina_turn()
    step = game(gid).step
    both = preview_orders(gid, seat, f"{first}\n{second}", expected_step=step)
    assert both.status == "preview" and both.orders == [first, second]
    assert next_decision(gid, seat, first, expected_step=step).more is True

    text = f"{first}\n{second}\n{third}"
    for res in (preview_orders(gid, seat, text, expected_step=step),
                next_decision(gid, seat, text, expected_step=step).result,
                submit_orders(gid, seat, text, expected_step=step, source="email")):
        assert res.status == "refused"
        assert "Nothing was applied: your turn ends with line 2" in res.message
        assert [l.order for l in res.lines[:2]] == [first, second]
        assert res.lines[2].order is None and "Past the end of your turn" in res.lines[2].error
        assert "your turn ends with line 2" in res.summary() and third in res.summary()
    assert game(gid).step == step and db.session.execute(select(PendingOrder)).first() is None

    res = submit_orders(gid, seat, f"{first}\n{second}", expected_step=step, source="web")
    assert res.status == "stored" and res.resolved and game(gid).step == step + 2


def test_the_last_adder_of_a_round_bids_in_a_submission_of_its_own(app, t0):
    """Tally: after the round's last ``add`` every seat bids, the adder
    too; the bid is another turn (turn_key "Bidding"), so it is not taken
    in the same submission, even though the seat owes it."""
    gid = new_tally(t0, seats=2)
    assert submit_orders(gid, 0, "add 1", expected_step=0, source="web").resolved
    res = submit_orders(gid, 1, "add 1\nbid 1", expected_step=1, source="email")
    assert res.status == "refused" and "your turn ends with line 1" in res.message
    assert "Past the end of your turn" in res.lines[1].error
    assert res.legal == ["add 1", "add 2", "add 3"]   # what the seat may send now
    assert game(gid).step == 1
    assert submit_orders(gid, 1, "add 1", expected_step=1, source="web").resolved
    assert submit_orders(gid, 1, "bid 1", expected_step=2, source="web").status == "stored"


def test_a_wrong_line_inside_the_turn_is_still_explained(app, t0):
    """The end of the turn is checked only after a line that was applied:
    a wrong first line gets its own reason and the legal orders."""
    gid = new_tally(t0, seats=2)
    res = submit_orders(gid, 0, "add 9\nadd 1", expected_step=0, source="web")
    assert res.status == "refused" and "is not legal now" in res.message
    assert res.lines[0].error and res.lines[1].checked is False
    assert res.legal == ["add 1", "add 2", "add 3"]
