"""The command language, refusals, defaults for missed deadlines and the
view (design 6.2 to 6.4)."""
import json

import pytest

from pbem.engine import IllegalOrderError, NotYourTurnError, OrderParseError
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower

from .helpers import GAME, TRIGGER, legal, play, pos


def parse(st, text, seat=None):
    return GAME.parse_action(st, st.current_seats()[0] if seat is None else seat, text)


def test_tile_order_forms():
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 6")      # P02: market N
    want = PlaceTile("T21", 180, "merchant", "SE")             # named by its first point
    assert parse(st, "tile T21 180 merchant SE") == want
    assert parse(st, "T21 180 merchant S") == want               # 'tile' left out, any point
    assert parse(st, "TILE t21 180 MERCHANT sw") == want
    assert parse(st, "laatta T21 180 kauppias etelä") == want    # Finnish
    assert parse(st, "Karte T21 180 Marktfrau Süd") == want      # German
    assert parse(st, "dílek T21 180 trhovkyně jih") == want       # Czech
    assert parse(st, "dilek T21 180 trhovkyne jihovychod") == want   # ... without diacritics
    assert parse(st, "peça T21 180 marxant sud-est") == want      # Catalan
    assert parse(st, "peca T21 180 mercat sud") == want
    assert parse(st, "tile T21 RRMR") == PlaceTile("T21", 180)    # edges after turning
    assert parse(st, "tile T21 180 none") == PlaceTile("T21", 180)


def test_tile_without_rotation_only_when_one_fits():
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 19")     # P07 below a street
    assert parse(st, "tile T21") == PlaceTile("T21", 0)
    with pytest.raises(OrderParseError, match="say how the tile is turned"):
        parse(st, "tile U20")


def test_edges_naming_two_layouts_is_refused_with_the_rotations():
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 41")     # P12 S M S M: 0 and 180
    with pytest.raises(OrderParseError, match="0 or 180"):
        parse(st, "tile T21 SMSM")


def test_identical_rotations_read_as_one():
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 2")      # P01 looks the same all round
    assert parse(st, "tile U20 270") == PlaceTile("U20", 0)
    assert {a.rotation for a in st.legal_actions(0)} == {0}


def test_refusals_say_why_and_quote_legal_orders():
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 19")
    with pytest.raises(IllegalOrderError) as err:
        parse(st, "tile U20 270")
    assert "street must go on" in str(err.value) and err.value.legal
    for bad in ["", "xyzzy", "tile Q99 0", "tile T21 45"]:
        with pytest.raises(OrderParseError):
            parse(st, bad)
    with pytest.raises(NotYourTurnError):
        parse(st, "tile T21 0", seat=1)
    with pytest.raises(IllegalOrderError, match="but now you place the drawn tile"):
        parse(st, "wall cw")


def wall_round():
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    play(st, "tile T22 0")
    return st


def test_gate_wall_and_tower_orders():
    st = wall_round()
    assert parse(st, "gate T20 N guard") == BuildGate("T20N", True)
    assert parse(st, "portti T20 pohjoinen vartija") == BuildGate("T20N", True)
    assert parse(st, "Tor T20N") == BuildGate("T20N")
    play(st, "gate T20 N")
    cw = next(a for a in st.legal_actions(1) if a.end == "cw" and not a.guard)
    assert parse(st, "wall cw") == cw and cw.site == "T20E"
    assert parse(st, "muuri myötä vartija") == BuildWall("cw", True, "T20E")
    assert parse(st, "Mauer gegenuhrzeigersinn") == BuildWall("ccw", False, "T20W")
    assert parse(st, "wall T20 E") == cw
    with pytest.raises(IllegalOrderError, match="neither end"):
        parse(st, "wall U30 N")
    play(st, "wall cw", "wall ccw")
    assert parse(st, "tower cw") == PlaceTower("cw", "T20SE") or parse(st, "tower cw").end == "cw"
    assert parse(st, "no tower") == PlaceTower(None)
    assert parse(st, "ei torni") == PlaceTower(None)
    assert parse(st, "kein Turm") == PlaceTower(None)
    assert parse(st, "žádná věž") == PlaceTower(None)            # Czech
    assert parse(st, "cap torre") == PlaceTower(None)            # Catalan
    assert parse(st, "věž cw").end == "cw" and parse(st, "torre cw").end == "cw"


