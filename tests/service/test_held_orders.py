"""Held orders (issue 15, docs/service.md "Held orders"): Die Stadt wall and
tower orders sent before their decision comes due are held, shown, replaced
or cancelled, and applied by the resolver the moment the decision comes
due; the one-turn rule (issue 12) still refuses every other line past the
turn's end unread."""
from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from pbem.engine import get_game
from pbem.service.core import held_text
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, HeldOrder, Move
from pbem.service.core.snapshot import engine_state
from pbem.service.play import held
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import cancel_game, create_game, join_game
from pbem.service.play.orders import submit_orders
from pbem.service.play.replacement import replace_player

from .helpers import PLAYERS, body_text, game, outbox

ENGINE = get_game("diestadt")

# T21: a dead end pointing south; the drawn P07 on T22 turned 0 completes a
# two-tile street (the engine's wall tests, tests/engine/diestadt/test_walls.py)
TRIGGER = "seats 3\ntile T20 1 0\ntile T21 19 180\npiles 0 20 20\nturn seat 2 drawn 20\n"
# the same, the gate and six pieces already built round a ring of tiles
RING = """seats 3
tile T20 1 0
tile U20 4 0
tile W20 5 0
tile U19 2 0
tile V19 6 0
tile W19 7 0
tile U21 8 0
tile V21 9 0
tile W21 10 0
tile T21 19 180
{fill}gate T20 W {guard}
wall cw
wall cw
wall cw
wall cw
wall cw
wall cw
piles 0 20 20
turn seat 2 drawn 20
"""


def start_at(t0, position, redeal: int | None = None) -> int:
    """A started three-seat Die Stadt game put at ``position`` (position
    text); ``redeal``: the undrawn tiles shuffled again with that seed."""
    gid = create_game("diestadt", PLAYERS[0][1], PLAYERS[:3], seed=1, now=t0).id
    for i in (1, 2):
        join_game(gid, i, now=t0)
    st = ENGINE.load_position(position)
    if redeal is not None:
        st = ENGINE.redeal_hidden(st, None, random.Random(redeal))
    g = db.session.get(Game, gid)
    g.state, g.step, g.phase = st.to_json(), st.step, st.phase()
    db.session.commit()
    return gid


def state_of(gid: int):
    return engine_state(game(gid))


def held_of(gid: int) -> dict[int, list[str]]:
    db.session.commit()
    return {r.seat_index: r.text.split("\n") for r in db.session.execute(
        select(HeldOrder).where(HeldOrder.game_id == gid)).scalars()}


