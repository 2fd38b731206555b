"""One Medina position and every placement rule (medina.fi.txt, "Pelin kulku"
to "Pisteytys"; decisions in docs/rules/medina.md).

The board is kept as two flat arrays over the 176 squares: ``kind`` (empty,
palace piece, stable, merchant) and ``pal`` (the palace a piece or stable
belongs to, else -1), plus the 54 wall spaces (0 = empty, else the number of
the tower whose wall it extends). Medina has no chance: the seed is kept
only so every game has one (same seed + same log = same game).
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from pbem.engine.api import Event, IllegalOrderError, NotYourTurnError, Score, State
from pbem.engine.medina import board as B
from pbem.engine.medina.decision import decision, rules_section
from pbem.engine.medina.terms import COLOUR, a_palace, palace_at
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, join, seat as seat_name
from pbem.engine.medina.actions import PALACE_ACTIONS, SQUARE_ACTIONS, WALL_ACTIONS, Place
from pbem.engine.medina.pieces import (
    PALACE_COLOURS, PALACE_TILE_POINTS, SEAT_COLOURS, SUPPLY_KEYS, TOWER_TILE_POINTS,
    starting_supply,
)

EMPTY, PALACE, STABLE, MERCHANT = 0, 1, 2, 3
_TOWER_SPACES = tuple(w for w in range(B.WALLS) if B.WALL_NEXT_TOWER[w])
_SIDE_SIZE = tuple(count for _, _, count in B.SIDES)

sq = B.square_name


class Palace:
    """One palace: ``squares`` (palace pieces, in placement order),
    ``stables``, ``owner`` (seat or ``None``), ``dome`` (square or ``None``),
    ``complete``, and ``towers``: the towers a claimed palace is connected
    to, so that later growth is not a new connection."""

    __slots__ = ("id", "colour", "squares", "stables", "owner", "dome", "complete", "towers")

    def __init__(self, id: int, colour: str, squares: list[int] | None = None,
                 stables: list[int] | None = None, owner: int | None = None,
                 dome: int | None = None, complete: bool = False,
                 towers: Iterable[int] = ()):
        self.id = id
        self.colour = colour
        self.squares = list(squares or [])
        self.stables = list(stables or [])
        self.owner = owner
        self.dome = dome
        self.complete = complete
        self.towers = sorted(set(towers))

    @property
    def size(self) -> int:
        """Palace pieces plus stables: what decides the palace tile."""
        return len(self.squares) + len(self.stables)

    def where(self) -> Msg:
        """``"the orange palace at E5 E6"`` (a :class:`Msg`)."""
        return palace_at(self.colour, " ".join(sq(i) for i in sorted(self.squares)))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "colour": self.colour, "squares": self.squares,
                "stables": self.stables, "owner": self.owner, "dome": self.dome,
                "complete": self.complete, "towers": self.towers}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Palace":
        return cls(d["id"], d["colour"], d["squares"], d["stables"], d["owner"], d["dome"],
                   d["complete"], d["towers"])

    def clone(self) -> "Palace":
        return Palace(self.id, self.colour, self.squares, self.stables, self.owner,
                      self.dome, self.complete, self.towers)


#: the scoring rules ("Pisteytys") as :meth:`MedinaState.score_breakdown` rows
SCORE_ROWS = (("palaces", Msg("palace pieces")), ("stables", Msg("stables")), ("merchants", Msg("merchants")),
              ("walls", Msg("wall pieces")), ("palace_tiles", Msg("palace tiles")), ("tower_tiles", Msg("tower tiles")))


class MedinaState(State):
    """A Medina position. Build with :meth:`MedinaGame.new_state`,
    :meth:`from_json` or :func:`pbem.engine.medina.position.load_position`."""

    def __init__(self, game: Any, seats: int, seed: int):
        self.game = game
        self._seats = seats
        self.seed = seed
        self._step = 0
        self.turn_no = 0            # 0 during setup, then 1, 2, ...
        self.kind = [EMPTY] * B.SQUARES
        self.pal = [-1] * B.SQUARES
        self.walls = [0] * B.WALLS
        self.palaces: list[Palace] = []
        self.merchants: list[int] = []   # placement order
        self.supply = [starting_supply(seats) for _ in range(seats)]
        self.claimed: list[list[str]] = [[] for _ in range(seats)]
        self.palace_tiles: dict[str, int | None] = {c: None for c in PALACE_COLOURS}
        self.tower_tiles: dict[int, int | None] = {t: None for t in B.TOWERS}
        self.returned: list[str] = []
        self.setup = True           # seat 1 owes the start merchant
        self.seat = 0               # seat whose turn it is
        self.placed = 0             # pieces placed this turn
        self.lone = False           # only this seat has pieces: a dome every turn
        self.domed = False          # a dome was placed this turn
        self.over = False
        self.last_sites: list[str] = []   # sites placed in the latest turn (or setup)
        self._rebuild()

    # ------------------------------------------------------------ derived data
    def _rebuild(self) -> None:
        """Recompute the caches kept beside the board arrays."""
        self.mcount = [0] * B.SQUARES   # merchants orthogonally next to a square
        self.near = [0] * B.SQUARES     # palace pieces/stables in the 8 squares around
        for i in range(B.SQUARES):
            k = self.kind[i]
            if k == MERCHANT:
                for j in B.ORTH[i]:
                    self.mcount[j] += 1
            elif k in (PALACE, STABLE):
                for j in B.NEAR[i]:
                    self.near[j] += 1
        self._legal_cache: tuple[int, list[Place], set[Place]] | None = None

    # ------------------------------------------------------------------ API
    @property
    def seats(self) -> int:
        return self._seats

    @property
    def step(self) -> int:
        return self._step

    def current_seats(self) -> list[int]:
        return [] if self.over else [self.seat]

    def is_terminal(self) -> bool:
        return self.over

    def phase(self) -> Msg:
        """The phase in words (a :class:`Msg`): ``"Turn 3: seat 2, piece 1 of 2"``."""
        if self.over:
            return Msg("Game over")
        if self.setup:
            return Msg("Setup: seat 1 places the start merchant")
        if self.lone and not self.domed:
            return Msg("Turn {turn}: {seat}, piece {n} of 2, must place a dome", turn=self.turn_no,
                       seat=seat_name(self.seat), n=self.placed + 1)
        return Msg("Turn {turn}: {seat}, piece {n} of 2", turn=self.turn_no,
                   seat=seat_name(self.seat), n=self.placed + 1)

    def turn_key(self) -> int:
        """The turn number (0: the start merchant of setup): equal for both
        pieces of a turn, new for every turn, even when a seat that alone
        has pieces plays turn after turn."""
        return self.turn_no

    def legal_actions(self, seat: int) -> list[Place]:
        """Every legal placement of ``seat`` now, in the fixed order
        merchant, wall, stable, palace (grey, black, brown, orange), dome,
        each by site in reading order (A1, B1, ..., then W1..W54)."""
        if self.over or seat != self.seat:
            return []
        if self._legal_cache is not None and self._legal_cache[0] == self._step:
            return list(self._legal_cache[1])
        if self.setup:
            acts = [Place("merchant", sq(i)) for i in range(B.SQUARES)
                    if not B.EDGE[i] and self.kind[i] == EMPTY]
        else:
            acts = self._placements(seat)
            if self.lone and not self.domed:
                domes = [a for a in acts if a.kind == "dome"]
                if self.placed == 0:
                    acts = [a for a in acts if a.kind == "dome" or self._dome_after(seat, a)]
                else:
                    acts = domes
        self._legal_cache = (self._step, acts, set(acts))
        return list(acts)

    def default_action(self, seat: int) -> Place:
        """Missed deadline: the first legal placement in the order of
        :meth:`legal_actions` (merchant, wall, stable, palace, dome)."""
        acts = self.legal_actions(seat)
        if not acts:
            raise NotYourTurnError(Msg("{seat} owes no order now", seat=seat_name(seat)))
        return acts[0]

    def apply(self, seat: int, action: Place) -> list[Event]:
        if self.over:
            raise NotYourTurnError(Msg("the game is over"))
        if seat != self.seat:
            raise NotYourTurnError(Msg("it is {seat}'s turn, not {other}'s",
                                       seat=seat_name(self.seat), other=seat_name(seat)))
        self.legal_actions(seat)  # fills the cache
        if action not in self._legal_cache[2]:
            from pbem.engine.medina.explain import why_illegal
            raise IllegalOrderError(why_illegal(self, seat, action), text=action.to_text(),
                                    legal=[a.to_text() for a in self.legal_actions(seat)[:8]])
        events: list[Event] = []
        self._place(seat, action, events)
        self._step += 1
        self._after_placement(events)
        return events

    # ------------------------------------------------------------ placement
    def pieces_left(self, seat: int) -> int:
        """All pieces behind ``seat``'s screen plus its domes."""
        return sum(self.supply[seat].values())

    def unfinished(self, colour: str) -> Palace | None:
        """The palace of ``colour`` under construction, if any (at most one)."""
        for p in self.palaces:
            if p.colour == colour and not p.complete:
                return p
        return None

    def blocked(self, i: int, pid: int) -> bool:
        """True when square ``i`` touches (even diagonally) a palace piece or
        stable of a palace other than ``pid`` (the street rule)."""
        if not self.near[i]:
            return False
        kind, pal = self.kind, self.pal
        for j in B.NEAR[i]:
            if kind[j] in (PALACE, STABLE) and pal[j] != pid:
                return True
        return False

    def palace_squares(self, colour: str, _free: list[int] | None = None) -> list[int]:
        """Squares where a ``colour`` palace piece may go now (ignoring whose
        supply): next to the unfinished palace of that colour, or, when there
        is none, anywhere free of the street rule."""
        if colour in self.returned:
            return []
        u = self.unfinished(colour)
        kind = self.kind
        if u is None:
            if _free is not None:
                return _free
            near = self.near
            return [i for i in range(B.SQUARES) if kind[i] == EMPTY and not near[i]]
        out = set()
        for i in u.squares:
            for j in B.ORTH[i]:
                if kind[j] == EMPTY and j not in out and not self.blocked(j, u.id):
                    out.add(j)
        return sorted(out)

    def stable_squares(self) -> list[int]:
        """Empty squares orthogonally next to a palace piece of exactly one
        palace and touching no piece or stable of another palace."""
        kind, pal = self.kind, self.pal
        out = set()
        for p in self.palaces:
            for i in p.squares:
                for j in B.ORTH[i]:
                    if kind[j] == EMPTY and j not in out and not self.blocked(j, p.id):
                        out.add(j)
        return sorted(out)

    def merchant_squares(self) -> list[int]:
        """Where a merchant may go: next to one end of a chain and next to no
        other merchant; when no chain can grow, any empty square touching no
        merchant (a new chain)."""
        kind, mcount = self.kind, self.mcount
        ext = set()
        for m in self.merchants:          # chain ends: at most one merchant neighbour
            if mcount[m] <= 1:
                for j in B.ORTH[m]:
                    if kind[j] == EMPTY and mcount[j] == 1:
                        ext.add(j)
        if ext:
            return sorted(ext)
        return [i for i in range(B.SQUARES) if kind[i] == EMPTY and mcount[i] == 0]

    def wall_tower(self, w: int) -> int:
        """Tower whose wall a piece on empty space ``w`` would extend, or 0."""
        t = B.WALL_NEXT_TOWER[w]
        if t:
            return t
        walls = self.walls
        for n in B.WALL_NEXT_WALLS[w]:
            if walls[n]:
                return walls[n]
        return 0

    def wall_spaces(self) -> list[int]:
        """Empty wall spaces next to a wall piece or tower that do not close
        the last gate of their side."""
        walls = self.walls
        cands = {w for w in _TOWER_SPACES if not walls[w]}
        built_per_side = [0, 0, 0, 0]
        for w in range(B.WALLS):
            if walls[w]:
                built_per_side[B.WALL_SIDE[w]] += 1
                for n in B.WALL_NEXT_WALLS[w]:
                    if not walls[n]:
                        cands.add(n)
        return sorted(w for w in cands
                      if _SIDE_SIZE[B.WALL_SIDE[w]] - built_per_side[B.WALL_SIDE[w]] >= 2)

    def dome_targets(self, seat: int) -> list[Palace]:
        """Unfinished palaces ``seat`` may claim (one palace per colour)."""
        if not self.supply[seat]["domes"]:
            return []
        return [p for p in self.palaces
                if not p.complete and p.colour not in self.claimed[seat]]

    def _placements(self, seat: int) -> list[Place]:
        s = self.supply[seat]
        acts: list[Place] = []
        if s["merchants"]:
            table = SQUARE_ACTIONS["merchant"]
            acts += [table[i] for i in self.merchant_squares()]
        if s["walls"]:
            acts += [WALL_ACTIONS[w] for w in self.wall_spaces()]
        if s["stables"]:
            table = SQUARE_ACTIONS["stable"]
            acts += [table[i] for i in self.stable_squares()]
        free = None
        for c in PALACE_COLOURS:
            if s[c]:
                if free is None and self.unfinished(c) is None and c not in self.returned:
                    free = self.palace_squares(c)
                table = PALACE_ACTIONS[c]
                acts += [table[i] for i in self.palace_squares(c, free)]
        if s["domes"]:
            table = SQUARE_ACTIONS["dome"]
            acts += [table[i] for i in sorted(i for p in self.dome_targets(seat) for i in p.squares)]
        return acts

    def _dome_after(self, seat: int, action: Place) -> bool:
        """Lone seat: may ``action`` come first and a dome still follow?"""
        trial = self._clone()
        trial._place(seat, action, [])
        trial._check_completion([])
        return bool(trial.dome_targets(seat))

    def _place(self, seat: int, a: Place, events: list[Event]) -> None:
        who = Seat(seat)
        s = self.supply[seat]
        if self.placed == 0:
            self.last_sites = []
        self.last_sites.append(a.site)
        if a.kind == "wall":
            w = B.parse_wall(a.site)
            t = self.wall_tower(w)
            self.walls[w] = t
            s["walls"] -= 1
            events.append(Event(Msg("{seat} builds a wall on {site} (from tower {tower}).",
                                    seat=who, site=a.site, tower=t),
                                kind="wall", data={"seat": seat, "site": a.site, "tower": t}))
            i = B.WALL_SQUARE[w]
            if self.kind[i] in (PALACE, STABLE):
                self._connect(self.palaces[self.pal[i]], events)
            return
        i = B.parse_square(a.site)
        if a.kind == "merchant":
            self.kind[i] = MERCHANT
            for j in B.ORTH[i]:
                self.mcount[j] += 1
            self.merchants.append(i)
            if self.setup:
                events.append(Event(Msg("{seat} places the start merchant on {site}.",
                                        seat=who, site=a.site),
                                    kind="merchant", data={"seat": seat, "site": a.site, "start": True}))
                return  # the start merchant is the extra one: no supply used
            s["merchants"] -= 1
            new_chain = self.mcount[i] == 0 and len(self.merchants) > 1
            if new_chain:
                text = Msg("{seat} places a merchant on {site} and starts a new merchant chain.",
                           seat=who, site=a.site)
            else:
                text = Msg("{seat} places a merchant on {site}.", seat=who, site=a.site)
            events.append(Event(text, kind="merchant",
                                data={"seat": seat, "site": a.site, "new_chain": new_chain}))
            return
        if a.kind == "dome":
            p = self.palaces[self.pal[i]]
            p.owner, p.dome, p.complete = seat, i, True
            s["domes"] -= 1
            self.claimed[seat].append(p.colour)
            self.domed = True
            events.append(Event(
                Msg("{seat} places a dome on {site} and claims {palace} (size {size}).",
                    seat=who, site=a.site, palace=p.where(), size=p.size),
                kind="dome", data={"seat": seat, "site": a.site, "colour": p.colour,
                                   "palace": p.id}))
            p.towers = []
            self._connect(p, events)
            self._palace_tile(p, events)
            if all(p.colour in c for c in self.claimed):
                self.returned.append(p.colour)
                for sup in self.supply:
                    sup[p.colour] = 0
                events.append(Event(
                    Msg("Every seat has claimed {a_palace}: no more {colour} palaces; "
                        "the remaining {colour} pieces go back to the box.",
                        a_palace=a_palace(p.colour), colour=COLOUR[p.colour]),
                    kind="returned", data={"colour": p.colour}))
            return
        if a.kind == "stable":
            pid = next(self.pal[j] for j in B.ORTH[i] if self.kind[j] == PALACE)
            p = self.palaces[pid]
            self._occupy(i, STABLE, pid)
            p.stables.append(i)
            s["stables"] -= 1
            events.append(Event(Msg("{seat} places a stable on {site} at {palace}.",
                                    seat=who, site=a.site, palace=p.where()),
                                kind="stable", data={"seat": seat, "site": a.site, "palace": pid}))
            if p.owner is not None:
                self._connect(p, events)
                self._palace_tile(p, events)
            return
        # a palace piece
        c = a.colour
        p = self.unfinished(c)
        started = p is None
        if p is None:
            p = Palace(len(self.palaces), c)
            self.palaces.append(p)
        p.squares.append(i)
        self._occupy(i, PALACE, p.id)
        s[c] -= 1
        if started:
            text = Msg("{seat} starts a new {colour} palace on {site}.", seat=who,
                       colour=COLOUR[c], site=a.site)
        elif c[0] in "aeiou":
            text = Msg("{seat} adds an {colour} palace piece on {site} ({colour} palace of {size}).",
                       seat=who, colour=COLOUR[c], site=a.site, size=len(p.squares))
        else:
            text = Msg("{seat} adds a {colour} palace piece on {site} ({colour} palace of {size}).",
                       seat=who, colour=COLOUR[c], site=a.site, size=len(p.squares))
        events.append(Event(text, kind="palace",
                            data={"seat": seat, "site": a.site, "colour": c, "palace": p.id}))

    def _occupy(self, i: int, kind: int, pid: int) -> None:
        self.kind[i] = kind
        self.pal[i] = pid
        for j in B.NEAR[i]:
            self.near[j] += 1

    def towers_of(self, p: Palace) -> list[int]:
        """Towers whose walls touch a piece or stable of ``p``."""
        ts = {self.walls[w] for i in p.squares + p.stables for w in B.SQUARE_WALLS[i]}
        ts.discard(0)
        return sorted(ts)

    def _connect(self, p: Palace, events: list[Event]) -> None:
        """Tower tiles (RULINGS.md): the owner of a claimed palace takes the
        tile of each tower it newly became connected to by walls or a
        stable; growth of an already connected palace is no new connection."""
        if p.owner is None:
            return
        now = self.towers_of(p)
        for t in now:
            if t in p.towers:
                continue
            old = self.tower_tiles[t]
            self.tower_tiles[t] = p.owner
            if old != p.owner:
                frm = Msg("the table") if old is None else seat_name(old)
                pts = TOWER_TILE_POINTS[t]
                events.append(Event(
                    Msgn("{seat} takes tower tile {tower} ({n} point) from {source}: {palace} is "
                         "connected to tower {tower}.",
                         "{seat} takes tower tile {tower} ({n} points) from {source}: {palace} is "
                         "connected to tower {tower}.", pts, seat=Seat(p.owner), tower=t,
                         source=frm, palace=p.where()), kind="tower_tile",
                    data={"tower": t, "seat": p.owner, "from": old}))
        p.towers = now

    def _palace_tile(self, p: Palace, events: list[Event]) -> None:
        """Palace tiles (RULINGS.md): the first claimed palace of a colour
        takes its tile; a strictly larger claimed one takes it over."""
        c, holder = p.colour, self.palace_tiles[p.colour]
        if p.owner is None or holder == p.owner:
            return
        if holder is not None:
            theirs = next((q for q in self.palaces if q.colour == c and q.owner == holder), None)
            if theirs is not None and p.size <= theirs.size:
                return
        self.palace_tiles[c] = p.owner
        frm = Msg("the table") if holder is None else seat_name(holder)
        events.append(Event(
            Msgn("{seat} takes the {colour} palace tile ({n} point) from {source} with {palace} "
                 "(size {size}).",
                 "{seat} takes the {colour} palace tile ({n} points) from {source} with {palace} "
                 "(size {size}).", PALACE_TILE_POINTS[c], seat=Seat(p.owner), colour=COLOUR[c],
                 source=frm, palace=p.where(), size=p.size),
            kind="palace_tile", data={"colour": c, "seat": p.owner, "from": holder}))

    def can_grow(self, p: Palace) -> bool:
        """True while a palace piece could still legally go next to ``p``."""
        kind = self.kind
        for i in p.squares:
            for j in B.ORTH[i]:
                if kind[j] == EMPTY and not self.blocked(j, p.id):
                    return True
        return False

    def _check_completion(self, events: list[Event]) -> None:
        """"Jos keskeneräisen palatsin ympärillä ei ole tilaa ...": an
        unfinished palace with no legal space left is completed, ownerless."""
        for p in self.palaces:
            if not p.complete and not self.can_grow(p):
                p.complete = True
                events.append(Event(
                    Msg("The {colour} palace at {squares} has no room left to grow: it is "
                        "completed and belongs to nobody.", colour=COLOUR[p.colour],
                        squares=" ".join(sq(i) for i in sorted(p.squares))), kind="boxed_in",
                    data={"palace": p.id, "colour": p.colour}))

    # ---------------------------------------------------------------- turns
    def _after_placement(self, events: list[Event]) -> None:
        self._check_completion(events)
        if self.setup:
            self.setup = False
            self._next_turn(events, start=0)
            return
        self.placed += 1
        if self.placed < 2 and self.pieces_left(self.seat) and self.legal_actions(self.seat):
            return
        if self.placed < 2 and self.pieces_left(self.seat):
            if self.lone and not self.domed:
                text = Msg("{seat} can place no dome; the turn ends.", seat=Seat(self.seat))
            else:
                text = Msg("{seat} has no legal place for a second piece; the turn ends.",
                           seat=Seat(self.seat))
            events.append(Event(text,
                                kind="turn_short", data={"seat": self.seat}))
        self._next_turn(events, start=(self.seat + 1) % self.seats)

    def _next_turn(self, events: list[Event], start: int) -> None:
        """Hand the turn to the next seat clockwise from ``start`` that can
        place a piece; end the game when none can ("Pelin loppuminen")."""
        holders = [s for s in range(self.seats) if self.pieces_left(s)]
        lone = len(holders) == 1
        skipped: list[Event] = []
        for k in range(self.seats):
            cand = (start + k) % self.seats
            if cand not in holders:
                continue
            self.seat, self.placed, self.domed = cand, 0, False
            self._legal_cache = None
            if lone and not self.lone:
                events.append(Event(
                    Msg("Only {seat} has pieces left: each of their turns must now include a dome.",
                        seat=seat_name(cand)), kind="lone", data={"seat": cand}))
            self.lone = lone
            if self.legal_actions(cand):
                self.turn_no += 1
                events.extend(skipped)
                return
            if lone:
                events.append(Event(
                    Msg("{seat} cannot place a dome this turn.", seat=Seat(cand)),
                    kind="no_dome", data={"seat": cand}))
                break
            skipped.append(Event(
                Msg("{seat} can place none of their pieces and misses the turn.", seat=Seat(cand)),
                kind="skip", data={"seat": cand}))
        if skipped:
            events.append(Event(Msg("No seat can place any of its remaining pieces."),
                                kind="stuck", data={}))
        self.over = True
        self._legal_cache = None
        ranking = join([Msg("{seat} {points}", seat=seat_name(s.seat), points=s.points)
                        for s in sorted(self.scores(), key=lambda s: s.rank)])
        events.append(Event(Msg("Game over. Final scores: {ranking}.", ranking=ranking), kind="end",
                            data={"scores": [s.points for s in self.scores()]}))

    # -------------------------------------------------------------- scoring
    def palace_points(self, p: Palace) -> dict[str, int]:
        """"Pisteytys": 1 per palace piece, stable, and merchant and wall piece
        orthogonally next to a piece or stable of the palace (each counted
        once per palace)."""
        cells = p.squares + p.stables
        around = {j for i in cells for j in B.ORTH[i]}
        merchants = sum(1 for j in around if self.kind[j] == MERCHANT)
        walls = {w for i in cells for w in B.SQUARE_WALLS[i] if self.walls[w]}
        return {"pieces": len(p.squares), "stables": len(p.stables),
                "merchants": merchants, "walls": len(walls)}

    def scores(self) -> list[Score]:
        """Points per seat: claimed palaces (pieces, stables, neighbouring
        merchants and walls) plus palace and tower tiles held. Ties share
        the rank ("yhteinen voitto"); ``tiebreak`` is always 0."""
        detail = [{"palaces": 0, "stables": 0, "merchants": 0, "walls": 0,
                   "palace_tiles": 0, "tower_tiles": 0} for _ in range(self.seats)]
        for p in self.palaces:
            if p.owner is None:
                continue
            pts = self.palace_points(p)
            d = detail[p.owner]
            d["palaces"] += pts["pieces"]
            d["stables"] += pts["stables"]
            d["merchants"] += pts["merchants"]
            d["walls"] += pts["walls"]
        for c, s in self.palace_tiles.items():
            if s is not None:
                detail[s]["palace_tiles"] += PALACE_TILE_POINTS[c]
        for t, s in self.tower_tiles.items():
            if s is not None:
                detail[s]["tower_tiles"] += TOWER_TILE_POINTS[t]
        points = [sum(d.values()) for d in detail]
        return [Score(seat=s, points=points[s], tiebreak=0,
                      rank=1 + sum(1 for q in points if q > points[s]), detail=detail[s])
                for s in range(self.seats)]

    def score_breakdown(self) -> list[tuple[Msg, dict[int, int]]]:
        """"Pisteytys" row by row: palace pieces, stables, merchants and wall
        pieces of the seat's palaces, then palace and tower tiles; each
        ``(label, {seat: points})``, summing to :meth:`scores`."""
        scores = self.scores()
        return [(label, {s.seat: s.detail[key] for s in scores}) for key, label in SCORE_ROWS]

    # ----------------------------------------------------------------- view
    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as ``seat`` sees it. Other seats' pieces behind their
        screens are absent (``"supply": None``); domes are public."""
        players = []
        for s in range(self.seats):
            players.append({
                "seat": s, "name": seat_name(s), "colour": SEAT_COLOURS[s],
                "domes": self.supply[s]["domes"], "claimed": list(self.claimed[s]),
                "supply": dict(self.supply[s]) if s == seat else None,
            })
        return {
            "game": "medina", "seats": self.seats, "viewer": seat, "step": self._step,
            "phase": self.phase(), "over": self.over, "setup": self.setup,
            "turn": {"seat": None if self.over else self.seat, "number": self.turn_no,
                     "piece": self.placed + 1, "must_dome": self.lone and not self.domed},
            "current_seats": self.current_seats(),
            "palaces": [{
                "id": p.id, "colour": p.colour, "squares": [sq(i) for i in p.squares],
                "stables": [sq(i) for i in p.stables], "owner": p.owner,
                "dome": None if p.dome is None else sq(p.dome), "complete": p.complete,
                "size": p.size, "towers": self.towers_of(p)} for p in self.palaces],
            "merchants": [sq(i) for i in self.merchants],
            "walls": {B.wall_name(w): t for w, t in enumerate(self.walls) if t},
            "palace_tiles": dict(self.palace_tiles),
            "tower_tiles": {str(t): s for t, s in self.tower_tiles.items()},
            "returned": list(self.returned),
            "players": players,
            "last_sites": list(self.last_sites),
            "scores": [{"seat": sc.seat, "points": sc.points, "rank": sc.rank,
                        "detail": sc.detail} for sc in self.scores()],
            "decision": decision(self, seat), "rules_section": rules_section(self),
        }

    # ----------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "medina", "seats": self._seats, "seed": self.seed, "step": self._step,
            "turn_no": self.turn_no, "kind": self.kind, "pal": self.pal, "walls": self.walls,
            "palaces": [p.to_dict() for p in self.palaces], "merchants": self.merchants,
            "supply": self.supply, "claimed": self.claimed,
            "palace_tiles": self.palace_tiles,
            "tower_tiles": {str(t): s for t, s in self.tower_tiles.items()},
            "returned": self.returned, "setup": self.setup, "seat": self.seat,
            "placed": self.placed, "lone": self.lone, "domed": self.domed, "over": self.over,
            "last_sites": self.last_sites,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, game: Any, d: dict[str, Any]) -> "MedinaState":
        if d.get("game") != "medina":
            raise ValueError("not a Medina state")
        st = cls(game, d["seats"], d["seed"])
        st._step, st.turn_no = d["step"], d["turn_no"]
        st.kind, st.pal, st.walls = list(d["kind"]), list(d["pal"]), list(d["walls"])
        st.palaces = [Palace.from_dict(p) for p in d["palaces"]]
        st.merchants = list(d["merchants"])
        st.supply = [{k: int(v[k]) for k in SUPPLY_KEYS} for v in d["supply"]]
        st.claimed = [list(c) for c in d["claimed"]]
        st.palace_tiles = {c: d["palace_tiles"][c] for c in PALACE_COLOURS}
        st.tower_tiles = {t: d["tower_tiles"][str(t)] for t in B.TOWERS}
        st.returned = list(d["returned"])
        st.setup, st.seat, st.placed = d["setup"], d["seat"], d["placed"]
        st.lone, st.domed, st.over = d["lone"], d["domed"], d["over"]
        st.last_sites = list(d["last_sites"])
        st._rebuild()
        return st

    def _clone(self) -> "MedinaState":
        st = MedinaState.__new__(MedinaState)
        st.__dict__.update(self.__dict__)
        st.kind, st.pal, st.walls = self.kind[:], self.pal[:], self.walls[:]
        st.palaces = [p.clone() for p in self.palaces]
        st.merchants = self.merchants[:]
        st.supply = [dict(s) for s in self.supply]
        st.claimed = [c[:] for c in self.claimed]
        st.palace_tiles, st.tower_tiles = dict(self.palace_tiles), dict(self.tower_tiles)
        st.returned, st.last_sites = self.returned[:], self.last_sites[:]
        st.mcount, st.near = self.mcount[:], self.near[:]
        st._legal_cache = None
        return st

    def copy(self) -> "MedinaState":
        return self._clone()
