"""Palace tiles ("Palatsilaatat") and tower tiles ("Tornilaatat"); RULINGS.md."""
from .helpers import board, play, pos


def fresh(rows=(), first_row=1, extra="", seats=3, turn=1):
    return pos(f"seats {seats}\nturn seat {turn} piece 1\n{board(*rows, first_row=first_row)}\n{extra}")


# ------------------------------------------------------------- palace tiles
def test_first_claimed_palace_of_a_colour_takes_its_palace_tile():
    st = fresh([". . . . g g . . . . . . . . . ."], first_row=5)
    events = play(st, "dome E5")
    assert st.palace_tiles["grey"] == 0
    assert any("takes the grey palace tile (1 point) from the table" in e for e in events)


def test_a_strictly_larger_palace_takes_the_tile_over():
    st = fresh([". g g . . . . . . . . . . . . .",
                ". . . . . . . . . . . . . . . .",
                ". . . . . . . . . g g g . . . ."], first_row=2,
               extra="dome B2 seat 2\npalace tile grey seat 2")
    events = play(st, "dome J4")
    assert st.palace_tiles["grey"] == 0
    assert any("takes the grey palace tile" in e and "from seat 2" in e for e in events)


def test_an_equal_palace_does_not_take_the_tile():
    st = fresh([". g g . . . . . . . . . . . . .",
                ". . . . . . . . . . . . . . . .",
                ". . . . . . . . . g g . . . . ."], first_row=2,
               extra="dome B2 seat 2\npalace tile grey seat 2")
    play(st, "dome J4")
    assert st.palace_tiles["grey"] == 1


def test_stables_count_for_the_palace_size_and_can_take_the_tile():
    # "Palatsin koko lasketaan palatsipaloista ja siihen liittyvistä talleista"
    st = fresh([". g g . . . . . . . . . . . . .",
                ". . . . . . . . . . . . . . . .",
                ". . . . . . . . . g g . . . . ."], first_row=2,
               extra="dome B2 seat 2\ndome J4 seat 1\npalace tile grey seat 2")
    events = play(st, "stable L4")
    assert st.palace_tiles["grey"] == 0
    assert any("takes the grey palace tile" in e for e in events)


def test_a_palace_nobody_owns_never_takes_a_palace_tile():
    # grey C5 boxed in (larger than nothing) stays nobody's: the tile stays on the table
    st = fresh([". . . . . . . . . . . . . . . .",
                ". m g m . . . . . . . . . . . .",
                ". . m . . . . . . . . . . . . ."], first_row=4)
    play(st, "stable C4")
    assert st.palaces[0].complete and st.palace_tiles["grey"] is None


# -------------------------------------------------------------- tower tiles
WEST_TO_A5 = "walls " + " ".join(f"W{n}" for n in range(44, 51))   # tower 4 up to A5


def test_claiming_a_palace_next_to_the_wall_takes_that_towers_tile():
    st = fresh(["o . . . . . . . . . . . . . . ."], first_row=5, extra=WEST_TO_A5)
    events = play(st, "dome A5")
    assert st.tower_tiles[4] == 0
    assert any("takes tower tile 4 (4 points) from the table" in e for e in events)


def test_a_palace_touching_no_wall_piece_is_not_connected():
    # the tower stands diagonally off the corner square; a wall piece is needed
    st = fresh(["o . . . . . . . . . . . . . . ."], first_row=1)
    play(st, "dome A1")
    assert all(s is None for s in st.tower_tiles.values())


def test_a_wall_connecting_a_claimed_palace_gives_its_owner_the_tile_from_another_seat():
    st = fresh(["o . . . . . . . . . . . . . . ."], first_row=5, turn=3,
               extra="dome A5 seat 1\ntower tile 4 seat 2\nwalls "
               + " ".join(f"W{n}" for n in range(44, 50)))
    events = play(st, "wall W50")   # placed by seat 3, the palace is seat 1's
    assert st.tower_tiles[4] == 0
    assert any("Seat 1 takes tower tile 4" in e and "from seat 2" in e for e in events)


def test_a_stable_connecting_a_claimed_palace_takes_the_tile():
    st = fresh([". o . . . . . . . . . . . . . ."], first_row=5,
               extra="dome B5 seat 2\ntower tile 4 seat 3\n" + WEST_TO_A5)
    play(st, "stable A5")
    assert st.tower_tiles[4] == 1


def test_growth_of_an_already_connected_palace_is_not_a_new_connection():
    # seat 1's palace A4-A5 touches tower 4's wall at W50; seat 2 took the tile since
    st = fresh(["o . . . . . . . . . . . . . . .",
                "o . . . . . . . . . . . . . . ."], first_row=4,
               extra="dome A5 seat 1\ntower tile 4 seat 2\n" + WEST_TO_A5)
    play(st, "wall W51", "stable A3")   # W51 beside A4, stable A3 beside W52 (empty)
    assert st.tower_tiles[4] == 1
    # a stable touching tower 4's wall again: still the same connection
    st = fresh(["o . . . . . . . . . . . . . . ."], first_row=5,
               extra="dome A5 seat 1\ntower tile 4 seat 2\n" + WEST_TO_A5)
    play(st, "stable A6")
    assert st.tower_tiles[4] == 1


def test_an_unclaimed_palace_connected_to_a_tower_gives_nobody_the_tile():
    st = fresh(["o . . . . . . . . . . . . . . ."], first_row=5,
               extra="walls " + " ".join(f"W{n}" for n in range(44, 50)))
    play(st, "wall W50")
    assert st.tower_tiles[4] is None
    play(st, "dome A5")   # claiming it now connects it: seat 1 takes the tile
    assert st.tower_tiles[4] == 0
