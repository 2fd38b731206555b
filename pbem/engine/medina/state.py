"""One Medina position: the board, the screens, the tiles and whose turn it
is. The rules that change it live in modules named after them
(:mod:`~pbem.engine.medina.palaces`, :mod:`domes`, :mod:`stables`,
:mod:`merchants`, :mod:`walls`, :mod:`tiles`), the turn in
:mod:`~pbem.engine.medina.turns`; decisions in docs/rules/medina.md.

The board is kept as two flat arrays over the 176 squares: ``kind`` (empty,
palace piece, stable, merchant: :mod:`~pbem.engine.medina.pieces`) and
``pal`` (the palace a piece or stable belongs to, else -1), plus the 54 wall
spaces (0 = empty, else the number of the tower whose wall it extends).
Medina has no chance: the seed is kept only so every game has one (same
seed + same log = same game).
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from pbem.engine.api import Event, NotYourTurnError, Score, State
from pbem.engine.medina import board as B
from pbem.engine.medina import scoring, turns
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import (
    EMPTY, MERCHANT, PALACE, PALACE_COLOURS, STABLE, SUPPLY_KEYS, starting_supply,
)
from pbem.engine.medina.squares import NOBODY, SEVERAL
from pbem.engine.medina.terms import palace_at
from pbem.engine.medina.view import make_view
from pbem.engine.messages import Msg
from pbem.engine.phrases import seat as seat_name

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
        return palace_at(self.colour, " ".join(B.square_name(i) for i in sorted(self.squares)))

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


class MedinaState(State):
    """A Medina position. Build with :meth:`MedinaGame.new_state`,
    :meth:`from_dict` or :func:`pbem.engine.medina.position.load_position`."""

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
        """Recompute the data kept beside the board arrays: ``mcount`` (the
        merchants orthogonally next to each square) and ``touch`` (the
        palace whose pieces or stables are among the 8 squares around each
        square: a palace id, or :data:`~pbem.engine.medina.squares.NOBODY`
        or ``SEVERAL``)."""
        self.mcount = [0] * B.SQUARES
        self.touch = [NOBODY] * B.SQUARES
        for i in range(B.SQUARES):
            k = self.kind[i]
            if k == MERCHANT:
                for j in B.ORTH[i]:
                    self.mcount[j] += 1
            elif k in (PALACE, STABLE):
                self._touched(i, self.pal[i])
        self.forget()

    def _touched(self, i: int, pid: int) -> None:
        touch = self.touch
        for j in B.NEAR[i]:
            t = touch[j]
            if t == NOBODY:
                touch[j] = pid
            elif t != pid:
                touch[j] = SEVERAL

    def forget(self) -> None:
        """Drop what the rules keep for this board (after it changed)."""
        self._legal_cache: tuple[int, list[Place]] | None = None
        self.fresh: list[int] | None = None   # where a new palace may start (palaces.py)
        self.changed: list[int] = []          # squares changed since (theirs or around them)
        self.wall_sites: list[int] | None = None   # where a wall piece may go (walls.py)

    # -------------------------------------------------------------- changes
    def occupy(self, i: int, kind: int, pid: int) -> None:
        """Put a palace piece or stable (``kind``) of palace ``pid`` on square ``i``."""
        self.kind[i] = kind
        self.pal[i] = pid
        self._touched(i, pid)
        if self.fresh is not None:
            self.changed.append(i)
            self.changed.extend(B.NEAR[i])

    def add_merchant(self, i: int) -> None:
        """Put a merchant on square ``i``."""
        self.kind[i] = MERCHANT
        for j in B.ORTH[i]:
            self.mcount[j] += 1
        self.merchants.append(i)
        if self.fresh is not None:
            self.changed.append(i)

    def build_wall(self, w: int, tower: int) -> None:
        """Put a wall piece of ``tower``'s wall on wall space ``w``."""
        self.walls[w] = tower
        self.wall_sites = None

    def new_palace(self, colour: str) -> Palace:
        """A new palace of ``colour`` with no pieces yet (the caller adds the first)."""
        p = Palace(len(self.palaces), colour)
        self.palaces.append(p)
        return p

    # ---------------------------------------------------------------- queries
    def pieces_left(self, seat: int) -> int:
        """All pieces behind ``seat``'s screen plus its domes."""
        return sum(self.supply[seat].values())

    def unfinished(self, colour: str) -> Palace | None:
        """The palace of ``colour`` under construction, if any (at most one)."""
        for p in self.palaces:
            if p.colour == colour and not p.complete:
                return p
        return None

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
        """:func:`pbem.engine.medina.turns.phase`."""
        return turns.phase(self)

    def turn_key(self) -> int:
        """The turn number (0: the start merchant of setup): equal for both
        pieces of a turn, new for every turn, even when a seat that alone
        has pieces plays turn after turn."""
        return self.turn_no

    def legal_actions(self, seat: int) -> list[Place]:
        """:func:`pbem.engine.medina.turns.legal_actions`."""
        return turns.legal_actions(self, seat)

    def default_action(self, seat: int) -> Place:
        """Missed deadline: the first legal placement in the order of
        :meth:`legal_actions` (merchant, wall, stable, palace, dome)."""
        acts = self.legal_actions(seat)
        if not acts:
            raise NotYourTurnError(Msg("{seat} owes no order now", seat=seat_name(seat)))
        return acts[0]

    def apply(self, seat: int, action: Place) -> list[Event]:
        """:func:`pbem.engine.medina.turns.apply`."""
        return turns.apply(self, seat, action)

    def scores(self) -> list[Score]:
        """:func:`pbem.engine.medina.scoring.scores`."""
        return scoring.scores(self)

    def score_breakdown(self) -> list[tuple[Msg, dict[int, int]]]:
        """:func:`pbem.engine.medina.scoring.score_breakdown`."""
        return scoring.score_breakdown(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        """:func:`pbem.engine.medina.view.make_view`."""
        return make_view(self, seat)

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
        """The state :meth:`to_dict` wrote (``ValueError`` for another game's)."""
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

    def copy(self) -> "MedinaState":
        """An independent copy (cheaper than through JSON)."""
        st = MedinaState.__new__(MedinaState)
        st.__dict__.update(self.__dict__)
        st.kind, st.pal, st.walls = self.kind[:], self.pal[:], self.walls[:]
        st.palaces = [p.clone() for p in self.palaces]
        st.merchants = self.merchants[:]
        st.supply = [dict(s) for s in self.supply]
        st.claimed = [c[:] for c in self.claimed]
        st.palace_tiles, st.tower_tiles = dict(self.palace_tiles), dict(self.tower_tiles)
        st.returned, st.last_sites = self.returned[:], self.last_sites[:]
        st.mcount, st.touch, st.changed = self.mcount[:], self.touch[:], self.changed[:]
        st._legal_cache = None
        return st
