"""La Città component data: buildings, cards, wishes and their names.

Sources: la-citta.fi.txt ("Pelin valmistelu", "Vaihtoehdot toimintakorteissa",
"Poliittikkakortit") and RULINGS.md ("Facts that the texts do not give").
Keep the political deck in one table (RULINGS.md asks for that).
"""
from __future__ import annotations

YEARS = 6
ROUNDS = 5
DISPLAY = 7                 # face-up political cards
START_GOLD = 1
START_CITIZENS = 3          # per castle
CASTLES_PER_PLAYER = 4      # so at most 4 cities
ACTION_CARDS = 3
NOTABLES = 4                # coloured citizens per player (not citizens)
CITIZEN_BANK = 130          # grey citizens in the box; the bank never runs out (RULINGS.md)
FAMINE_PENALTY = 5          # points, famine in year 6
COMPLETE_CITY_BONUS = 3     # points per city with a printed arch of each colour

WISHES = ("culture", "education", "health")          # white, black, blue arches
WISH_COLOUR = {"culture": "white", "education": "black", "health": "blue"}

# kind -> (size, printed arches {wish: n}, needs water)
BUILDINGS: dict[str, tuple[str, dict[str, int], bool]] = {
    "castle": ("castle", {}, False),
    "farm": ("small", {}, False),
    "quarry": ("small", {}, False),
    "market": ("small", {}, False),
    "statue": ("small", {"culture": 1}, False),
    "school": ("small", {"education": 1}, False),
    "fountain": ("small", {"health": 1}, True),
    "palazzo": ("medium", {"culture": 2}, False),
    "hospital": ("medium", {"education": 1, "health": 1}, False),
    "bathhouse": ("medium", {"health": 2}, True),
    "dom": ("large", {"culture": 3}, False),
    "university": ("large", {"education": 3}, False),
}
SMALL = ("farm", "quarry", "market", "statue", "school", "fountain")
BUILDABLE = tuple(k for k in BUILDINGS if k != "castle")
ARCHES = {k: v[1] for k, v in BUILDINGS.items()}
NEEDS_WATER = frozenset(k for k, v in BUILDINGS.items() if v[2])

# Double-sided tiles: either face may be built while any tile of the pair is
# left (RULINGS.md "Building supply"); markets have their own pile.
SUPPLY: dict[str, int] = {"farm/quarry": 40, "palazzo/hospital": 20, "statue/dom": 15,
                          "school/university": 15, "fountain/bathhouse": 15, "market": 16}
PILE = {"farm": "farm/quarry", "quarry": "farm/quarry", "palazzo": "palazzo/hospital",
        "hospital": "palazzo/hospital", "statue": "statue/dom", "dom": "statue/dom",
        "school": "school/university", "university": "school/university",
        "fountain": "fountain/bathhouse", "bathhouse": "fountain/bathhouse", "market": "market"}

# Political cards. Building cards name the building they build.
POLITICAL_DECK: dict[str, int] = {
    "palazzo": 4, "hospital": 4, "bathhouse": 4, "dom": 2, "university": 2,
    "master builder": 4, "bread and games": 4, "golden age": 4, "rich harvest": 2, "citizens": 2,
}
BUILDING_CARDS = ("palazzo", "hospital", "bathhouse", "dom", "university")
CARD_COST = {"palazzo": 1, "hospital": 1, "bathhouse": 1, "dom": 3, "university": 3}
MASTER_COST = {"small": 1, "medium": 2, "large": 4}   # the Catalan "3" is a slip
NOTABLE_COST = {1: 0, 2: 2, 3: 5}     # Brot und Spiele and Goldene Zeiten: 1/2/3 for 0/2/5
PEEK_COST = {2: 0, 3: 2}              # Bürgernähe
CARD_TITLE = {"palazzo": "Palazzo", "hospital": "Hospital", "bathhouse": "Badhaus", "dom": "Dom",
              "university": "Universität", "master builder": "Großer Baumeister",
              "bread and games": "Brot und Spiele", "golden age": "Goldene Zeiten",
              "rich harvest": "Reiche Ernte", "citizens": "Bürgernähe"}
VOICE_DECK = {"culture": 9, "education": 9, "health": 9}
VOICE_CARDS = 4



def castle_order(seats: int) -> list[int]:
    """Experienced setup: the seat indexes in the order they place castles
    (la-citta.fi.txt "Pelin valmistelu" steps 2-5, RULINGS.md "Setup"):
    first castles counter-clockwise from the setup player, seat 1 (seat 1,
    the last seat, ... seat 2), then second castles clockwise from the last
    placer (seat 2, seat 3, ... seat 1). With 4 seats: 0 3 2 1 1 2 3 0. The
    seat left of the last placer (seat 2) starts year 1. The one source for
    the engine, its setup line, the rules page and docs/rules/lacitta.md
    (tests/engine/lacitta/test_setup.py holds them to it)."""
    first = [(-i) % seats for i in range(seats)]
    return first + first[::-1]


assert sum(POLITICAL_DECK.values()) == 32
assert sum(VOICE_DECK.values()) == 27

