"""One Carcassonne: Die Stadt position: the board, features, followers,
wall and whose decision it is. The turn flow is in
:mod:`~pbem.engine.diestadt.flow`, the rules of each decision in
:mod:`placement`, :mod:`wall` and :mod:`scoring`; rule decisions in
docs/rules/diestadt.md.

Kept as data (and in ``to_json``): the piles (their order is the only
hidden information), the placed tiles in order, followers on tiles by
feature node, the wall, supplies, points, and the pending decisions.
Everything else (the board array, the features, the frontier) is rebuilt
from those.
"""
from __future__ import annotations

import json
import random
from typing import Any

from pbem.engine.api import Event, IllegalOrderError, NotYourTurnError, Score, State
from pbem.engine.diestadt import flow
from pbem.engine.diestadt.features import Features
from pbem.engine.diestadt.grid import NEIGHBOURS, OPP, RING, SPACES, Outline
from pbem.engine.diestadt.scoring import CATEGORIES
from pbem.engine.diestadt.tile_orders import TileOrders
from pbem.engine.diestadt.tiles import HOMES, PILE_SIZES, TILE_IDS, TURNED, Turned
from pbem.engine.diestadt.view import build_view
from pbem.engine.diestadt.wall import Wall
from pbem.engine.messages import Msg

FOLLOWERS = 7                      # DS-10, DS-11: eight, one on the score track
TOWERS = 12                        # DS-1, DS-12: shared equally
#: what the deciding seat does, for the phase line players read
_DOING = {"tile": Msg("places the drawn tile"), "gate": Msg("places the city gate"),
          "wall": Msg("builds a wall piece"), "tower": Msg("may place a tower")}


