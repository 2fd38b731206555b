"""La Città position and rules (la-citta.fi.txt; RULINGS.md wins).

A :class:`LaCittaState` holds one position: the board (cities and their
buildings), the players' gold, food tokens and cards, the political and Voice
of the People decks, the seeded generator, and where the year stands.
:meth:`LaCittaState.apply` runs everything the engine can decide on its own
up to the next decision.

Phases (``self.phase_name``):
``setup``      experienced setup: snake-order castle placement ("Alkuasetus kokeneille")
``political``  phase 5, five political rounds, one seat at a time
``migration``  phase 7 in a two-wish year: the migrating seat picks a wish per city
``yearend``    demolition (phase 7 end) and feeding (phase 8); seats decide at once
``over``       after year 6
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pbem.engine.api import Event, IllegalOrderError, NotYourTurnError, Score, State
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta import migration
from pbem.engine.lacitta.actions import Order, demolish, starve
from pbem.engine.lacitta.board import BEGINNER, SLOTS, TILES
from pbem.engine.lacitta.decision import changed_sites
from pbem.engine.lacitta.geometry import BALL3, NBR, ORDER, PLAYERS, USABLE, terrain
from pbem.engine.lacitta import rng as rngs
from pbem.engine.lacitta.terms import BUILDING, CARD, WISH
from pbem.engine.lacitta.words import say
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, and_list, join, seat as seat_name, semi_list

INF = 10 ** 6
_GOLD = Order("gold")
_PASS = Order("pass")
_PEEK2 = Order("citizens", n=2)
_PEEK3 = Order("citizens", n=3)
_mk = tuple.__new__
_WATER = D.NEEDS_WATER
_CARD_COST = D.CARD_COST
_MASTER = {k: D.MASTER_COST[D.BUILDINGS[k][0]] for k in D.BUILDABLE}
_WANT = {"master": "master builder", "bread": "bread and games", "golden": "golden age",
         "harvest": "rich harvest", "citizens": "citizens"}
# orders made once per site (the listing reuses them)
_BUILD_ORDERS = {x: tuple(Order("build", x, k) for k in ("farm", "quarry", "statue", "school"))
                 for x in ORDER}
_FOUNTAIN_ORDERS = {x: Order("build", x, "fountain") for x in ORDER}
_MARKET_ORDERS = {x: Order("build", x, "market") for x in ORDER}
_FOUND_ORDERS = {x: Order("found", x) for x in ORDER}
_CARD_ORDERS = {c: {x: Order("card", x, c) for x in ORDER} for c in _CARD_COST}
_MASTER_ORDERS = {k: {x: Order("master", x, k) for x in ORDER} for k in D.BUILDABLE}
_FOUND_FROM: dict[tuple[str, str], Order] = {}      # (site, giving castle) -> order, filled lazily
# hospital notables: e for education, the rest health (canonical order)
_HOSPITAL = {k: [("education",) * e + ("health",) * (k - e) for e in range(k + 1)] for k in (1, 2, 3)}


def _not_legal(a: Any) -> Msg:
    return Msg("{order} is not legal now.", order=say(a, quoted=True))


def _castle_text(seat: int, site: str, citizens: int, food: int, setup: bool,
                 giver: str | None = None) -> Msg:
    """The log line of a castle placed (setup) or a city founded (from ``giver``)."""
    if setup:
        if food:
            return Msg("{seat} places a castle at {site} with {n} citizens (+{food} food).",
                       seat=Seat(seat), site=site, n=citizens, food=food)
        return Msg("{seat} places a castle at {site} with {n} citizens.", seat=Seat(seat), site=site,
                   n=citizens)
    if giver is None:
        if food:
            return Msg("{seat} founds a city at {site} with {n} citizens (+{food} food).",
                       seat=Seat(seat), site=site, n=citizens, food=food)
        return Msg("{seat} founds a city at {site} with {n} citizens.", seat=Seat(seat), site=site,
                   n=citizens)
    if food:
        return Msg("{seat} founds a city at {site} with {n} citizens (+{food} food); one citizen came "
                   "from the castle at {castle}.", seat=Seat(seat), site=site, n=citizens, food=food,
                   castle=giver)
    return Msg("{seat} founds a city at {site} with {n} citizens; one citizen came from the castle at "
               "{castle}.", seat=Seat(seat), site=site, n=citizens, castle=giver)


def _paid(cost: int) -> Msg:
    """The tail of an event that cost gold: ``", paying 2 gold."`` (or ``"."``)."""
    return Msg(", paying {cost} gold.", cost=cost) if cost else Msg(".")


class City:
    """One city: identified by its castle's site; ``sites`` are its buildings
    (castle first); ``citizens`` all grey citizens in it (castle included)."""

    __slots__ = ("castle", "owner", "citizens", "sites")

    def __init__(self, castle: str, owner: int, citizens: int, sites: list[str]) -> None:
        self.castle = castle
        self.owner = owner
        self.citizens = citizens
        self.sites = sites

    def spare(self) -> int:
        """Citizens in the castle beyond the one that must stay there."""
        return self.citizens - len(self.sites)


class LaCittaState(State):
    def __init__(self, game, seats: int) -> None:
        self.game = game
        self.n = seats
        self._legal_cache: tuple | None = None
        self._by_owner: list | None = None
        # givers (None for any single giver) -> found orders; valid until the
        # castle sites (self.open) change
        self._found_cache: dict | None = None
        # castle -> frontier entry (see _front_entry); an entry goes when a
        # building is placed or removed within 2 sites of the city, the only
        # change that can alter what frontier() reads
        self._front: dict[str, tuple] = {}
        # castle -> sites within distance 3 of the city; goes when the city
        # gains or loses a building
        self._zone: dict[str, set] = {}

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game, seats: int, seed: int, setup: str) -> "LaCittaState":
        s = cls(game, seats)
        s.seed = seed
        s.setup = setup
        s.rng = rngs.for_seed(seed, seats)   # version 1 below 2**64, else the full-seed one
        s._step = 0
        s.year = 0
        s.round = 0
        s.turn = 0
        s.start = 0
        s.phase_name = "setup"
        s.cities: dict[str, City] = {}
        s.occ: dict[str, str] = {}          # site -> castle of its city
        s.kind: dict[str, str] = {}         # site -> building kind
        s.near: dict[str, int] = {}         # site -> buildings within distance 3
        s.open = set(USABLE[seats])          # usable sites with no building within distance 3
        s.touch: dict[str, dict] = {}        # site -> {castle: its buildings next to the site}
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
        deck = [c for c, k in D.POLITICAL_DECK.items() for _ in range(k)]
        s.rng.shuffle(deck)
        s.display = deck[:D.DISPLAY]
        s.deck = deck[D.DISPLAY:]
        s.discard: list[str] = []
        vdeck = [w for w, k in D.VOICE_DECK.items() for _ in range(k)]
        s.rng.shuffle(vdeck)
        s.voice_deck = vdeck
        s.voice: list[str] = []
        s.revealed = False
        s.peeked: list[list[int]] = [[] for _ in range(seats)]
        s.wishes: list[str] = []
        s.setup_order: list[int] = []
        s.mig_index = 0
        s.wish_choice: dict[str, str | None] = {}
        s.yearend: dict[int, dict] = {}
        events: list[Event] = []
        if setup == "beginner":
            layout = BEGINNER[seats]
            s.landscape = dict(layout["landscape"])
            s.terrain = terrain(s.landscape)
            for seat, castles in enumerate(layout["castles"]):
                for site in castles:
                    events += s._place_castle(seat, site, D.START_CITIZENS, setup=True)
            s.start = 0
            s.phase_name = "political"
            events += s._start_year(1)
        else:
            tiles = [c for c, k in TILES.items() for _ in range(k)]
            s.rng.shuffle(tiles)
            s.landscape = dict(zip(SLOTS, tiles))
            s.terrain = terrain(s.landscape)
            s.setup_order = D.castle_order(seats)
            s.turn = 0
            events.append(Event(Msg("Experienced setup: landscape shuffled; castles are placed by seats "
                                    "{order}: first castles counter-clockwise from seat 1, second "
                                    "castles back clockwise.",
                                    order=", ".join(str(p + 1) for p in s.setup_order)), kind="setup"))
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

    # -------------------------------------------------------------- helpers
    def usable(self, site: str) -> bool:
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

    def _occupy(self, site: str, city: City, kind: str) -> None:
        castle = city.castle
        self.occ[site] = castle
        self.kind[site] = kind
        touch = self.touch
        front = self._front
        pop = front.pop
        if front:
            t = touch.get(site)
            if t:
                for c in t:
                    pop(c, None)
        for j in NBR[site]:
            t = touch.get(j)
            if t is None:
                touch[j] = {castle: 1}
            else:
                if front:
                    for c in t:
                        pop(c, None)
                t[castle] = t.get(castle, 0) + 1
        pop(castle, None)
        self._zone.pop(castle, None)
        near = self.near
        opened = self.open
        for m in BALL3[site]:
            k = near.get(m, 0)
            if not k:
                # the castle sites change: so do the found orders
                opened.discard(m)
                self._found_cache = None
            near[m] = k + 1

    def _vacate(self, site: str) -> None:
        castle = self.occ.pop(site)
        del self.kind[site]
        touch = self.touch
        front = self._front
        pop = front.pop
        pop(castle, None)
        self._zone.pop(castle, None)
        if front:
            t = touch.get(site)
            if t:
                for c in t:
                    pop(c, None)
        for j in NBR[site]:
            t = touch[j]
            if front:
                for c in t:
                    pop(c, None)
            if t[castle] == 1:
                del t[castle]
            else:
                t[castle] -= 1
        near = self.near
        opened = self.open
        usable = self.n
        for m in BALL3[site]:
            k = near[m] - 1
            near[m] = k
            if not k and PLAYERS[m] <= usable:
                opened.add(m)
                self._found_cache = None

    def frontier(self, city: City) -> list[str]:
        """Free sites where ``city`` may build: next to one of its buildings,
        used at this player count, and not next to another city
        ("Rakennuksen sijoittaminen")."""
        return list(self._front_entry(city)[0])

    def _front_entry(self, city: City) -> tuple:
        """Cached ``(frontier, water sites of it, has a market, its
        farm/quarry/statue/school orders, fountain orders, market orders)``;
        callers must not change it."""
        e = self._front.get(city.castle)
        if e is not None:
            return e
        occ = self.occ
        touch = self.touch
        seen = set()
        out = []
        n = self.n
        for b in city.sites:
            for j in NBR[b]:
                if j in seen or j in occ:
                    continue
                seen.add(j)
                # next to this city only (touch[j] holds every city next to j)
                if PLAYERS[j] <= n and len(touch[j]) == 1:
                    out.append(j)
        out.sort(key=ORDER.__getitem__)
        water = self.terrain.water
        wet = [x for x in out if water[x]]
        kind_of = self.kind
        builds: list[Order] = []
        for x in out:
            builds += _BUILD_ORDERS[x]
        e = self._front[city.castle] = (
            out, wet, any(kind_of[x] == "market" for x in city.sites), builds,
            [_FOUNTAIN_ORDERS[x] for x in wet], [_MARKET_ORDERS[x] for x in out])
        return e

    def castle_sites(self) -> list[str]:
        """Free sites at least 3 free sites from every building
        ("Asettelusääntö", "Välimatkasääntö")."""
        return sorted(self.open, key=ORDER.__getitem__)

    def _roomiest_sites(self) -> list[str]:
        """Setup fallback when no site keeps 3 free sites to every castle
        (a crowded 5-player board): the free sites farthest from the
        nearest building (docs/rules/lacitta.md "Setup")."""
        from pbem.engine.lacitta.geometry import DIST
        free = [s for s in USABLE[self.n] if s not in self.occ
                and all(n not in self.occ for n in NBR[s])]
        if not free:
            return []
        best = {s: min(DIST[s][b] for b in self.occ) for s in free}
        top = max(best.values())
        return [s for s in free if best[s] == top]

    # --------------------------------------------------------------- legal
    def legal_actions(self, seat: int) -> list[Order]:
        cache = self._legal_cache
        if cache is not None and cache[0] == self._step and cache[1] == seat:
            return list(cache[2])
        acts = self._legal(seat)
        self._legal_cache = (self._step, seat, acts, None)
        return list(acts)

    def _legal_set(self, seat: int) -> set:
        self.legal_actions(seat)
        cache = self._legal_cache
        if cache[3] is None:
            cache = self._legal_cache = (cache[0], cache[1], cache[2], set(cache[2]))
        return cache[3]

    def _legal(self, seat: int) -> list[Order]:
        if seat not in self.current_seats():
            return []
        ph = self.phase_name
        if ph == "setup":
            sites = self.castle_sites() or self._roomiest_sites()
            return [Order("castle", s) for s in sites]
        if ph == "political":
            acts = self._political(seat)
            return acts or [_PASS]
        if ph == "migration":
            return [Order("wish", c, w) for c in sorted(self.wish_choice, key=ORDER.__getitem__)
                    if self.wish_choice[c] is None for w in self.wishes]
        if ph == "yearend":
            ye = self.yearend[seat]
            if ye["stage"] == "starve":
                k = ye["excess"]
                return [_mk(Order, ("starve", c.castle, "", 0, ((c.castle, m),)))
                        for c in self.cities_of(seat) for m in range(1, min(k, c.citizens) + 1)]
            return [demolish(b) for c in self.cities_of(seat) if len(c.sites) > c.citizens
                    for b in self.removable(c)]
        return []

    def is_legal(self, seat: int, action: Order) -> bool:
        """Whether ``action`` is in :meth:`legal_actions` (without listing
        every order when only one kind of order needs checking)."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self._step and cache[1] == seat:
            acts = cache[2]
            for x in acts:
                if x is action:
                    return True
            return action in acts
        if self.phase_name == "political" and seat in self.current_seats():
            acts = self._political(seat, only=action.verb, what=action.what)
            return action in acts or (action.verb == "pass" and not self._political(seat))
        return action in self._legal(seat)

    def _political(self, p: int, only: str | None = None, what: str = "") -> list[Order]:
        """Legal political-round orders of ``p``; ``only``/``what`` limit the
        listing to one verb (and building or card) for a quick check.

        Hot path of random play: each city's frontier, its water sites and
        its small-building orders are cached (``_front_entry``), gathered
        into three lists (any building / water building / market); card and
        master builder orders are made once per site."""
        acts: list[Order] = []
        add = acts.append
        mk = _mk
        mine = self.cities_of(p)
        gold = self.gold[p]
        kind_of = self.kind
        spare_sites: list[str] = []      # frontier of cities with a spare citizen
        water_sites: list[str] = []      # the water sites of those
        market_sites: list[str] = []     # frontier of cities without a market
        spare: list[tuple] = []          # frontier entries behind spare_sites
        no_market: list[tuple] = []      # frontier entries behind market_sites
        fronts = self._front
        for c in mine:
            e = fronts.get(c.castle) or self._front_entry(c)
            if c.citizens > len(c.sites):
                spare.append(e)
                spare_sites += e[0]
                water_sites += e[1]
            if not e[2]:
                no_market.append(e)
                market_sites += e[0]
        used = self.used
        supply = D.SUPPLY
        pile = D.PILE

        def builds(kind: str) -> list[str]:
            pl = pile[kind]
            if used[pl] >= supply[pl]:
                return []
            if kind == "market":
                return market_sites
            return water_sites if kind in _WATER else spare_sites

        if self.actions[p] > 0 and only in (None, "gold", "build", "found"):
            if only in (None, "gold"):
                add(_GOLD)
            if only is None and all(used[pile[k]] < supply[pile[k]] for k in D.SMALL):
                # fast path: the small-building orders of each site are made once
                for e in spare:
                    acts += e[3]
                for e in spare:
                    acts += e[4]
                for e in no_market:
                    acts += e[5]
            elif only in (None, "build"):
                for kind in D.SMALL:
                    if only and kind != what:
                        continue
                    for x in builds(kind):
                        add(mk(Order, ("build", x, kind, 0, ())))
            if only in (None, "found") and not self.founded[p] and self.castles_left(p) > 0:
                givers = tuple(c.castle for c in mine if c.citizens > len(c.sites))
                if givers:
                    fc = self._found_cache
                    if fc is None:
                        fc = self._found_cache = {}
                    key = givers if len(givers) > 1 else None
                    found = fc.get(key)
                    if found is None:
                        sites = self.castle_sites()
                        if len(givers) == 1:
                            found = [_FOUND_ORDERS[x] for x in sites]
                        else:
                            found = []
                            for x in sites:
                                for g in givers:
                                    o = _FOUND_FROM.get((x, g))
                                    if o is None:
                                        o = _FOUND_FROM[(x, g)] = mk(Order, ("found", x, "", 0, (g,)))
                                    found.append(o)
                        fc[key] = found
                    acts += found
        want = _WANT.get(only or "", what if only == "card" else None)
        if only is not None and want is None:
            return acts
        seen = set()
        for card in self.display:
            if card in seen or (want is not None and card != want):
                continue
            seen.add(card)
            if card in _CARD_COST:
                if gold >= _CARD_COST[card]:
                    acts += map(_CARD_ORDERS[card].__getitem__, builds(card))
            elif card == "master builder":
                for kind in D.BUILDABLE:
                    if only and kind != what:
                        continue
                    if gold >= _MASTER[kind]:
                        acts += map(_MASTER_ORDERS[kind].__getitem__, builds(kind))
            elif card == "bread and games":
                free = self.notables_free(p)
                top = min(3, free)
                while top and gold < D.NOTABLE_COST[top]:
                    top -= 1
                if not top:
                    continue
                for c in mine:
                    for x in sorted(c.sites, key=ORDER.__getitem__):
                        arch = D.ARCHES[kind_of[x]]
                        if not arch:
                            continue
                        for k in range(1, top + 1):
                            if len(arch) == 1:
                                add(mk(Order, ("bread", x, "", k, ())))
                            else:
                                for extra in _HOSPITAL[k]:
                                    add(mk(Order, ("bread", x, "", k, extra)))
            elif card == "golden age":
                for c in mine:
                    room = self.capacity(c) - c.citizens
                    for k in range(1, min(3, room) + 1):
                        if gold < D.NOTABLE_COST[k]:
                            break
                        add(mk(Order, ("golden", c.castle, "", k, ())))
            elif card == "rich harvest":
                if self.year < D.YEARS and self.notables_free(p) > 0:
                    food = self.terrain.food
                    for c in mine:
                        for x in sorted(c.sites, key=ORDER.__getitem__):
                            if kind_of[x] == "farm" and x not in self.harvest and food[x] > 0:
                                add(mk(Order, ("harvest", x, "", 0, ())))
            elif card == "citizens":
                add(_PEEK2)
                if gold >= D.PEEK_COST[3]:
                    add(_PEEK3)
        return acts

    def removable(self, city: City) -> list[str]:
        """Buildings of ``city`` whose loss keeps the castle and the rest one
        connected city (RULINGS.md "Demolition"); never the castle."""
        sites = set(city.sites)
        out = []
        for b in city.sites[1:]:
            if _connected(city.castle, sites - {b}):
                out.append(b)
        out.sort(key=ORDER.__getitem__)
        return out

    # --------------------------------------------------------------- apply
    def apply(self, seat: int, action: Order) -> list[Event]:
        events = self._apply_order(seat, action)
        self.last_sites = changed_sites(events)
        return events

    def _apply_order(self, seat: int, action: Order) -> list[Event]:
        if seat not in self.current_seats():
            raise NotYourTurnError(Msg("{seat} owes no order now ({phase}).", seat=Seat(seat),
                                       phase=self.phase()), text=action.to_text())
        if not isinstance(action, Order):
            raise IllegalOrderError(Msg("Not a La Città order."), text=str(action))
        ph = self.phase_name
        multi = action.verb in ("demolish", "starve") and len(action.extra) > 1
        allowed_default = ph == "political" and action.verb == "pass"
        if multi:
            self.check_multi(seat, action)
        elif not allowed_default and not self.is_legal(seat, action):
            raise IllegalOrderError(_not_legal(action), text=action.to_text(),
                                    legal=[a.to_text() for a in self.legal_actions(seat)[:12]])
        self._step += 1
        self._legal_cache = None
        if multi:
            events = []
            for part in action.extra:
                if action.verb == "demolish":
                    events += self._demolish(seat, part)
                else:
                    events += self._starve(seat, *part)
            return events + self._yearend_progress(seat) + self._maybe_end_year()
        return self._apply(seat, action)

    def check_multi(self, seat: int, action: Order) -> None:
        """Validate a multi-part order as a whole (raises
        :class:`IllegalOrderError` saying what is wrong).

        ``demolish F7 G7``: own buildings (never a castle) of cities that
        must lose buildings now, no more per city than it must lose, and each
        city stays connected to its castle.  ``starve C3 2, K9 1``: own
        cities, no more citizens than a city has, and exactly the famine
        excess in total."""
        text = action.to_text()
        ye = self.yearend.get(seat) if self.phase_name == "yearend" else None
        if ye is None:
            raise IllegalOrderError(Msg("'{verb}' orders come at the end of the year; now: {phase}.",
                                        verb=action.verb, phase=self.phase()), text=text)
        if action.verb == "demolish":
            if ye["stage"] == "starve":
                raise IllegalOrderError(Msg("{n} citizens must leave for lack of food first "
                                            "(starve E3 1).", n=ye["excess"]), text=text)
            if len(set(action.extra)) != len(action.extra):
                raise IllegalOrderError(Msg("A site is named twice."), text=text)
            per: dict[str, set] = {}
            for part in action.extra:
                c = self.city_of(part)
                if c is None or c.owner != seat:
                    raise IllegalOrderError(Msg("{site} is not one of your buildings.", site=part),
                                            text=text)
                if part == c.castle:
                    raise IllegalOrderError(Msg("The castle at {castle} goes only with the city's "
                                                "last citizen.", castle=part), text=text)
                per.setdefault(c.castle, set()).add(part)
            for castle, gone in per.items():
                c = self.cities[castle]
                need = len(c.sites) - c.citizens
                if len(gone) > need:
                    raise IllegalOrderError(Msgn(
                        "The city at {castle} must lose {n} building, not {named}.",
                        "The city at {castle} must lose {n} buildings, not {named}.",
                        max(need, 0), castle=castle, named=len(gone)), text=text)
                if not _connected(castle, set(c.sites) - gone):
                    raise IllegalOrderError(Msg(
                        "Demolishing {sites} would cut the city at {castle} in two; the rest must "
                        "stay connected to the castle.",
                        sites=" ".join(sorted(gone, key=ORDER.__getitem__)), castle=castle), text=text)
            return
        if ye["stage"] != "starve":
            raise IllegalOrderError(Msg("None of your citizens must leave for lack of food."), text=text)
        per_n: dict[str, int] = {}
        for castle, k in action.extra:
            c = self.cities.get(castle)
            if c is None or c.owner != seat:
                raise IllegalOrderError(Msg("{castle} is not one of your cities.", castle=castle),
                                        text=text)
            per_n[castle] = per_n.get(castle, 0) + k
            if per_n[castle] > c.citizens:
                raise IllegalOrderError(Msg("The city at {castle} has only {n} citizens.",
                                            castle=castle, n=c.citizens), text=text)
        total = sum(per_n.values())
        if total != ye["excess"]:
            raise IllegalOrderError(Msg("Exactly {n} citizens must leave; the order names {named}.",
                                        n=ye["excess"], named=total), text=text)

    def _apply(self, seat: int, a: Order) -> list[Event]:
        v = a.verb
        if v == "castle":
            ev = self._place_castle(seat, a.site, D.START_CITIZENS, setup=True)
            self.turn += 1
            if self.turn >= len(self.setup_order):
                last = self.setup_order[-1]
                self.start = (last + 1) % self.n
                ev.append(Event(Msg("Setup complete; {seat} is the start player.",
                                    seat=seat_name(self.start)),
                                kind="setup"))
                self.phase_name = "political"
                ev += self._start_year(1)
            return ev
        if self.phase_name == "political":
            ev = self._political_apply(seat, a)
            return ev + self._next_turn()
        if v == "wish":
            self.wish_choice[a.site] = a.what
            ev = [Event(Msg("{seat} chooses {wish} for the city at {castle}.", seat=Seat(seat),
                            wish=WISH[a.what], castle=a.site), kind="wish",
                        data={"seat": seat, "city": a.site, "wish": a.what})]
            if all(w is not None for w in self.wish_choice.values()):
                ev += self._migrate_seat(self.order()[self.mig_index])
                self.mig_index += 1
                ev += self._migration()
            return ev
        if v == "demolish":
            ev = self._demolish(seat, a.site)
            return ev + self._yearend_progress(seat) + self._maybe_end_year()
        if v == "starve":
            castle, k = a.extra[0]
            ev = self._starve(seat, castle, k)
            return ev + self._yearend_progress(seat) + self._maybe_end_year()
        raise IllegalOrderError(_not_legal(a), text=a.to_text())

    # ------------------------------------------------------------ building
    def _place_castle(self, seat: int, site: str, citizens: int, setup: bool) -> list[Event]:
        city = City(site, seat, citizens, [site])
        self.cities[site] = city
        self._by_owner = None
        self._occupy(site, city, "castle")
        self.bank -= citizens
        food = self.terrain.food[site]
        self.food[seat] += food
        return [Event(_castle_text(seat, site, citizens, food, setup), kind="castle" if setup else "found",
                      data={"seat": seat, "site": site, "food": food})]

    def _build(self, seat: int, site: str, kind: str, cost: int, how: str) -> list[Event]:
        city = self._city_for_site(seat, site)
        self.gold[seat] -= cost
        self.used[D.PILE[kind]] += 1
        city.sites.append(site)
        self._occupy(site, city, kind)
        extra: Msg | str = ""
        if kind == "market":
            city.citizens += 1           # the market's citizen comes from the bank
            self.bank -= 1
        if kind == "farm":
            f = self.terrain.food[site]
            self.food[seat] += f
            extra = Msg(" (+{food} food)", food=f) if f else Msg(" (no food: no field next to it)")
        paid = Msg(", paying {cost} gold", cost=cost) if cost else ""
        return [Event(Msg("{seat} builds a {building} at {site} for the city at {castle}{extra}{paid} "
                          "({how}).", seat=Seat(seat), building=BUILDING[kind], site=site,
                          castle=city.castle, extra=extra, paid=paid, how=how), kind="build",
                      data={"seat": seat, "site": site, "building": kind, "city": city.castle,
                            "cost": cost})]

    def _city_for_site(self, seat: int, site: str) -> City:
        for k in NBR[site]:
            c = self.occ.get(k)
            if c is not None and self.cities[c].owner == seat:
                return self.cities[c]
        raise IllegalOrderError(Msg("{site} is not next to any of your cities.", site=site))

    # ------------------------------------------------------------- politics
    def _take_card(self, card: str) -> None:
        i = self.display.index(card)
        top = self._draw()
        if top is None:
            del self.display[i]
        else:
            self.display[i] = top

    def _draw(self) -> str | None:
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
        return self.deck.pop(0) if self.deck else None

    def _political_apply(self, p: int, a: Order, forced: bool = False) -> list[Event]:
        v = a.verb
        S = Seat(p)
        if v == "pass":
            card = self._draw()
            if card is not None:
                self.played[p].append(card)
            if forced:
                text = Msg("{seat} has no other order and passes: the top political card goes face "
                           "down unplayed.", seat=S)
            else:
                text = Msg("{seat} passes: the top political card goes face down unplayed.", seat=S)
            return [Event(text,
                          kind="pass", data={"seat": p, "forced": forced})]
        if forced:
            ev = self._political_apply(p, a)
            return [Event(Msg("{seat} has only one legal order: {order}.", seat=S, order=say(a)),
                          kind="forced",
                          data={"seat": p, "order": a.to_text()}), *ev]
        if v in ("gold", "build", "found"):
            self.actions[p] -= 1
            if v == "gold":
                self.gold[p] += 2
                return [Event(Msg("{seat} plays an action card and takes 2 gold (now {gold}).", seat=S,
                                  gold=self.gold[p]),
                              kind="gold", data={"seat": p})]
            if v == "build":
                return self._build(p, a.site, a.what, 0, Msg("action card"))
            giver = self.cities[a.extra[0]] if a.extra else next(c for c in self.cities_of(p) if c.spare() >= 1)
            giver.citizens -= 1
            self.bank += 1                     # the spare citizen moves (counted via the bank)
            self.founded[p] = True
            ev = self._place_castle(p, a.site, 3, setup=False)
            text = _castle_text(p, a.site, 3, ev[0].data["food"], False, giver.castle)
            return [Event(text, kind="found", data=dict(ev[0].data, source=giver.castle))]
        card = {"card": a.what, "master": "master builder", "bread": "bread and games",
                "golden": "golden age", "harvest": "rich harvest", "citizens": "citizens"}[v]
        self._take_card(card)
        self.played[p].append(card)
        title = CARD[card]
        if v == "card":
            return self._build(p, a.site, a.what, D.CARD_COST[a.what], title)
        if v == "master":
            return self._build(p, a.site, a.what, D.MASTER_COST[D.BUILDINGS[a.what][0]], title)
        if v == "bread":
            cost = D.NOTABLE_COST[a.n]
            self.gold[p] -= cost
            kind = self.kind[a.site]
            wishes = a.extra or tuple(D.ARCHES[kind]) * a.n
            for w in wishes:
                self.notables.append([a.site, p, w])
            counts = Counter(wishes)
            what = and_list([Msg("{n} {wish}", n=n, wish=WISH[w]) for w, n in sorted(counts.items())])
            return [Event(Msgn("{seat} plays {card}: {n} notable on the {building} at {site} "
                               "({wishes}){paid}",
                               "{seat} plays {card}: {n} notables on the {building} at {site} "
                               "({wishes}){paid}", a.n, seat=S, card=title, building=BUILDING[kind],
                               site=a.site, wishes=what, paid=_paid(cost)),
                          kind="bread", data={"seat": p, "site": a.site, "wishes": list(wishes)})]
        if v == "golden":
            cost = D.NOTABLE_COST[a.n]
            self.gold[p] -= cost
            city = self.cities[a.site]
            city.citizens += a.n
            self.bank -= a.n
            return [Event(Msgn("{seat} plays {card}: {n} citizen into the city at {castle} (now "
                               "{citizens}){paid}",
                               "{seat} plays {card}: {n} citizens into the city at {castle} (now "
                               "{citizens}){paid}", a.n, seat=S, card=title, castle=a.site,
                               citizens=city.citizens, paid=_paid(cost)),
                          kind="golden", data={"seat": p, "city": a.site, "n": a.n})]
        if v == "harvest":
            self.harvest.append(a.site)
            return [Event(Msg("{seat} plays {card} on the farm at {site} (+{food} food at this year's "
                              "feeding).", seat=S, card=title, site=a.site,
                              food=self.terrain.food[a.site]), kind="harvest", data={"seat": p, "site": a.site})]
        if v == "citizens":
            cost = D.PEEK_COST[a.n]
            self.gold[p] -= cost
            if a.n == 3:
                positions = [1, 2, 3]
            else:
                # the two hidden cards this seat has not seen yet, lowest first
                # (which two is otherwise a blind choice; a second Bürgernähe
                # in one year thus shows the third card)
                unseen = [i for i in (1, 2, 3) if i not in self.peeked[p]]
                positions = sorted((unseen + [i for i in (1, 2, 3) if i not in unseen])[:2])
            for i in positions:
                if i not in self.peeked[p]:
                    self.peeked[p].append(i)
            self.peeked[p].sort()
            seen = join([Msg("card {n}: {wish}", n=i + 1, wish=WISH[self.voice[i]]) for i in positions])
            return [Event(Msg("{seat} plays {card} and looks at {n} hidden Voice of the People "
                              "cards{paid}", seat=S, card=title, n=a.n, paid=_paid(cost)),
                          kind="citizens", data={"seat": p, "n": a.n}),
                    Event(Msg("You see the Voice of the People: {cards}.", cards=seen), seat=p,
                          kind="peek",
                          data={"cards": {str(i + 1): self.voice[i] for i in positions}})]
        raise IllegalOrderError(_not_legal(a))

    def _next_turn(self) -> list[Event]:
        ev: list[Event] = []
        while True:
            self.turn += 1
            if self.turn >= self.n:
                self.turn = 0
                self.round += 1
                if self.round > D.ROUNDS:
                    return ev + self._end_politics()
            p = (self.start + self.turn) % self.n
            if self.round == 1 and self.famine_next[p]:
                ev += self._famine_skip(p)
                continue
            only = self._only_order(p)
            if only is not None:
                ev += self._political_apply(p, only, forced=True)
                continue
            return ev

    def _only_order(self, p: int) -> Order | None:
        """``p``'s order when it has exactly one legal order (then it is not
        asked: RULINGS.md "A choice with only one legal outcome is never
        asked"); else None, and the listing is kept as this step's legal
        actions."""
        acts = self._political(p)
        if not acts:
            return _PASS
        if len(acts) == 1:
            return acts[0]
        self._legal_cache = (self._step, p, acts, None)
        return None

    def _famine_skip(self, p: int) -> list[Event]:
        """Rangaistus nälän takia: the first political round is lost; one
        action card is turned face down unplayed."""
        self.famine_next[p] = False
        self.actions[p] -= 1
        return [Event(Msg("{seat} loses the first political round (famine last year): one action "
                          "card is turned face down.", seat=Seat(p)), kind="famine_round", data={"seat": p})]

    # ------------------------------------------------------------ the year
    def _start_year(self, year: int) -> list[Event]:
        """Phases 1–4 of a year, then the first political turn."""
        self.year = year
        if year > 1:
            self.start = (self.start + 1) % self.n
        ev = [Event(Msg("Year {year} begins; {seat} is the start player.", year=year,
                        seat=seat_name(self.start)), kind="year",
                    data={"year": year, "start": self.start})]
        self.voice = self.voice_deck[:D.VOICE_CARDS]
        del self.voice_deck[:D.VOICE_CARDS]
        self.revealed = False
        ev.append(Event(Msg("Voice of the People: the face-up card is {wish}; three cards lie "
                            "face down.", wish=WISH[self.voice[0]]), kind="voice", data={"first": self.voice[0]}))
        for p in self.order():
            income = sum(self.terrain.mountains[s] for c in self.cities_of(p) for s in c.sites
                         if self.kind[s] == "quarry")
            if income:
                self.gold[p] += income
                ev.append(Event(Msg("{seat} receives {income} gold from quarries (now {gold}).",
                                    seat=Seat(p), income=income, gold=self.gold[p]),
                                kind="income", data={"seat": p, "gold": income}))
        for p in self.order():
            grown = []
            for c in self.cities_of(p):
                if c.citizens < self.capacity(c):
                    c.citizens += 1
                    self.bank -= 1
                    grown.append(c.castle)
            if grown:
                ev.append(Event(Msgn("Growth: {seat} gains a citizen in the city at {castles}.",
                                     "Growth: {seat} gains a citizen in the cities at {castles}.",
                                     len(grown), seat=seat_name(p), castles=join(grown)),
                                kind="growth", data={"seat": p, "cities": grown}))
        self.phase_name = "political"
        self.round = 1
        self.turn = 0
        p = self.start
        if self.famine_next[p]:
            ev += self._famine_skip(p)
            ev += self._next_turn()
        else:
            only = self._only_order(p)
            if only is not None:
                ev += self._political_apply(p, only, forced=True)
                ev += self._next_turn()
        return ev

    def _end_politics(self) -> list[Event]:
        """Phase 6: reveal the Voice of the People."""
        self.revealed = True
        counts = Counter(self.voice)
        top = counts.most_common()
        if top[0][1] >= 3:
            wishes = [top[0][0]]
        elif len(top) == 2:              # two pairs
            wishes = [w for w in D.WISHES if w in counts]
        else:
            wishes = [top[0][0]]
        self.wishes = wishes
        ev = [Event(Msg("The Voice of the People: {cards} — the people wish for {wishes}.",
                        cards=join([WISH[w] for w in self.voice]),
                        wishes=and_list([WISH[w] for w in wishes])), kind="reveal", data={"cards": list(self.voice),
                                                                   "wishes": wishes})]
        self.phase_name = "migration"
        self.mig_index = 0
        self.wish_choice = {}
        return ev + self._migration()

    def neighbours(self, city: City) -> list[City]:
        """Cities of other players with 1 or 2 sites between their closest
        buildings and ``city``'s (distance at most 3)."""
        zone = self._zone.get(city.castle)
        if zone is None:
            zone = self._zone[city.castle] = set()
            for a in city.sites:
                zone.update(BALL3[a])
        out = [o for o in self.cities.values()
               if o.owner != city.owner and not zone.isdisjoint(o.sites)]
        out.sort(key=lambda c: ORDER[c.castle])
        return out

    def _migration(self) -> list[Event]:
        """Phase 7, seat by seat from the start player; asks a wish per city
        only in a two-wish year and only where the two wishes differ."""
        ev: list[Event] = []
        while self.mig_index < self.n:
            p = self.order()[self.mig_index]
            if len(self.wishes) == 2 and not self.wish_choice:
                choice = migration.wish_questions(self, p)
                if any(w is None for w in choice.values()):
                    self.wish_choice = choice
                    return ev
            ev += self._migrate_seat(p)
            self.mig_index += 1
        return ev + self._begin_yearend()

    def _migrate_seat(self, p: int) -> list[Event]:
        """Apply seat ``p``'s migration as :func:`migration.plan` lays it out."""
        ev = []
        for d in migration.plan(self, p, self.wish_choice):
            c, o = self.cities[d.target], self.cities[d.source]
            o.citizens -= 1
            if d.arrived:
                c.citizens += 1
                tail = Msg(".")
            else:
                self.bank += 1
                # name the full city: "that city" read as the city drawn from (issue 29)
                tail = Msg(", but the city at {castle} is full: the citizen goes back to the bank.",
                           castle=c.castle)
            ev.append(Event(Msg("Migration ({wish} {arches} against {other}): {seat}'s city at "
                                "{castle} draws a citizen from {from_seat}'s city at {from_castle}"
                                "{tail}", wish=WISH[d.wish], arches=self.arches(c, d.wish),
                                other=self.arches(o, d.wish), seat=seat_name(p), castle=c.castle,
                                from_seat=seat_name(o.owner), from_castle=o.castle, tail=tail),
                            kind="migration",
                            data={"from": o.castle, "to": c.castle, "wish": d.wish,
                                  "arrived": d.arrived}))
        self.wish_choice = {}
        return ev

    # ----------------------------------------------------------- year end
    def _begin_yearend(self) -> list[Event]:
        self.phase_name = "yearend"
        self.yearend = {}
        ev: list[Event] = []
        for p in self.order():
            self.yearend[p] = {"stage": "demolish1", "excess": 0}
        for p in self.order():
            ev += self._yearend_progress(p)
        return ev + self._maybe_end_year()

    def _maybe_end_year(self) -> list[Event]:
        return self._end_year() if self.phase_name == "yearend" and not self.yearend else []

    def _yearend_progress(self, p: int) -> list[Event]:
        """Advance seat ``p`` through demolition → feeding → demolition,
        taking every forced choice; stops at a real choice."""
        ev: list[Event] = []
        ye = self.yearend.get(p)
        while ye is not None:
            st = ye["stage"]
            if st in ("demolish1", "demolish2"):
                ev += self._auto_demolish(p)
                if any(len(c.sites) > c.citizens for c in self.cities_of(p)):
                    return ev
                if st == "demolish1":
                    ev += self._feed(p)
                    ye["stage"] = "starve"
                else:
                    del self.yearend[p]
                    ye = None
            elif st == "starve":
                k = ye["excess"]
                with_people = [c for c in self.cities_of(p) if c.citizens > 0]
                if k > 0 and (len(with_people) == 1 or k >= sum(c.citizens for c in with_people)):
                    for c in with_people:            # forced: one city, or everyone leaves
                        if k > 0:
                            take = min(k, c.citizens)
                            ev += self._starve(p, c.castle, take)
                            k -= take
                    k = 0
                if k > 0:
                    return ev
                ye["stage"] = "demolish2"
        return ev

    def _feed(self, p: int) -> list[Event]:
        """Phase 8: citizens beyond food tokens (plus Reiche Ernte) starve."""
        people = self.citizens(p)
        food = self.food[p] + self.harvest_bonus(p)
        excess = max(0, people - food)
        self.yearend[p]["excess"] = excess
        if excess:
            self.famine_now[p] = True
            if self.year >= D.YEARS:
                self.famine6[p] = True
            else:
                self.famine_next[p] = True
            if self.year >= D.YEARS:
                text = Msg("Famine: {seat} has {citizens} citizens and {food} food; {n} must leave "
                           "(−5 points).", seat=Seat(p), citizens=people, food=food, n=excess)
            else:
                text = Msg("Famine: {seat} has {citizens} citizens and {food} food; {n} must leave and "
                           "the first political round of next year is lost.", seat=Seat(p),
                           citizens=people, food=food, n=excess)
            return [Event(text,
                          kind="famine", data={"seat": p, "citizens": people, "food": food,
                                                "excess": excess})]
        return []

    def _starve(self, p: int, castle: str, k: int) -> list[Event]:
        city = self.cities[castle]
        k = min(k, city.citizens)
        city.citizens -= k
        self.bank += k
        self.yearend[p]["excess"] -= k
        return [Event(Msgn("{seat}: {n} citizen leaves the city at {castle} for lack of food.",
                           "{seat}: {n} citizens leave the city at {castle} for lack of food.", k,
                           seat=Seat(p), castle=castle), kind="starve", data={"seat": p, "city": castle, "n": k})]

    def _auto_demolish(self, p: int) -> list[Event]:
        """Take every demolition whose outcome is forced."""
        ev: list[Event] = []
        for c in self.cities_of(p):
            while len(c.sites) > c.citizens:
                if c.citizens <= 0:
                    ev += self._lose_city(c)
                    break
                if not self.demolition_forced(c):
                    break
                opts = self.removable(c)
                ev += self._demolish(p, opts[0])
        return ev

    def demolition_forced(self, city: City) -> bool:
        """True when every way of demolishing the surplus buildings of
        ``city`` leaves the same buildings standing."""
        need = len(city.sites) - city.citizens
        if need <= 0:
            return True
        if need >= len(city.sites) - 1:
            return True
        finals: set = set()
        seen: set = set()
        budget = [3000]

        def walk(sites: frozenset, k: int) -> bool:
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            if k == 0:
                finals.add(sites)
                return len(finals) <= 1
            if sites in seen:
                return True
            seen.add(sites)
            for b in sorted(sites, key=ORDER.__getitem__):   # deterministic budget use
                if b != city.castle and _connected(city.castle, sites - {b}):
                    if not walk(sites - {b}, k - 1):
                        return False
            return True

        ok = walk(frozenset(city.sites), need)
        return ok and budget[0] > 0 and len(finals) == 1

    def _demolish(self, p: int, site: str) -> list[Event]:
        city = self.cities[self.occ[site]]
        kind = self.kind[site]
        city.sites.remove(site)
        self._vacate(site)
        self.used[D.PILE[kind]] -= 1
        extra: Msg | str = ""
        if kind == "farm":
            f = self.terrain.food[site]
            self.food[p] -= f
            if f:
                extra = Msg(" (−{food} food)", food=f)
            if site in self.harvest:
                self.harvest.remove(site)
        self.notables = [n for n in self.notables if n[0] != site]
        return [Event(Msg("{seat} demolishes the {building} at {site} in the city at {castle}{extra}.",
                          seat=Seat(p), building=BUILDING[kind], site=site, castle=city.castle,
                          extra=extra),
                      kind="demolish", data={"seat": p, "site": site, "building": kind,
                                             "city": city.castle})]

    def _lose_city(self, city: City) -> list[Event]:
        p = city.owner
        ev = []
        for s in list(city.sites[1:]):
            ev += self._demolish(p, s)
        f = self.terrain.food[city.castle]
        self.food[p] -= f
        self._vacate(city.castle)
        del self.cities[city.castle]
        self._by_owner = None
        if f:
            text = Msg("{seat} loses the city at {castle}: the castle goes back to its owner "
                       "(−{food} food).", seat=Seat(p), castle=city.castle, food=f)
        else:
            text = Msg("{seat} loses the city at {castle}: the castle goes back to its owner.",
                       seat=Seat(p), castle=city.castle)
        ev.append(Event(text, kind="lose_city",
                        data={"seat": p, "city": city.castle}))
        return ev

    def _end_year(self) -> list[Event]:
        """Pelivuoden loppuminen: discard cards, return notables, reset."""
        self.discard += [c for p in range(self.n) for c in self.played[p]]
        self.played = [[] for _ in range(self.n)]
        self.voice = []
        self.wishes = []
        self.revealed = False
        self.peeked = [[] for _ in range(self.n)]
        self.notables = []
        self.harvest = []
        self.actions = [D.ACTION_CARDS] * self.n
        self.founded = [False] * self.n
        self.famine_now = [False] * self.n
        ev = [Event(Msg("End of year {year}.", year=self.year), kind="year_end", data={"year": self.year})]
        if self.year >= D.YEARS:
            self.phase_name = "over"
            sc = self.scores()
            ranking = semi_list([Msgn("{seat}: {n} point, {gold} gold (rank {rank})",
                                      "{seat}: {n} points, {gold} gold (rank {rank})", s.points,
                                      seat=Seat(s.seat), gold=s.tiebreak, rank=s.rank)
                                 for s in sorted(sc, key=lambda s: s.rank)])
            ev.append(Event(Msg("Game over. {ranking}.", ranking=ranking), kind="game_over",
                data={"scores": [{"seat": s.seat, "points": s.points, "gold": s.tiebreak,
                                  "rank": s.rank} for s in sc]}))
            return ev
        return ev + self._start_year(self.year + 1)

    # -------------------------------------------------------------- scores
    def scores(self) -> list[Score]:
        """1 point per citizen, 3 per complete city, −5 for famine in year 6;
        ties: more gold, then shared ("Loppupisteytys")."""
        rows = []
        for p in range(self.n):
            cit = self.citizens(p)
            comp = sum(1 for c in self.cities_of(p) if self.complete(c))
            pen = D.FAMINE_PENALTY if self.famine6[p] else 0
            pts = cit + D.COMPLETE_CITY_BONUS * comp - pen
            rows.append((p, pts, self.gold[p], {"citizens": cit, "complete_cities": comp,
                                                  "famine_penalty": -pen}))
        out = []
        for p, pts, gold, detail in rows:
            rank = 1 + sum(1 for q in rows if (q[1], q[2]) > (pts, gold))
            out.append(Score(p, pts, gold, rank, detail))
        return out

    # ------------------------------------------------------------- default
    def default_action(self, seat: int) -> Order:
        """Missed deadline (docs/rules/lacitta.md "Missed deadlines"):
        political round: pass; setup: the legal castle site with the most
        food (first in reading order); two-wish year: for each city the wish that takes the most
        citizens; demolition: cheapest buildings first; famine: citizens
        leave the cities with the most spare citizens first."""
        if seat not in self.current_seats():
            raise NotYourTurnError(Msg("{seat} owes no order now.", seat=Seat(seat)))
        ph = self.phase_name
        if ph == "political":
            return _PASS
        if ph == "setup":
            food = self.terrain.food
            return max(self.legal_actions(seat), key=lambda a: (food[a.site], -ORDER[a.site]))
        if ph == "migration":
            city = next(c for c in sorted(self.wish_choice, key=ORDER.__getitem__)
                        if self.wish_choice[c] is None)
            c = self.cities[city]
            best = max(self.wishes, key=lambda w: (len(migration.beaten(self, c, w)),
                                                    -self.wishes.index(w)))
            return Order("wish", city, best)
        ye = self.yearend[seat]
        if ye["stage"] == "starve":
            left = {c.castle: [c.citizens, len(c.sites)] for c in self.cities_of(seat)}
            merged: dict[str, int] = {}
            for _ in range(ye["excess"]):
                castle = max((k for k in left if left[k][0] > 0),
                             key=lambda k: (left[k][0] - left[k][1], left[k][0], -ORDER[k]))
                left[castle][0] -= 1
                merged[castle] = merged.get(castle, 0) + 1
            return starve(*merged.items())
        trial = self.copy()
        parts = []
        # only this demolition's buildings: the one after feeding (demolish2)
        # is a decision of its own, defaulted in its turn
        stage = ye["stage"]
        while seat in trial.yearend and trial.yearend[seat]["stage"] == stage:
            opts = trial.legal_actions(seat)
            if not opts:
                break
            best = min(opts, key=lambda o: trial._demolish_cost(o.site))
            parts.append(best.site)
            trial._step += 1
            trial._legal_cache = None
            trial._apply(seat, best)
        return demolish(*parts)

    def _demolish_cost(self, site: str) -> tuple:
        kind = self.kind[site]
        food = self.terrain.food[site] if kind == "farm" else 0
        arches = sum(D.ARCHES[kind].values())
        keep = 1 if kind in ("market", "fountain", "bathhouse") else 0
        return (food, keep, arches, -ORDER[site])

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
        s.cities = {}
        s.occ = {}
        s.kind = {}
        s.near = {}
        s.open = set(USABLE[s.n])
        s.touch = {}
        for c in d["cities"]:
            city = City(c["castle"], c["owner"], c["citizens"], [])
            s.cities[city.castle] = city
            for site, kind in c["buildings"]:
                city.sites.append(site)
                s._occupy(site, city, kind)
        s.bank = d["bank"]
        for k in ("gold", "food", "actions", "founded", "famine_next", "famine6", "famine_now",
                  "display", "deck", "discard", "voice_deck", "voice", "wishes", "setup_order",
                  "harvest"):
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
        return LaCittaState.from_dict(self.game, json.loads(self.to_json()))

    # ---------------------------------------------------------------- view
    def view(self, seat: int | None) -> dict[str, Any]:
        from pbem.engine.lacitta.view import make_view
        return make_view(self, seat)


def _connected(castle: str, sites: set | frozenset) -> bool:
    if castle not in sites:
        return False
    seen = {castle}
    todo = [castle]
    while todo:
        s = todo.pop()
        for n in NBR[s]:
            if n in sites and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(sites)
