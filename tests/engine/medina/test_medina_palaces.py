"""Palaces ("Palatsit") and domes ("Kupolit")."""
import pytest

from pbem.engine import IllegalOrderError

from .helpers import board, legal_texts, play, pos


def fresh(rows=(), first_row=1, extra="", seats=3):
    return pos(f"seats {seats}\nturn seat 1 piece 1\n{board(*rows, first_row=first_row)}\n{extra}")


def test_first_piece_of_a_colour_goes_on_any_free_square():
    st = fresh()
    legal = legal_texts(st)
    assert all(f"palace {c} {s}" in legal for c in ("grey", "black", "brown", "orange")
               for s in ("A1", "P11", "H6"))
    play(st, "palace orange A1")
    assert st.palaces[0].colour == "orange" and st.palaces[0].squares == [0]


def test_new_palace_never_touches_another_palace_not_even_diagonally():
    st = fresh([". . . . . . . . . . . . . . . .",
                ". . . . k . . . . . . . . . . ."], first_row=4)   # black E5
    legal = legal_texts(st)
    for s in ("D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"):
        assert f"palace grey {s}" not in legal
    assert "palace grey G5" in legal and "palace grey E7" in legal
    with pytest.raises(IllegalOrderError, match="touches the black palace at E5"):
        play(st, "palace grey F6")


def test_palace_piece_of_a_colour_under_construction_joins_it_orthogonally():
    # "hänen täytyy laittaa se vierekkäin laudalla jo olevan palan viereen"
    st = fresh([". . . . o . . . . . . . . . . ."], first_row=5)   # orange E5
    legal = {t for t in legal_texts(st) if t.startswith("palace orange")}
    assert legal == {"palace orange E4", "palace orange D5", "palace orange F5", "palace orange E6"}
    with pytest.raises(IllegalOrderError, match="still under construction"):
        play(st, "palace orange F6")   # diagonal is not next to it
    with pytest.raises(IllegalOrderError, match="still under construction"):
        play(st, "palace orange K9")   # one orange palace under construction at a time


def test_growing_palace_still_keeps_the_street():
    st = fresh([". . . . o . k . . . . . . . . ."], first_row=5)   # orange E5, black G5
    legal = legal_texts(st)
    assert "palace orange F5" not in legal     # would touch black G5
    assert "palace orange E4" in legal
    assert "palace black F5" not in legal      # would touch orange E5


def test_palace_never_touches_a_stable_of_another_palace():
    # stables keep the street like palace pieces (docs/rules/medina.md)
    st = fresh([". . . . o s . . . . . . . . . ."], first_row=5)   # orange E5 + stable F5
    legal = legal_texts(st)
    assert "palace grey G5" not in legal and "palace grey G4" not in legal
    assert "palace grey H5" in legal
    assert "palace orange F4" not in legal  # not orthogonally next to an orange piece
    assert "palace orange E4" in legal      # own stable does not block its palace


def test_palace_pieces_go_only_on_squares_not_wall_spaces_or_taken_squares():
    from pbem.engine import OrderParseError
    st = fresh([". . . . m . . . . . . . . . . ."], first_row=5)
    with pytest.raises(OrderParseError, match="not on wall space"):
        play(st, "palace grey W3")
    with pytest.raises(IllegalOrderError, match="taken by a merchant"):
        play(st, "palace grey E5")


def test_a_new_palace_of_a_colour_starts_only_after_the_old_one_is_completed():
    st = fresh([". . . . o . . . . . . . . . . ."], first_row=5)
    assert "palace orange K9" not in legal_texts(st)
    play(st, "dome E5")
    assert st.palaces[0].complete
    assert "palace orange K9" in legal_texts(st)
    play(st, "palace orange K9")
    assert [p.squares for p in st.palaces if p.colour == "orange"] == [[4 * 16 + 4], [8 * 16 + 10]]


def test_no_pieces_are_added_to_a_completed_palace():
    st = fresh([". . . . o . . . . . . . . . . ."], first_row=5, extra="dome E5 seat 2")
    legal = legal_texts(st)
    assert "palace orange E4" not in legal   # next to the completed orange palace: street rule
    assert "dome E5" not in legal