class DieStadtState(State):
    """A Die Stadt position; build with :meth:`DieStadtGame.new_state`,
    :meth:`from_dict` or :func:`pbem.engine.diestadt.position.load_position`."""

    def __init__(self, game: Any, seats: int, seed: int):
        self.game = game
        self._seats = seats
        self.seed = seed
        self._step = 0
        self.turn_no = 1
        order = list(TILE_IDS)
        random.Random(seed).shuffle(order)
        a, b = PILE_SIZES[0], PILE_SIZES[0] + PILE_SIZES[1]
        self.piles: list[list[int]] = [order[:a], order[a:b], order[b:]]   # top = last
        self.pile = 1                      # pile the current turn's tile came from
        self.drawn: int | None = None
        self.placed: list[tuple[int, int, int]] = []   # (tile, space, quarter turns)
        self.node_seat: dict[int, int] = {}
        self.supply = [FOLLOWERS] * seats
        self.towers_left = [TOWERS // seats] * seats
        self.points = [{c: 0 for c in CATEGORIES} for _ in range(seats)]
        self.wall = Wall()
        self.active = 0                    # the seat whose turn it is (placed the tile)
        self.decision: str | None = "tile"   # tile / gate / wall / tower / None (over)
        self.queue: list[tuple[int, str]] = []   # wall round: (seat, "gate"|"wall")
        self.wall_k = 0
        self.tower_pending = False
        self.discarded: list[int] = []
        self.over = False
        self.last_space: int | None = None
        self.closing: list[tuple[int, int]] = []   # edges closed at the end (DS-94)
        self.imaginary = 0                          # how many of them were imagined (DS-96)
        self._rebuild()

    # ------------------------------------------------------------ derived data
    def _rebuild(self) -> None:
        """Recompute board, features and frontier from the placed tiles,
        followers and wall."""
        self.board = [-1] * SPACES
        self.turned_at: list[Turned] = []
        self.feats = Features()
        self.frontier: set[int] = set()
        #: empty space next to the city -> bit s: a tile across side s; bit 4 + s: it shows a street
        self.fmask: dict[int, int] = {}
        #: empty space near the city -> bit k set when RING[space][k] holds a tile
        self.rmask: dict[int, int] = {}
        #: empty space -> what its neighbours offer a tile (followers.neighbours)
        self.contexts: dict[int, tuple] = {}
        self.first_space = SPACES
        self.outline = Outline(self.board)
        for p, (tile, space, q) in enumerate(self.placed):
            self._put(p, tile, space, q)
        for sp, side in self.wall.edges() + self.wall_extra():
            p = self.board[sp]
            self.feats.close_edge(p, side, self.turned_at[p])
        for node, seat in sorted(self.node_seat.items()):
            self.feats.add_follower(node)
        # complete streets and markets were scored when they were completed
        for root in self.feats.roots(len(self.placed), self.turned_at):
            if self.feats.ftype[root] != HOMES and self.feats.open[root] == 0:
                self.feats.done[root] = True
        self.blocked = self.wall.blocked_spaces()
        self._legal_cache: tuple[int, list] | None = None
        self._placements_cache: tuple | None = None

    def wall_extra(self) -> list[tuple[int, int]]:
        """Edges closed at the end of the game (real and imaginary, DS-95, DS-96)."""
        return list(self.closing)

    def _put(self, p: int, tile: int, space: int, q: int) -> list[int]:
        """Lay tile ``p`` on the board and join its features; returns roots touched."""
        turned = TURNED[tile][q]
        self.board[space] = p
        self.turned_at.append(turned)
        roots = self.feats.add_tile(p, space, turned, self.board, self.turned_at)
        self.frontier.discard(space)
        contexts = self.contexts
        for nb in NEIGHBOURS[space]:
            contexts.pop(nb, None)
        self.fmask.pop(space, None)
        self.rmask.pop(space, None)
        rmask, fmask = self.rmask, self.fmask
        for k, nb in enumerate(RING[space]):
            if nb >= 0 and self.board[nb] < 0:
                rmask[nb] = rmask.get(nb, 0) | 1 << ((k + 4) % 8)
        for side, nb in enumerate(NEIGHBOURS[space]):
            if nb >= 0 and self.board[nb] < 0:
                self.frontier.add(nb)
                back = OPP[side]
                fmask[nb] = (fmask.get(nb, 0) | 1 << back
                             | (turned.street_mask >> side & 1) << (back + 4))
        self.first_space = min(self.first_space, space)
        return roots

    @property
    def placed_count(self) -> int:
        return len(self.placed)

    def tile_at(self, space: int) -> int:
        return self.placed[self.board[space]][0]

    def tiles_left(self) -> int:
        return sum(len(p) for p in self.piles)

    # ------------------------------------------------------------------ API
    @property
    def seats(self) -> int:
        return self._seats

    @property
    def step(self) -> int:
        return self._step

    def current_seats(self) -> list[int]:
        if self.over:
            return []
        return [self.queue[0][0]] if self.decision in ("gate", "wall") else [self.active]

    def is_terminal(self) -> bool:
        return self.over

    def phase(self) -> str:
        if self.over:
            return Msg("Game over")
        return Msg("Turn {turn} (pile {pile}): seat {seat} {what}", turn=self.turn_no, pile=self.pile,
                   seat=self.current_seats()[0] + 1, what=_DOING[self.decision])

    def turn_key(self) -> Any:
        """``("tile", n)``, ``("gate", n)``, ``("wall", n, k)`` for the k-th
        piece of turn n, ``("tower", n)``: each missed deadline costs one decision."""
        if self.decision == "wall":
            return ("wall", self.turn_no, self.wall_k)
        return (self.decision or "over", self.turn_no)

    def legal_actions(self, seat: int) -> list:
        if self.over or seat not in self.current_seats():
            return []
        acts = self._legal()
        return acts if isinstance(acts, TileOrders) else list(acts)

    def _legal(self) -> list:
        """The deciding seat's legal orders, kept until the next action
        (not a copy: callers must not change it)."""
        if self._legal_cache is not None and self._legal_cache[0] == self._step:
            return self._legal_cache[1]
        acts = flow.options(self)
        self._legal_cache = (self._step, acts)
        return acts

    def default_action(self, seat: int):
        """Missed deadline (design 6.4): the tile on the first legal space in
        reading order, lowest rotation, no follower; the gate on the first
        legal edge, no guard; ``wall cw`` (else ccw) without guard; ``no tower``."""
        acts = self.legal_actions(seat)
        if not acts:
            raise NotYourTurnError(Msg("seat {seat} owes no order now", seat=seat + 1))
        if self.decision == "tower":
            return next(a for a in acts if a.end is None)
        return acts[0]

    def apply(self, seat: int, action) -> list[Event]:
        if self.over:
            raise NotYourTurnError(Msg("the game is over"))
        if seat not in self.current_seats():
            raise NotYourTurnError(Msg("it is seat {seat}'s decision, not seat {other}'s",
                                       seat=self.current_seats()[0] + 1, other=seat + 1))
        action = flow.admit(self, seat, action, self._legal())
        events: list[Event] = []
        flow.execute(self, seat, action, events)
        self._step += 1
        self._legal_cache = None
        flow.advance(self, events)      # leaves the next decision's orders in the cache
        return events

    def scores(self) -> list[Score]:
        """Points per seat by category (:data:`scoring.CATEGORIES`); the most
        points win, a tie is a shared win (DS-114, A-29)."""
        totals = [sum(p.values()) for p in self.points]
        return [Score(seat=s, points=totals[s], tiebreak=0,
                      rank=1 + sum(1 for t in totals if t > totals[s]), detail=dict(self.points[s]))
                for s in range(self._seats)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    # ----------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "diestadt", "seats": self._seats, "seed": self.seed, "step": self._step,
            "turn_no": self.turn_no, "piles": self.piles, "pile": self.pile, "drawn": self.drawn,
            "placed": [list(p) for p in self.placed],
            "followers": [[n, s] for n, s in sorted(self.node_seat.items())],
            "supply": self.supply, "towers_left": self.towers_left, "points": self.points,
            "wall": self.wall.to_dict(), "active": self.active, "decision": self.decision,
            "queue": [list(q) for q in self.queue], "wall_k": self.wall_k,
            "tower_pending": self.tower_pending, "discarded": self.discarded,
            "over": self.over, "last_space": self.last_space,
            "closing": [list(e) for e in self.closing], "imaginary": self.imaginary,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, game: Any, d: dict[str, Any]) -> "DieStadtState":
        if d.get("game") != "diestadt":
            raise ValueError("not a Die Stadt state")
        st = cls.__new__(cls)
        st.game, st._seats, st.seed, st._step = game, d["seats"], d["seed"], d["step"]
        st.turn_no, st.piles = d["turn_no"], [list(p) for p in d["piles"]]
        st.pile, st.drawn = d["pile"], d["drawn"]
        st.placed = [tuple(p) for p in d["placed"]]
        st.node_seat = {n: s for n, s in d["followers"]}
        st.supply, st.towers_left = list(d["supply"]), list(d["towers_left"])
        st.points = [dict(p) for p in d["points"]]
        st.wall = Wall.from_dict(d["wall"])
        st.active, st.decision = d["active"], d["decision"]
        st.queue = [(q[0], q[1]) for q in d["queue"]]
        st.wall_k, st.tower_pending = d["wall_k"], d["tower_pending"]
        st.discarded, st.over, st.last_space = list(d["discarded"]), d["over"], d["last_space"]
        st.closing = [(e[0], e[1]) for e in d.get("closing", [])]
        st.imaginary = d.get("imaginary", 0)
        st._rebuild()
        return st

    def copy(self) -> "DieStadtState":
        """An independent copy, the derived data copied rather than rebuilt
        from the placed tiles (a quarter of the JSON round trip's time; the
        search bots copy a position for every iteration). Immutable parts
        (the turned tiles, cached orders) are shared."""
        st = DieStadtState.__new__(DieStadtState)
        st.__dict__.update(self.__dict__)
        st.piles = [p[:] for p in self.piles]
        st.placed, st.discarded = self.placed[:], self.discarded[:]
        st.node_seat = dict(self.node_seat)
        st.supply, st.towers_left = self.supply[:], self.towers_left[:]
        st.points = [dict(p) for p in self.points]
        st.wall = self.wall.clone()
        st.queue, st.closing = self.queue[:], self.closing[:]
        st.board, st.turned_at = self.board[:], self.turned_at[:]
        st.feats = self.feats.clone()
        st.frontier, st.blocked = set(self.frontier), set(self.blocked)
        st.fmask, st.rmask, st.contexts = dict(self.fmask), dict(self.rmask), dict(self.contexts)
        st.outline = Outline(st.board)
        return st

    def illegal(self, message: str, action, legal: list) -> IllegalOrderError:
        return IllegalOrderError(message, text=action.to_text(), legal=[a.to_text() for a in legal[:8]])
