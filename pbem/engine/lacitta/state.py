"""La Città position (la-citta.fi.txt; RULINGS.md wins).

A :class:`LaCittaState` holds one position: the board (cities and their
buildings), the players' gold, food tokens and cards, the political and Voice
of the People decks, the seeded generator, and where the year stands. The
rules live in modules named after them (:mod:`building`, :mod:`castles`,
:mod:`cards`, :mod:`political`, :mod:`voice`, :mod:`migration`,
:mod:`demolition`, :mod:`feeding`, :mod:`scoring`, :mod:`year`);
:mod:`turns` answers the engine API's order questions and :mod:`flow` runs
everything the engine can decide on its own up to the next decision.

Phases (``self.phase_name``):
``setup``      experienced setup: snake-order castle placement ("Alkuasetus kokeneille")
``political``  phase 5, five political rounds, one seat at a time
``migration``  phase 7 in a two-wish year: the migrating seat picks a wish per city
``yearend``    demolition (phase 7 end) and feeding (phase 8); seats decide at once
``over``       after year 6
"""
from __future__ import annotations

import json
from typing import Any

from pbem.engine.api import Event, Score, State
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta import rng as rngs
from pbem.engine.lacitta import scoring, setup as setups, sites, turns
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.city import City
from pbem.engine.lacitta.decision import changed_sites
from pbem.engine.lacitta.geometry import ORDER, PLAYERS, USABLE, terrain
from pbem.engine.messages import Msg

__all__ = ["City", "LaCittaState"]

INF = 10 ** 6
#: the lists of a position stored as they are (to_dict/from_dict)
_LISTS = ("gold", "food", "actions", "founded", "famine_next", "famine6", "famine_now",
          "display", "deck", "discard", "voice_deck", "voice", "wishes", "setup_order", "harvest")


