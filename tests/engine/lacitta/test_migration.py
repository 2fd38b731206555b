"""Phase 6 (Voice of the People) and phase 7 (migration)."""
import pytest

from pbem.engine import get_game
from tests.engine.lacitta.fixtures import legal, play, position

G = get_game("lacitta")

# Seat 2 plays the last turn of the year; then the Voice is revealed.
BASE = """
seats {seats}
phase political year 1 round 5 seat {last}
start 1
gold {zeros}
food {food}
voice {voice}
voice_deck culture culture culture health health health education education
"""


def pos(cities, voice="culture culture culture health", seats=2, extra=""):
    text = BASE.format(seats=seats, last=seats, voice=voice, zeros=" ".join(["0"] * seats),
                       food=" ".join(["30"] * seats)) + cities + extra
    return position(text)


def finish(s):
    """Play the last political turn; return the migration events."""
    ev = play(s, f"{s.n}: gold")
    return [e for e in ev if e.kind == "migration"], ev


@pytest.mark.parametrize(("voice", "wishes"), [
    ("culture culture culture culture", ["culture"]),
    ("health culture culture culture", ["culture"]),
    ("culture health culture education", ["culture"]),
    ("education health health education", ["education", "health"]),
])
def test_voice_of_the_people_wishes(voice, wishes):
    s = pos("city 1 J6 3\ncity 2 Q13 3\n", voice=voice)
    _, ev = finish(s)
    reveal = next(e for e in ev if e.kind == "reveal")
    assert reveal.data["wishes"] == wishes


def test_city_with_more_arches_takes_a_citizen_from_a_neighbour():
    s = pos("city 1 J6 3: statue K6\ncity 2 M7 3\n")
    mig, _ = finish(s)
    assert [(m.data["from"], m.data["to"]) for m in mig] == [("M7", "J6")]
    # then growth of year 2: +1 each
    assert s.cities["J6"].citizens == 5 and s.cities["M7"].citizens == 3


def test_two_free_sites_between_are_neighbours():
    s = pos("city 1 J6 3: statue K6\ncity 2 N7 3\n")     # L6, M6 between
    mig, _ = finish(s)
    assert len(mig) == 1


def test_three_free_sites_between_no_migration():
    s = pos("city 1 J6 3: statue K6\ncity 2 O6 3\n")     # L6, M6, N6 between
    mig, _ = finish(s)
    assert mig == []


def test_no_migration_between_cities_of_one_player():
    s = pos("city 1 J6 3: statue K6\ncity 1 M7 3\ncity 2 Q13 3\n")
    mig, _ = finish(s)
    assert mig == []


def test_equal_arches_no_migration():
    s = pos("city 1 J6 3: statue K6\ncity 2 M7 3: statue L8\n")
    mig, _ = finish(s)
    assert mig == []


def test_only_the_wish_colour_counts():
    s = pos("city 1 J6 3: school K6\ncity 2 M7 3\n")      # education arch, culture wished
    mig, _ = finish(s)
    assert mig == []


def test_full_city_does_not_stop_the_loss_citizen_to_bank():
    s = pos("city 1 J6 5: statue K6\ncity 2 M7 3\n")      # 5 = limit without market
    bank = s.bank
    mig, _ = finish(s)
    assert len(mig) == 1 and not mig[0].data["arrived"] and "goes back to the bank" in mig[0].text
    assert s.cities["M7"].citizens == 3                   # 3 - 1 + growth
    assert s.cities["J6"].citizens == 5
    assert s.bank == bank + 1 - 1                         # +1 migration, -1 growth of M7


def test_the_full_city_named_in_the_migration_line_is_the_one_that_is_full():
    """Issue 29: "…draws a citizen from seat 2's city at M7, but that city is
    full" read as if M7 (3 of 5) were full; the full city is the drawing
    J6 (5 of 5), and the line must say so."""
    s = pos("city 1 J6 5: statue K6\ncity 2 M7 3\n")
    before = {k: (c.citizens, s.capacity(c)) for k, c in s.cities.items()}
    assert before == {"J6": (5, 5), "M7": (3, 5)}
    mig, _ = finish(s)
    text = str(mig[0].text)
    assert text.startswith("Migration (culture 1 against 0): seat 1's city at J6 draws a citizen "
                           "from seat 2's city at M7")
    assert text.endswith(", but the city at J6 is full: the citizen goes back to the bank.")
    assert "that city" not in text


