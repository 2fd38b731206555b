"""Preparing a game (la-citta.fi.txt "Pelin valmistelu", "Suositeltava
alkuasetus aloittelijoille", "Alkuasetus kokeneille"): the political and
Voice of the People decks are shuffled; the beginners' setup lays the
printed landscape and castles and starts year 1, the experienced setup
shuffles the landscape and leaves the castles to the seats in snake order
(:func:`castles.place_setup_castle`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import castles, flow
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.board import BEGINNER, SLOTS, TILES
from pbem.engine.lacitta.geometry import terrain
from pbem.engine.messages import Msg

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def prepare(s: "LaCittaState", setup: str) -> list[Event]:
    """Shuffle the decks (political first, then the Voice of the People,
    then an experienced landscape: the order the seeded generator is
    used in) and lay out the board."""
    deck = [c for c, k in D.POLITICAL_DECK.items() for _ in range(k)]
    s.rng.shuffle(deck)
    s.display = deck[:D.DISPLAY]
    s.deck = deck[D.DISPLAY:]
    vdeck = [w for w, k in D.VOICE_DECK.items() for _ in range(k)]
    s.rng.shuffle(vdeck)
    s.voice_deck = vdeck
    if setup == "beginner":
        return _beginner(s)
    return _experienced(s)


def _beginner(s: "LaCittaState") -> list[Event]:
    """The printed layout for the seat count, then year 1 begins."""
    layout = BEGINNER[s.n]
    s.landscape = dict(layout["landscape"])
    s.terrain = terrain(s.landscape)
    events: list[Event] = []
    for seat, sites in enumerate(layout["castles"]):
        for site in sites:
            events += castles.place_castle(s, seat, site, D.START_CITIZENS, setup=True)
    s.start = 0
    s.phase_name = "political"
    return events + flow.start_year(s, 1)


def _experienced(s: "LaCittaState") -> list[Event]:
    """A shuffled landscape; castles are placed in snake order."""
    tiles = [c for c, k in TILES.items() for _ in range(k)]
    s.rng.shuffle(tiles)
    s.landscape = dict(zip(SLOTS, tiles))
    s.terrain = terrain(s.landscape)
    s.setup_order = D.castle_order(s.n)
    s.turn = 0
    return [Event(Msg("Experienced setup: landscape shuffled; castles are placed by seats "
                      "{order}: first castles counter-clockwise from seat 1, second "
                      "castles back clockwise.",
                      order=", ".join(str(p + 1) for p in s.setup_order)), kind="setup")]