class LaCittaState(State):
    def __init__(self, game, seats: int) -> None:
        self.game = game
        self.n = seats
        self._legal_cache: tuple | None = None
        self._by_owner: list | None = None
        # givers (None for any single giver) -> found orders; valid until the
        # castle sites (self.open) change
        self._found_cache: dict | None = None
        # castle -> frontier entry (building.front_entry); an entry goes when a
        # building is placed or removed within 2 sites of the city, the only
        # change that can alter what the frontier reads
        self._front: dict[str, tuple] = {}
        # castle -> sites within distance 3 of the city; goes when the city
        # gains or loses a building
        self._zone: dict[str, set] = {}

    def _empty_board(self) -> None:
        """No city yet; the site indexes of :mod:`sites` empty."""
        self.cities: dict[str, City] = {}
        self.occ: dict[str, str] = {}          # site -> castle of its city
        self.kind: dict[str, str] = {}         # site -> building kind
        self.near: dict[str, int] = {}         # site -> buildings within distance 3
        self.open = set(USABLE[self.n])         # usable sites with no building within distance 3
        self.touch: dict[str, dict] = {}       # site -> {castle: its buildings next to the site}

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game, seats: int, seed: int, setup: str) -> "LaCittaState":
        """Year 1's first decision (beginner) or the first castle placement
        (experienced) of a new game with ``seed``."""
        s = cls(game, seats)
        s.seed = seed
        s.setup = setup
        s.rng = rngs.for_seed(seed, seats)   # version 1 below 2**64, else the full-seed one
        s._step = 0
        s.year = s.round = s.turn = s.start = 0
        s.phase_name = "setup"
        s._empty_board()
        s.bank = D.CITIZEN_BANK
        s.gold = [D.START_GOLD] * seats
        s.food = [0] * seats
        s.actions = [D.ACTION_CARDS] * seats
        s.played: list[list[str]] = [[] for _ in range(seats)]   # face-down political cards this year
        s.founded = [False] * seats
        s.famine_next = [False] * seats
        s.famine6 = [False] * seats
        s.famine_now = [False] * seats
        s.used = {p: 0 for p in D.SUPPLY}
        s.notables: list[list] = []         # [site, seat, wish] one per notable (Brot und Spiele)
        s.harvest: list[str] = []           # farms with a Reiche Ernte notable
        s.discard: list[str] = []
        s.voice: list[str] = []
        s.revealed = False
        s.peeked: list[list[int]] = [[] for _ in range(seats)]
        s.wishes: list[str] = []
        s.setup_order: list[int] = []
        s.mig_index = 0
        s.wish_choice: dict[str, str | None] = {}
        s.yearend: dict[int, dict] = {}
        events = setups.prepare(s, setup)
        s.setup_events = [e.to_dict() for e in events]
        s.last_sites = changed_sites(events)
        return s

    # ----------------------------------------------------------- API basics
    @property
    def seats(self) -> int:
        return self.n

    @property
    def step(self) -> int:
        return self._step

    def is_terminal(self) -> bool:
        return self.phase_name == "over"

    def order(self) -> list[int]:
        """Seats from the start player clockwise."""
        return [(self.start + i) % self.n for i in range(self.n)]

    def current_seats(self) -> list[int]:
        ph = self.phase_name
        if ph == "setup":
            return [self.setup_order[self.turn]]
        if ph == "political":
            return [(self.start + self.turn) % self.n]
        if ph == "migration":
            return [self.order()[self.mig_index]]
        if ph == "yearend":
            return sorted(self.yearend)
        return []

    def phase(self) -> Msg:
        """The phase in words (a :class:`Msg`): ``"Year 2, political round 3"``."""
        ph = self.phase_name
        if ph == "setup":
            return Msg("Setup, castle placement")
        if ph == "political":
            return Msg("Year {year}, political round {round}", year=self.year, round=self.round)
        if ph == "migration":
            return Msg("Year {year}, migration", year=self.year)
        if ph == "yearend":
            return Msg("Year {year}, demolition and feeding", year=self.year)
        return Msg("Game over")

    # -------------------------------------------------------------- reading
    def usable(self, site: str) -> bool:
        """``site`` is used at this player count."""
        return PLAYERS[site] <= self.n

    def city_of(self, site: str) -> City | None:
        c = self.occ.get(site)
        return self.cities[c] if c else None

    def cities_of(self, seat: int) -> list[City]:
        """The seat's cities in reading order of their castles (cached until
        a city is founded or lost)."""
        cache = self._by_owner
        if cache is None:
            cache = self._by_owner = [[] for _ in range(self.n)]
            for c in sorted(self.cities.values(), key=lambda c: ORDER[c.castle]):
                cache[c.owner].append(c)
        return list(cache[seat])

    def capacity(self, city: City) -> int:
        """Population limit (phase 4): 5 without a market, 8 without a
        fountain or bathhouse, else none."""
        kinds = [self.kind[s] for s in city.sites]
        if "market" not in kinds:
            return 5
        if "fountain" not in kinds and "bathhouse" not in kinds:
            return 8
        return INF

    def arches(self, city: City, wish: str, notables: bool = True) -> int:
        """Arches of ``wish`` in ``city`` (its notables counted unless ``notables`` is False)."""
        n = 0
        for s in city.sites:
            n += D.ARCHES[self.kind[s]].get(wish, 0)
        if notables:
            for site, _seat, w in self.notables:
                if w == wish and self.occ.get(site) == city.castle:
                    n += 1
        return n

    def complete(self, city: City) -> bool:
        """A printed arch of each colour (final scoring)."""
        return all(self.arches(city, w, notables=False) > 0 for w in D.WISHES)

    def citizens(self, seat: int) -> int:
        return sum(c.citizens for c in self.cities.values() if c.owner == seat)

    def notables_free(self, seat: int) -> int:
        used = sum(1 for n in self.notables if n[1] == seat)
        used += sum(1 for f in self.harvest if self.cities[self.occ[f]].owner == seat)
        return D.NOTABLES - used

    def harvest_bonus(self, seat: int) -> int:
        return sum(self.terrain.food[f] for f in self.harvest if self.cities[self.occ[f]].owner == seat)

    def supply_left(self, kind: str) -> int:
        pile = D.PILE[kind]
        return D.SUPPLY[pile] - self.used[pile]

    def castles_left(self, seat: int) -> int:
        return D.CASTLES_PER_PLAYER - sum(1 for c in self.cities.values() if c.owner == seat)

    def castle_sites(self) -> list[str]:
        """Free sites where a castle may go (:func:`sites.castle_sites`)."""
        return sites.castle_sites(self)

    def neighbours(self, city: City) -> list[City]:
        """Other seats' cities within migration reach (:func:`sites.neighbours`)."""
        return sites.neighbours(self, city)

    # ---------------------------------------------------------------- orders
    def legal_actions(self, seat: int) -> list[Order]:
        cache = self._legal_cache
        if cache is not None and cache[0] == self._step and cache[1] == seat:
            return list(cache[2])
        acts = turns.legal(self, seat)
        self._legal_cache = (self._step, seat, acts, None)
        return list(acts)

    def _legal_set(self, seat: int) -> set:
        self.legal_actions(seat)
        cache = self._legal_cache
        if cache[3] is None:
            cache = self._legal_cache = (cache[0], cache[1], cache[2], set(cache[2]))
        return cache[3]

    def is_legal(self, seat: int, action: Order) -> bool:
        """Whether ``action`` is in :meth:`legal_actions` (without listing
        every order when only one kind of order needs checking)."""
        return turns.is_legal(self, seat, action)

    def check_multi(self, seat: int, action: Order) -> None:
        """Validate a multi-part order as a whole (:func:`turns.check_multi`)."""
        turns.check_multi(self, seat, action)

    def apply(self, seat: int, action: Order) -> list[Event]:
        events = turns.apply_order(self, seat, action)
        self.last_sites = changed_sites(events)
        return events

    def default_action(self, seat: int) -> Order:
        """Missed deadline (:func:`turns.default_action`)."""
        return turns.default_action(self, seat)

    def scores(self) -> list[Score]:
        """Final scoring (:func:`scoring.scores`)."""
        return scoring.scores(self)

    # ---------------------------------------------------------------- json
    def to_dict(self) -> dict[str, Any]:
        return {
            "v": 1, "seats": self.n, "seed": self.seed, "setup": self.setup,
            "rng": self.rng.to_text(),           # text: exact in any JSON reader
            "step": self._step, "year": self.year, "round": self.round, "turn": self.turn,
            "start": self.start, "phase": self.phase_name, "landscape": self.landscape,
            "cities": [{"castle": c.castle, "owner": c.owner, "citizens": c.citizens,
                        "buildings": [[s, self.kind[s]] for s in c.sites]} for c in self.cities.values()],
            "bank": self.bank, "gold": self.gold, "food": self.food, "actions": self.actions,
            "played": self.played, "founded": self.founded, "famine_next": self.famine_next,
            "famine6": self.famine6, "famine_now": self.famine_now, "used": self.used,
            "notables": self.notables, "harvest": self.harvest, "display": self.display,
            "deck": self.deck, "discard": self.discard, "voice_deck": self.voice_deck,
            "voice": self.voice, "revealed": self.revealed, "peeked": self.peeked,
            "wishes": self.wishes, "setup_order": self.setup_order, "mig_index": self.mig_index,
            "wish_choice": self.wish_choice,
            "yearend": {str(k): v for k, v in self.yearend.items()},
            "setup_events": self.setup_events,
            "last_sites": self.last_sites,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, game, d: dict[str, Any]) -> "LaCittaState":
        s = cls(game, d["seats"])
        s.seed = d["seed"]
        s.setup = d["setup"]
        s.rng = rngs.from_text(d["rng"])
        s._step = d["step"]
        s.year = d["year"]
        s.round = d["round"]
        s.turn = d["turn"]
        s.start = d["start"]
        s.phase_name = d["phase"]
        s.landscape = dict(d["landscape"])
        s.terrain = terrain(s.landscape)
        s._empty_board()
        for c in d["cities"]:
            city = City(c["castle"], c["owner"], c["citizens"], [])
            s.cities[city.castle] = city
            for site, kind in c["buildings"]:
                city.sites.append(site)
                sites.occupy(s, site, city, kind)
        s.bank = d["bank"]
        for k in _LISTS:
            setattr(s, k, list(d[k]))
        s.played = [list(x) for x in d["played"]]
        s.peeked = [list(x) for x in d["peeked"]]
        s.notables = [list(x) for x in d["notables"]]
        s.used = dict(d["used"])
        s.revealed = d["revealed"]
        s.mig_index = d["mig_index"]
        s.wish_choice = dict(d["wish_choice"])
        s.yearend = {int(k): dict(v) for k, v in d["yearend"].items()}
        s.setup_events = list(d.get("setup_events", []))
        s.last_sites = list(d.get("last_sites", []))
        return s

    def copy(self) -> "LaCittaState":
        """An independent copy, the site indexes copied rather than rebuilt
        (the search bots copy a position for every iteration). The landscape,
        the terrain, the setup events and the cached orders are never changed
        in place and are shared."""
        s = LaCittaState.__new__(LaCittaState)
        s.__dict__.update(self.__dict__)
        s.rng = rngs.from_text(self.rng.to_text())
        s.cities = {k: City(c.castle, c.owner, c.citizens, c.sites[:]) for k, c in self.cities.items()}
        s.occ, s.kind, s.near = dict(self.occ), dict(self.kind), dict(self.near)
        s.open = set(self.open)
        s.touch = {k: dict(v) for k, v in self.touch.items()}
        s._by_owner = None
        s._found_cache = dict(self._found_cache) if self._found_cache is not None else None
        s._front, s._zone = dict(self._front), dict(self._zone)
        for k in _LISTS:
            setattr(s, k, list(getattr(self, k)))
        s.played = [x[:] for x in self.played]
        s.peeked = [x[:] for x in self.peeked]
        s.notables = [x[:] for x in self.notables]
        s.used, s.wish_choice = dict(self.used), dict(self.wish_choice)
        s.yearend = {k: dict(v) for k, v in self.yearend.items()}
        s.last_sites = self.last_sites[:]
        return s

    # ---------------------------------------------------------------- view
    def view(self, seat: int | None) -> dict[str, Any]:
        from pbem.engine.lacitta.view import make_view
        return make_view(self, seat)