def test_czech_and_catalan_gate_and_wall_words():
    st = wall_round()
    assert parse(st, "brána T20 sever strážný") == BuildGate("T20N", True)   # Czech
    assert parse(st, "portal T20 nord guàrdia") == BuildGate("T20N", True)  # Catalan
    assert parse(st, "brana T20N strazny") == BuildGate("T20N", True)
    play(st, "gate T20 N")
    assert parse(st, "hradba cw strážný") == BuildWall("cw", True, "T20E")
    assert parse(st, "muralla ccw") == BuildWall("ccw", False, "T20W")


def test_defaults_for_missed_deadlines():
    st = pos("seats 3\n" + TRIGGER + "piles 0 20 20\nturn seat 1 drawn 20")
    d = st.default_action(0)
    assert d == st.legal_actions(0)[0] and d.role is None
    assert d.site == min((a.site for a in st.legal_actions(0)), key=lambda s: (int(s[1:]), s[0]))
    play(st, "tile T22 0")
    assert st.default_action(0) == BuildGate("T20N")          # first edge in reading order
    play(st, "gate T20 N guard")
    assert st.default_action(1).to_text() == "wall cw"
    play(st, "wall cw", "wall cw")
    assert st.default_action(0) == PlaceTower(None)


def test_turn_key_changes_with_every_decision_of_a_round():
    st = wall_round()
    keys = [st.turn_key()]
    for order in ["gate T20 N", "wall cw", "wall ccw"]:
        play(st, order)
        keys.append(st.turn_key())
    assert len(set(keys)) == len(keys)
    assert keys[0] == ("gate", st.turn_no) and keys[1][0] == "wall"


def test_view_is_public_and_json():
    st = wall_round()
    views = [st.view(s) for s in (None, 0, 1, 2)]
    for v in views:
        v.pop("viewer")
        v.pop("decision")          # the deciding seat's banner (test_decision.py)
        json.dumps(v)
    assert all(v == views[0] for v in views)
    v = views[0]
    assert v["turn"]["decision"] == "gate" and v["turn"]["deciding"] == 0
    assert {t["space"] for t in v["tiles"]} == {"T20", "T21", "T22"}
    assert v["drawn"] is None and sum(v["piles"]) == 40
    assert "Last tile placed: T22" in GAME.view_text(st.view(0))


def test_view_shows_legal_spaces_and_drawn_rotations():
    st = pos("seats 2\ntile T20 31 0\nturn seat 1 drawn 19")
    v = st.view(0)
    assert v["drawn"]["tile"] == 19 and len(v["drawn"]["rotations"]) == 4
    assert v["legal_spaces"]["T21"] == [0]
    assert "T21: 0" in GAME.view_text(v)


def test_order_help_lists_every_order():
    text = GAME.order_help()
    for word in ["tile F7 90 merchant E", "gate H3 N guard", "wall cw guard", "wall ccw",
                 "tower cw", "no tower"]:
        assert word in text


def test_follower_point_may_be_left_out_when_only_one_fits():
    st = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 6")
    assert parse(st, "tile T21 180 merchant") == PlaceTile("T21", 180, "merchant", "SE")
    with pytest.raises(OrderParseError, match="no citizen"):
        parse(st, "tile T21 180 citizen")


@pytest.mark.parametrize("text", ["gate T20", "gate T20 NE", "gate T20 SW", "wall T20", "wall E5"])
def test_a_gate_or_wall_order_without_a_side_is_refused_with_the_form(text):
    """Bad input gets a clear answer: the gate or wall piece goes on a side
    (N E S W) of a space, never at a corner."""
    st = wall_round()
    with pytest.raises(OrderParseError, match="gate H3 N|wall cw"):
        parse(st, text)