def moves(gid: int) -> list[tuple[int, str, str]]:
    return [(m.seat_index, m.text, m.source) for m in db.session.execute(
        select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars()]


def test_wall_orders_sent_while_others_decide_are_applied_when_due(app, t0):
    gid = start_at(t0, TRIGGER)
    step = game(gid).step
    # seats 3 and 1 send their wall pieces while seat 2 still places its tile
    r3 = submit_orders(gid, 2, "muuri myötä vartija", expected_step=step, source="email")
    r1 = submit_orders(gid, 0, "wall ccw", expected_step=step, source="web")
    assert r3.accepted and r3.held == ["wall cw guard"] and not r3.resolved
    assert r1.accepted and r1.held == ["wall ccw"]
    assert "Held for your next decisions: wall cw guard" in r3.message
    assert "held for a later decision: wall cw guard" in r3.summary()
    assert game(gid).step == step and held_of(gid) == {2: ["wall cw guard"], 0: ["wall ccw"]}
    # seat 2's tile completes a street: its gate is asked (a gate is never held) ...
    assert submit_orders(gid, 1, "tile T22 0", expected_step=step, source="web").resolved
    st = state_of(gid)
    assert st.decision == "gate" and st.current_seats() == [1]
    # ... and once it is built, both held pieces are applied in the same transaction
    res = submit_orders(gid, 1, "gate T20 N", expected_step=game(gid).step, source="web")
    assert res.resolved
    st = state_of(gid)
    assert st.decision == "tower" and st.current_seats() == [1]
    assert moves(gid)[-3:] == [(1, "gate T20 N", "web"), (2, "wall cw guard", "email"), (0, "wall ccw", "web")]
    assert sorted(st.wall.guards.values()) == [2]
    assert held_of(gid) == {}
    # nobody was asked for the pieces they had sent: the only turn notices after the gate are seat 2's
    after_gate = [r for r in outbox(kind="turn") if r.step >= game(gid).step]
    assert [r.seat_index for r in after_gate] == [1]


def test_lines_after_the_tile_are_held_when_all_holdable(app, t0):
    gid = start_at(t0, TRIGGER.replace("turn seat 2", "turn seat 1"))
    step = game(gid).step
    # seat 1 places the tile; the round begins with its gate, so its wall line waits
    res = submit_orders(gid, 0, "tile T22 0\nwall cw", expected_step=step, source="email")
    assert res.resolved and res.applied == ["tile T22 0"] and res.held == ["wall cw"]
    assert [line.held for line in res.lines] == [False, True]
    assert state_of(gid).decision == "gate" and held_of(gid) == {0: ["wall cw"]}


def test_the_one_turn_rule_still_refuses_other_lines_unread(app, t0):
    gid = start_at(t0, TRIGGER.replace("turn seat 2", "turn seat 1"))
    step, before = game(gid).step, game(gid).state
    for text in ("tile T22 0\ngate T20 N", "tile T22 0\nwall cw\ngate T20 N", "tile T22 0\nwall T20 N"):
        res = submit_orders(gid, 0, text, expected_step=step, source="email")
        assert res.status == "refused" and "your turn ends with line 1" in res.message, text
        assert all("not read" in line.error for line in res.lines[1:]), text
        assert "not kept" in res.summary() or not any(line.held for line in res.lines)
    # while another seat decides, only holdable lines are taken
    for text in ("gate T20 N", "wall cw\ntile T22 0", "wall T20 N", "tower cw guard"):
        res = submit_orders(gid, 1, text, expected_step=step, source="web")
        assert res.status == "refused" and "not your turn" in res.message, text
    assert game(gid).state == before and held_of(gid) == {}


def test_acceptance_never_reads_the_position(app, t0, monkeypatch):
    """A held line is taken on its text alone: the state (and so the
    hidden tile order) is never consulted to accept it."""
    gid = start_at(t0, TRIGGER)
    calls = []
    for name in ("parse_action", "held_order_due"):
        original = getattr(ENGINE, name)
        monkeypatch.setattr(ENGINE, name, lambda *a, _o=original, _n=name, **k: calls.append(_n) or _o(*a, **k))
    res = submit_orders(gid, 2, "wall cw guard\ntower ccw", expected_step=0, source="email")
    assert res.accepted and res.held == ["wall cw guard", "tower ccw"]
    assert calls == []


def test_held_lines_only_are_never_stale(app, t0):
    gid = start_at(t0, TRIGGER)
    stale = game(gid).step - 5
    assert submit_orders(gid, 2, "wall cw", expected_step=stale, source="email").accepted
    res = submit_orders(gid, 1, "tile T22 0", expected_step=stale, source="email")
    assert res.status == "stale"


def test_new_held_orders_replace_and_cancel_held_drops(app, t0):
    gid = start_at(t0, TRIGGER)
    step = game(gid).step
    submit_orders(gid, 2, "wall cw guard", expected_step=step, source="email")
    submit_orders(gid, 2, "wall ccw\nno tower", expected_step=step, source="web")
    assert held_of(gid) == {2: ["wall ccw", "no tower"]}
    assert held_text.held_lines(gid, 2) == ["wall ccw", "no tower"]
    res = submit_orders(gid, 2, "Cancel  held", expected_step=step, source="email")
    assert res.accepted and res.held == [] and "Your held orders are dropped." in res.message
    assert held_of(gid) == {}


def test_too_many_held_lines_are_refused(app, t0):
    gid = start_at(t0, TRIGGER)
    res = submit_orders(gid, 2, "\n".join(["wall cw"] * (held.MAX_HELD + 1)), expected_step=None,
                        source="email")
    assert res.status == "refused" and held_of(gid) == {}


def test_held_guard_no_longer_legal_builds_the_piece_without_it(app, t0):
    # a guard of seat 2 on the gate faces the cw end across an unbroken row (EX-15)
    gid = start_at(t0, RING.format(fill="tile V20 11 0\n", guard="guard seat 1"))
    step = game(gid).step
    assert submit_orders(gid, 2, "wall cw guard", expected_step=step, source="email").held
    assert submit_orders(gid, 1, "tile T22 0\nwall ccw", expected_step=step, source="web").resolved
    st = state_of(gid)
    assert moves(gid)[-1] == (2, "wall cw", "email")        # what was built: the log replays
    assert len(st.wall.guards) == 1 and st.supply[2] == 7       # the piece without its guard
    texts = [e.text for e in db.session.execute(select(GameEvent).where(GameEvent.game_id == gid)).scalars()]
    assert any("guard is left out" in t for t in texts)


def test_impossible_held_line_is_dropped_and_the_seat_told(app, t0):
    # seat 2 places; the round is 2, 3, 1; then seat 2's tower, worth points only at the cw end
    gid = start_at(t0, RING.format(fill="", guard=""))
    step = game(gid).step
    submit_orders(gid, 2, "wall cw", expected_step=step, source="email")
    submit_orders(gid, 0, "wall cw", expected_step=step, source="email")
    res = submit_orders(gid, 1, "tile T22 0\nwall cw\ntower ccw", expected_step=step, source="web")
    assert res.resolved and res.held == ["wall cw", "tower ccw"]
    st = state_of(gid)
    assert st.decision == "tower" and st.current_seats() == [1]   # asked after all
    assert st.wall.tower_points("ccw") == 0
    dropped = db.session.execute(select(GameEvent).where(GameEvent.kind == "held-dropped")).scalars().all()
    assert [(e.seat_index, e.data["order"]) for e in dropped] == [(1, "tower ccw")]
    assert "could not be applied" in dropped[0].text and held_of(gid) == {}
    notice = [r for r in outbox(kind="turn") if r.seat_index == 1][-1]
    assert "tower ccw" in body_text(notice)


def test_held_orders_are_shown_in_the_turn_notice(app, t0):
    gid = start_at(t0, TRIGGER.replace("turn seat 2", "turn seat 1"))
    step = game(gid).step
    submit_orders(gid, 0, "tile T22 0\nwall cw guard", expected_step=step, source="email")
    notice = [r for r in outbox(kind="turn") if r.seat_index == 0][-1]   # the gate is asked
    assert "Held for your next decisions: wall cw guard." in body_text(notice)


def test_held_order_applied_after_a_missed_deadline(app, t0):
    gid = start_at(t0, TRIGGER)
    step = game(gid).step
    submit_orders(gid, 2, "wall ccw", expected_step=step, source="email")
    submit_orders(gid, 1, "tile T22 0", expected_step=step, source="web")
    g = game(gid)
    assert scan(now=g.deadline_at).expired == [gid]      # seat 2 misses the gate: defaulted
    assert moves(gid)[-2:][1] == (2, "wall ccw", "email")
    assert held_of(gid) == {}


def test_held_orders_dropped_at_game_end_cancel_and_new_player(app, t0):
    gid = start_at(t0, TRIGGER)
    step = game(gid).step
    submit_orders(gid, 2, "wall ccw", expected_step=step, source="email")
    submit_orders(gid, 0, "wall cw", expected_step=step, source="email")
    replace_player(gid, 2, "dee@example.org", "Dee", now=t0)
    assert held_of(gid) == {0: ["wall cw"]}
    cancel_game(gid, now=t0)
    assert held_of(gid) == {}


@pytest.mark.parametrize("text", ["wall cw", "no tower"])
def test_held_orders_never_outlive_the_game(app, t0, text):
    # the last tile is drawn: placing it ends the game
    gid = start_at(t0, TRIGGER.replace("piles 0 20 20", "piles 0 0 0\npile 1"))
    step = game(gid).step
    submit_orders(gid, 2, text, expected_step=step, source="email")
    assert submit_orders(gid, 1, "tile T22 0", expected_step=step, source="web").resolved
    assert game(gid).status == "finished" and held_of(gid) == {}


def test_answers_to_held_lines_are_the_same_whatever_the_undrawn_tiles(app, t0):
    """The tile ends the turn and the next tile is drawn: the lines after
    it are held on their words, so every answer reads the same for any
    order of the undrawn tiles (issue 12's rule, held orders' exception)."""
    position = TRIGGER.replace("piles 0 20 20", "piles 10 20 20\npile 1")
    answers, drawn = set(), set()
    for redeal in range(4):
        gid = start_at(t0, position, redeal)
        step = game(gid).step
        ahead = submit_orders(gid, 2, "muuri vasta vartija\nno tower", expected_step=step, source="email")
        res = submit_orders(gid, 1, "tile T22 0\nwall cw guard\ntower ccw", expected_step=step, source="email")
        assert res.resolved
        drawn.add(state_of(gid).drawn)
        answers.add((ahead.status, ahead.summary(), res.status, res.summary(),
                     tuple((l.text, l.order, l.error, l.held) for l in res.lines)))
    assert len(drawn) > 1                  # the hidden order did differ
    assert len(answers) == 1


def test_a_game_that_holds_nothing_keeps_the_one_turn_rule_whole(app, t0):
    from .helpers import new_tally

    gid = new_tally(t0)
    for text in ("cancel held", "wall cw"):
        res = submit_orders(gid, 1, text, expected_step=0, source="email")
        assert res.status == "refused" and "not your turn" in res.message, text
    res = submit_orders(gid, 0, "add 1\ncancel held", expected_step=0, source="email")
    assert res.status == "refused" and "your turn ends with line 1" in res.message
    assert held_of(gid) == {}


def _speaks(gid: int, seat_index: int, lang: str) -> None:
    game(gid).seat(seat_index).player.language = lang
    db.session.commit()


def test_held_lines_are_shown_in_the_players_language(app, t0):
    """A held line is kept as canonical English until it comes due; the
    answer, the confirmation and the turn notice write it in the player's
    order words (Game.held_text, issue 22)."""
    gid = start_at(t0, TRIGGER.replace("turn seat 2", "turn seat 1"))
    _speaks(gid, 0, "fi")
    res = submit_orders(gid, 0, "tile T22 0\nguard cw", expected_step=game(gid).step, source="email")
    assert res.held == ["wall cw guard"] and held_of(gid) == {0: ["wall cw guard"]}
    notice = [r for r in outbox(kind="turn") if r.seat_index == 0][-1]   # the gate is asked
    for text in (res.message_in("fi"), res.summary("fi"), body_text(notice)):
        assert "muuri myötä vartija" in text and "wall cw guard" not in text, text
    assert "Held for your next decisions: wall cw guard" in res.message_in("en")


def test_a_dropped_held_line_is_named_in_the_players_language(app, t0):
    from pbem.i18n import event_text

    gid = start_at(t0, RING.format(fill="", guard=""))
    _speaks(gid, 1, "de")
    step = game(gid).step
    submit_orders(gid, 2, "wall cw", expected_step=step, source="email")
    submit_orders(gid, 0, "wall cw", expected_step=step, source="email")
    submit_orders(gid, 1, "tile T22 0\nwall cw\ntower ccw", expected_step=step, source="web")
    [e] = db.session.execute(select(GameEvent).where(GameEvent.kind == "held-dropped")).scalars().all()
    said = event_text(e.text, e.data, "de")
    assert "Turm Gegenuhrzeigersinn" in said and "tower ccw" not in said, said
    assert "tower ccw" in e.text


@pytest.mark.parametrize("lang, phrase", [("fi", "Peru pidetyt"), ("cs", "zrusit odlozene"),
                                          ("ca", "cancel·la les reservades"), ("de", "Vorgemerkte verwerfen")])
def test_held_orders_are_dropped_by_the_readers_own_words(app, t0, lang, phrase):
    """The note names the line that drops held orders in the player's
    words, and those words drop them (English ``cancel held`` too)."""
    gid = start_at(t0, TRIGGER.replace("turn seat 2", "turn seat 1"))
    _speaks(gid, 0, lang)
    submit_orders(gid, 0, "tile T22 0\nwall cw", expected_step=game(gid).step, source="email")
    notice = body_text([r for r in outbox(kind="turn") if r.seat_index == 0][-1])
    assert held.cancel_in(lang) in notice and "cancel held" not in notice
    res = submit_orders(gid, 0, phrase, expected_step=game(gid).step, source="email")
    assert res.accepted and held_of(gid) == {}
