"""Stables ("Tallit"), merchants ("Asukkaat") and walls ("Muurit")."""
import pytest

from pbem.engine import IllegalOrderError
from pbem.engine.medina.scoring import palace_points

from .helpers import board, legal_texts, play, pos


def fresh(rows=(), first_row=1, extra="", seats=3):
    return pos(f"seats {seats}\nturn seat 1 piece 1\n{board(*rows, first_row=first_row)}\n{extra}")


def stables(st):
    return {t.split()[1] for t in legal_texts(st) if t.startswith("stable")}


# ------------------------------------------------------------------ stables
def test_stable_goes_orthogonally_next_to_a_palace_piece():
    st = fresh([". . . . g . . . . . . . . . . ."], first_row=5)
    assert stables(st) == {"E4", "D5", "F5", "E6"}


def test_stables_go_next_to_any_palace_unfinished_or_completed_whoever_owns_it():
    st = fresh([". . g . . . . k . . . . o . . ."], first_row=5,
               extra="dome H5 seat 2\ncomplete M5")
    assert {"C4", "H4", "M4"} <= stables(st)
    play(st, "stable H4")
    assert st.palaces[1].stables == [3 * 16 + 7]


def test_a_stable_may_not_be_next_to_only_another_stable():
    # "Pelaaja ei saa asettaa tallia paikkaan, jossa sen vierekkäin ainoastaan toisen tallin kanssa"
    st = fresh([". . . . g s . . . . . . . . . ."], first_row=5)
    assert "G5" not in stables(st)
    with pytest.raises(IllegalOrderError, match="next only to a stable"):
        play(st, "stable G5")
    with pytest.raises(IllegalOrderError, match="not orthogonally next to a palace piece"):
        play(st, "stable D4")   # diagonal to E5 only


def test_stables_keep_the_street_between_palaces():
    # grey C5 and black E5: D5 would join them
    st = fresh([". . g . k . . . . . . . . . . ."], first_row=5)
    assert "D5" not in stables(st)
    with pytest.raises(IllegalOrderError, match="would touch"):
        play(st, "stable D5")
    # grey C5 and black E6: D5 touches black diagonally; D4 is fine
    st = fresh([". . g . . . . . . . . . . . . .",
                ". . . . k . . . . . . . . . . ."], first_row=5)
    assert "D5" not in stables(st) and "C4" in stables(st) and "E7" in stables(st)


def test_stable_adds_to_palace_size_and_points():
    st = fresh([". . . . g . . . . . . . . . . ."], first_row=5, extra="dome E5 seat 1")
    play(st, "stable F5")
    p = st.palaces[0]
    assert p.size == 2
    assert palace_points(st, p) == {"pieces": 1, "stables": 1, "merchants": 0, "walls": 0}


# ---------------------------------------------------------------- merchants
def merchants(st):
    return {t.split()[1] for t in legal_texts(st) if t.startswith("merchant")}


def test_merchant_goes_at_either_end_of_the_chain():
    st = fresh([". . . . m m m . . . . . . . . ."], first_row=5)   # E5 F5 G5
    assert merchants(st) == {"D5", "E4", "E6", "H5", "G4", "G6"}


def test_a_single_merchant_chain_grows_in_every_direction():
    st = fresh([". . . . . . . m . . . . . . . ."], first_row=6)
    assert merchants(st) == {"H5", "G6", "I6", "H7"}


def test_merchant_never_next_to_two_merchants():
    # E5 F5 F6: E6 touches E5 and F6
    st = fresh([". . . . m m . . . . . . . . . .",
                ". . . . . m . . . . . . . . . ."], first_row=5)
    assert "E6" not in merchants(st)
    with pytest.raises(IllegalOrderError, match="next to two merchants"):
        play(st, "merchant E6")


def test_merchant_not_next_to_the_middle_of_the_chain():
    st = fresh([". . . . m m m . . . . . . . . ."], first_row=5)
    assert "F4" not in merchants(st)
    with pytest.raises(IllegalOrderError, match="middle of a merchant chain"):
        play(st, "merchant F4")


def test_new_chain_only_when_the_chain_cannot_grow():
    st = fresh([". . . . m . . . . . . . . . . ."], first_row=5)
    with pytest.raises(IllegalOrderError, match="can still grow"):
        play(st, "merchant K9")
    # merchant A1 boxed in by palace pieces: any empty square not touching a merchant
    st = fresh(["m g . . . . . . . . . . . . . .",
                "g . . . . . . . . . . . . . . ."])
    new = merchants(st)
    assert "P11" in new and "A11" in new and "C3" in new   # also on the edge
    events = play(st, "merchant P11")
    assert any("new merchant chain" in e for e in events)
    assert merchants(st) == {"O11", "P10"}   # the new chain grows now


# -------------------------------------------------------------------- walls
def walls(st):
    return {t.split()[1] for t in legal_texts(st) if t.startswith("wall")}


def test_walls_grow_from_the_towers():
    st = fresh()
    # next to a tower: W1 and W54 (tower 1), W16/W17 (2), W27/W28 (3), W43/W44 (4)
    assert walls(st) == {"W1", "W16", "W17", "W27", "W28", "W43", "W44", "W54"}
    with pytest.raises(IllegalOrderError, match="not next to a tower or a wall"):
        play(st, "wall W5")
    play(st, "wall W1", )
    assert "W2" in walls(st)
    assert st.walls[0] == 1


def test_every_side_keeps_a_gate():
    north = " ".join(f"W{n}" for n in list(range(1, 8)) + list(range(9, 17)))  # W8 free
    st = fresh(extra=f"walls {north}")
    assert "W8" not in walls(st)
    with pytest.raises(IllegalOrderError, match="last gap on the north side"):
        play(st, "wall W8")
    # the east side, W17..W27, likewise
    east = " ".join(f"W{n}" for n in range(17, 27))
    st = fresh(extra=f"walls {east}")
    assert "W27" not in walls(st)


def test_walls_may_go_next_to_anything():
    # "Pelissä ei ole rajoituksia muuripalojen asettamisesta palatsien, tallien tai asukkaiden viereen"
    st = fresh(["g s m . . . . . . . . . . . . ."], extra="walls W1 W2")
    assert "W3" in walls(st)
    play(st, "wall W3")
    assert st.walls[2] == 1


def test_wall_tower_is_the_tower_its_segment_starts_at():
    st = fresh(extra="walls W16 W15")
    assert st.walls[15] == 2 and st.walls[14] == 2
    play(st, "wall W14")
    assert st.walls[13] == 2