def test_gains_one_citizen_from_each_poorer_neighbour():
    s = pos("city 1 M6 4: statue M5\ncity 2 K6 3\ncity 2 O6 3\n")
    mig, _ = finish(s)
    assert sorted(m.data["from"] for m in mig) == ["K6", "O6"]


def test_city_without_citizens_gives_nothing():
    # seat 2's city at M7 has one citizen and two richer neighbours of seat 1
    s = pos("city 1 J6 3: statue K6\ncity 1 L9 3: statue K10\ncity 2 M7 1\n")
    mig, _ = finish(s)
    assert len(mig) == 1
    assert "M7" not in s.cities                           # lost with its last citizen


def test_notables_count_as_arches_in_migration():
    s = pos("city 1 J6 3: statue K6\ncity 2 M7 3: statue L8\n", extra="notable L8 2 culture\n")
    mig, _ = finish(s)
    assert [(m.data["from"], m.data["to"]) for m in mig] == [("J6", "M7")]


def test_migration_goes_seat_by_seat_from_the_start_player():
    # two wishes: seat 1 takes with health first, then seat 2 takes back with culture
    s = pos("city 1 J6 3: fountain K6\ncity 2 M7 3: statue L8\n",
            voice="health culture culture health")
    _, ev = finish(s)
    assert s.phase_name == "migration" and s.current_seats() == [0]
    assert legal(s, 1) == {"wish J6 culture", "wish J6 health"}
    ev = play(s, "1: wish J6 health")
    assert s.current_seats() == [1]
    ev += play(s, "2: wish M7 culture")
    mig = [e for e in ev if e.kind == "migration"]
    assert [(m.data["from"], m.data["to"]) for m in mig] == [("M7", "J6"), ("J6", "M7")]


def test_two_wish_choice_not_asked_when_both_give_the_same():
    # seat 1's city wins in both colours: no question
    s = pos("city 1 J6 3: hospital K6\ncity 2 M7 3\n", voice="health education education health")
    mig, _ = finish(s)
    assert len(mig) == 1 and s.phase_name != "migration"


def test_two_wish_choice_per_city_any_site_names_the_city():
    s = pos("city 1 J6 3: fountain K6\ncity 2 M7 3: statue L8\n",
            voice="health culture culture health")
    finish(s)
    o = G.parse_action(s, 0, "Wunsch k6 gesundheit")
    assert o.to_text() == "wish J6 health"


def test_default_wish_takes_the_most_citizens():
    s = pos("city 1 J6 3: fountain K6\ncity 2 M7 3: statue L8\n",
            voice="health culture culture health")
    finish(s)
    assert s.default_action(0).to_text() == "wish J6 health"


def test_full_city_lets_the_city_with_room_draw_the_last_citizen():
    # docs/rules/lacitta.md "Migration": J6 is full, L9 has room; both beat M7,
    # which has one citizen left. At the table the player lets L9 take it.
    s = pos("city 1 J6 5: statue K6\ncity 1 L9 3: statue K10\ncity 2 M7 1\n")
    bank = s.bank
    mig, _ = finish(s)
    assert [(m.data["from"], m.data["to"], m.data["arrived"]) for m in mig] == [("M7", "L9", True)]
    assert s.cities["L9"].citizens >= 4 and s.bank <= bank


def test_full_city_still_draws_when_the_neighbour_can_give_to_both():
    # M7 has citizens for both: the full city's draw still costs M7 a citizen
    s = pos("city 1 J6 5: statue K6\ncity 1 L9 3: statue K10\ncity 2 M7 3\n")
    mig, _ = finish(s)
    assert sorted((m.data["to"], m.data["arrived"]) for m in mig) == [("J6", False), ("L9", True)]


def test_two_wish_choice_not_asked_when_the_neighbour_is_already_empty():
    # seat 1 takes M7's last citizen with culture; seat 2's L9 would beat M7
    # only with health, but M7 has nothing left to give: no question for seat 2
    s = pos("city 1 J6 3: statue K6\ncity 2 L9 3: fountain K10\ncity 3 M7 1\n",
            voice="health culture culture health", seats=3)
    finish(s)
    assert s.phase_name == "migration" and s.current_seats() == [0]
    ev = play(s, "1: wish J6 culture")
    assert [(e.data["from"], e.data["to"]) for e in ev if e.kind == "migration"] == [("M7", "J6")]
    assert s.phase_name != "migration"                    # seat 2 was not asked
    assert "M7" not in s.cities                           # lost with its last citizen
