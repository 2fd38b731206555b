"""Medina's banner words (decision.py): the start merchant, piece 1 and
piece 2 of a turn, the lone seat's dome; only for the seat to move."""
from pbem.engine import get_game

G = get_game("medina")


def test_each_placement_of_a_turn_has_its_banner_for_the_seat_to_move_only():
    s = G.new_state(3, 5)
    assert s.view(0)["decision"]["kind"] == "start_merchant" and s.view(1)["decision"] is None
    assert s.view(0)["rules_section"]["id"] == "setup"
    s.apply(0, s.legal_actions(0)[0])
    d = s.view(0)["decision"]
    assert d["kind"] == "piece1" and d["owes"] == "Place piece 1 of 2 of your turn."
    assert s.view(0)["rules_section"]["id"] == "turn"
    first = s.legal_actions(0)[0]
    s.apply(0, first)
    d = s.view(0)["decision"]
    assert d["kind"] == "piece2" and "piece 2 of 2" in d["owes"] and "outlined" in d["why"]
    assert first.site in s.view(0)["last_sites"]
    assert s.view(None)["decision"] is None and s.view(2)["decision"] is None


def test_the_lone_seat_is_told_its_turn_must_include_a_dome():
    s = G.new_state(3, 5)
    s.apply(0, s.legal_actions(0)[0])
    s.lone, s.domed = True, False          # only seat 1 still has pieces
    d = s.view(0)["decision"]
    assert d["kind"] == "dome" and "must include a dome" in d["owes"] and d["rules"] == "end"
    assert s.view(0)["rules_section"]["id"] == "end"