def test_a_boxed_in_palace_is_completed_and_belongs_to_nobody():
    # grey C5 can grow only to C4; a stable there boxes it in
    st = fresh([". . . . . . . . . . . . . . . .",
                ". m g m . . . . . . . . . . . .",
                ". . m . . . . . . . . . . . . ."], first_row=4)
    assert {t for t in legal_texts(st) if t.startswith("palace grey")} == {"palace grey C4"}
    events = play(st, "stable C4")  # a stable is not a palace piece: no room left
    grey = st.palaces[0]
    assert grey.complete and grey.owner is None
    assert any("no room left to grow" in e and "belongs to nobody" in e for e in events)
    assert "dome C5" not in legal_texts(st)
    assert "palace grey K9" in legal_texts(st)   # a new grey palace may start


def test_a_palace_is_boxed_in_when_its_last_space_would_touch_another_palace():
    # black F5 can grow only to F4; a new brown palace on F3 makes F4 touch it
    st = fresh([". . . . m k m . . . . . . . . .",
                ". . . . . m . . . . . . . . . ."], first_row=5)
    assert {t for t in legal_texts(st) if t.startswith("palace black")} == {"palace black F4"}
    assert "palace brown F3" in legal_texts(st)
    events = play(st, "palace brown F3")
    black = st.palaces[0]
    assert black.colour == "black" and black.complete and black.owner is None
    assert not st.palaces[1].complete   # brown can still grow (F2, E3, G3)
    assert any("black palace at F5 has no room left" in e for e in events)


def test_dome_claims_and_completes_a_palace():
    st = fresh([". . . . o o . . . . . . . . . ."], first_row=5)
    events = play(st, "dome F5")
    p = st.palaces[0]
    assert (p.owner, p.dome, p.complete) == (0, 4 * 16 + 5, True)
    assert st.supply[0]["domes"] == 3 and st.claimed[0] == ["orange"]
    assert "claims the orange palace at E5 F5" in events[0]


def test_a_palace_of_one_piece_may_be_claimed():
    st = fresh()
    play(st, "palace brown H6", "dome H6")
    assert st.palaces[0].owner == 0 and st.palaces[0].size == 1


def test_each_player_claims_only_one_palace_of_each_colour():
    st = fresh([". . . . o . . . . . . . . . . ."], first_row=5, extra="dome E5 seat 1")
    play(st, "palace orange K9")
    assert "dome K9" not in legal_texts(st)
    with pytest.raises(IllegalOrderError, match="already own an orange palace"):
        play(st, "dome K9")


def test_owner_of_a_colour_may_still_place_that_colour():
    # "Hän saa kuitenkin asettaa laudalle lisää harmaita palatsipaloja"
    st = fresh([". . . . g . . . . . . . . . . ."], first_row=5, extra="dome E5 seat 1")
    play(st, "palace grey K9", "palace grey K10")
    assert st.palaces[1].squares == [8 * 16 + 10, 9 * 16 + 10]


def test_dome_only_on_a_palace_under_construction():
    st = fresh([". . . . g . . . . . . . . . . ."], first_row=5, extra="complete E5")
    with pytest.raises(IllegalOrderError, match="already completed"):
        play(st, "dome E5")
    with pytest.raises(IllegalOrderError, match="no palace piece"):
        play(st, "dome H9")


def test_no_domes_left():
    st = fresh([". . . . g . . . . . . . . . . ."], first_row=5,
               extra="supply seat 1 domes 0")
    with pytest.raises(IllegalOrderError, match="no domes left"):
        play(st, "dome E5")


def test_when_every_seat_claimed_a_colour_its_pieces_go_back_to_the_box():
    st = fresh([". . g . . . g . . . . . . . . .",
                ". . . . . . . . . . . . . . . .",
                ". . . . . . . . . . g . . . . ."], first_row=2,
               extra="dome C2 seat 2\ndome G2 seat 3")
    # the third grey (K4) is under construction: seat 1 claims it
    events = play(st, "dome K4")
    assert "grey" in st.returned
    assert all(s["grey"] == 0 for s in st.supply)
    assert any("go back to the box" in e for e in events)
    assert not any(t.startswith("palace grey") for t in legal_texts(st))
    with pytest.raises(IllegalOrderError, match="back in the box"):
        play(st, "palace grey A11")
