"""The turn: draw, tile and follower, scoring, wall round, tower, end check
("Pelin kulku", "Muurit, tornit ja kaupungin portti", "Pelin päättyminen";
design 6.4). One seat decides at a time; a decision with one legal outcome
is taken at once and never asked (design 6.4).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.diestadt import followers, placement
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.diestadt.explain import why_illegal
from pbem.engine.diestadt.grid import NEIGHBOURS, edge_name, parse_edge, parse_space, top_edge
from pbem.engine.diestadt.scoring import comma_list, final_scoring, score_completed
from pbem.engine.diestadt.tile_orders import tile_options
from pbem.engine.diestadt.tiles import MAX_REGIONS, TURNED, pattern_of
from pbem.engine.diestadt.wall_orders import end_named, gate_options, tower_options, wall_ends, wall_options
from pbem.engine.diestadt.words import say_end
from pbem.engine.messages import Msg, Msgn

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState


_GATE = Msg("the city gate")
_PIECE_AT = {end: Msg("a wall piece at the {end} end", end=say_end(end)) for end in ("cw", "ccw")}
#: the tile event with a follower, per role ("a"/"an" belong to the sentence)
_PLACED_WITH = {
    "citizen": lambda said, point: Msg(
        "Seat {seat} places tile {tile} ({pattern} {edges}) on {site} with a citizen on {point}.",
        point=point, **said),
    "merchant": lambda said, point: Msg(
        "Seat {seat} places tile {tile} ({pattern} {edges}) on {site} with a merchant on {point}.",
        point=point, **said),
    "overseer": lambda said, point: Msg(
        "Seat {seat} places tile {tile} ({pattern} {edges}) on {site} with an overseer on {point}.",
        point=point, **said),
}


# ------------------------------------------------------------------ options
def options(st: "DieStadtState") -> list:
    """The legal orders of the seat that decides now (the tile:
    :mod:`~pbem.engine.diestadt.tile_orders`; the wall round:
    :mod:`~pbem.engine.diestadt.wall_orders`)."""
    if st.decision == "tile":
        return tile_options(st)
    if st.decision == "gate":
        return gate_options(st)
    if st.decision == "wall":
        return wall_options(st)
    if st.decision == "tower":
        return tower_options(st)
    return []


def admit(st: "DieStadtState", seat: int, action, legal: list):
    """The action to carry out for ``action``, or IllegalOrderError (a wall
    order with a guard that is barred now included: docs/rules/diestadt.md
    "Guards"); ``wall ccw`` when both ends take the same edge is that edge."""
    if action in legal:          # TileOrders: by number, no list made
        return action
    if isinstance(action, BuildWall) and st.decision == "wall":
        ends = dict(wall_ends(st))
        end = end_named(ends, action.end)
        if end in ends:
            built = BuildWall(end, action.guard, edge_name(ends[end]), action.asked_guard)
            if built in legal:
                return built
    raise st.illegal(why_illegal(st, seat, action), action, list(legal_sorted(st)))


def legal_sorted(st: "DieStadtState") -> list:
    return list(st._legal_cache[1]) if st._legal_cache else options(st)


# ---------------------------------------------------------------- execution
def execute(st: "DieStadtState", seat: int, action, events: list[Event]) -> None:
    if isinstance(action, PlaceTile):
        place_tile(st, seat, action, events)
    elif isinstance(action, BuildGate):
        build(st, seat, "gate", parse_edge(action.site), action.guard, events)
        st.queue.pop(0)
    elif isinstance(action, BuildWall):
        edge = dict(wall_ends(st))[action.end]
        if action.asked_guard and not action.guard:     # a held line's barred guard
            why = (Msg("no follower is left") if st.supply[seat] <= 0 else
                   Msg("a guard faces it from the other end of the row"))
            events.append(Event(Msg("Seat {seat}'s guard is left out: {why} (DS-77).", seat=seat + 1, why=why),
                                kind="guard_dropped", data={"seat": seat}))
        build(st, seat, action.end, edge, action.guard, events)
        st.queue.pop(0)
        st.wall_k += 1
    elif isinstance(action, PlaceTower):
        st.tower_pending = False
        if action.end is None:
            events.append(Event(Msg("Seat {seat} places no tower.", seat=seat + 1), kind="no_tower"))
        else:
            pts = st.wall.add_tower(action.end, seat)
            st.towers_left[seat] -= 1
            st.points[seat]["towers"] += pts
            events.append(Event(
                Msgn("Seat {seat} places a tower at the {end} end ({corner}): {n} point (DS-79, DS-80).",
                     "Seat {seat} places a tower at the {end} end ({corner}): {n} points (DS-79, DS-80).",
                     pts, seat=seat + 1, end=say_end(action.end), corner=action.site),
                kind="tower", data={"seat": seat, "points": pts, "corner": action.site}))
        st.decision = None


def place_tile(st: "DieStadtState", seat: int, a: PlaceTile, events: list[Event]) -> None:
    """Steps 1-3 of a turn (DS-21): the tile, the follower, then scoring of
    completed streets and markets; from pile 2 on a completion starts a wall
    round (DS-68, DS-69, A-11, A-12)."""
    space = parse_space(a.site)
    q = a.rotation // 90
    tile = st.drawn
    p = len(st.placed)
    st.placed.append((tile, space, q))
    roots = st._put(p, tile, space, q)
    st.drawn = None
    st.last_space = space
    said = dict(seat=seat + 1, tile=tile, pattern=pattern_of(tile), edges=TURNED[tile][q].edges,
                site=a.site)
    if a.role:
        turned = TURNED[tile][q]
        region = turned.region_at(a.point, followers.ROLE_TYPE[a.role])
        node = p * MAX_REGIONS + region
        st.node_seat[node] = seat
        st.supply[seat] -= 1
        st.feats.add_follower(node)
        text = _PLACED_WITH[a.role](said, a.point)
    else:
        text = Msg("Seat {seat} places tile {tile} ({pattern} {edges}) on {site}.", **said)
    events.append(Event(text, kind="tile", data={"seat": seat, "tile": tile, "site": a.site,
                                                       "rotation": a.rotation}))
    completed = score_completed(st, roots, events, "the tile")
    if completed and st.pile >= 2:
        st.queue = round_queue(st)
        st.tower_pending = True
        n = len(st.queue)
        events.append(Event(
            Msgn("A street or market was completed: wall round ({n} piece).",
                 "A street or market was completed: wall round ({n} pieces).", n) if st.wall.built else
            Msgn("A street or market was completed: wall round ({n} piece, the gate first).",
                 "A street or market was completed: wall round ({n} pieces, the gate first).", n),
            kind="wall_round"))


def round_queue(st: "DieStadtState") -> list[tuple[int, str]]:
    """Who builds in this turn's wall round, in order (DS-70, DS-71, DS-74,
    DS-75, DS-86 to DS-88, DS-115 to DS-119, A-23, A-24): the tile placer
    first, then clockwise; pile 3 twice round; two players alternate and
    build double. The first round's first piece is the placer's gate."""
    n, p = st.seats, st.active
    if n == 2:
        seq = [p, 1 - p] * (2 if st.pile == 2 else 4)
    else:
        seq = [(p + i) % n for i in range(n)] * (1 if st.pile == 2 else 2)
    queue = [(s, "wall") for s in seq]
    if not st.wall.built:
        queue[0] = (p, "gate")
    return queue


def build(st: "DieStadtState", seat: int, end: str, edge: tuple[int, int], guard: bool,
          events: list[Event]) -> None:
    """Put the gate (``end == "gate"``) or a piece at ``end`` on ``edge``;
    streets and markets it closes are scored at once with no new round
    (DS-81 to DS-84)."""
    if end == "gate":
        st.wall.gate = edge
        what = _GATE
    else:
        st.wall.add(end, edge, st.outline)
        what = _PIECE_AT[end]
    nb = NEIGHBOURS[edge[0]][edge[1]]
    if nb >= 0:
        st.blocked.add(nb)
    if guard:
        st.wall.guards[edge] = seat
        st.supply[seat] -= 1
    said = dict(seat=seat + 1, what=what, edge=edge_name(edge))
    events.append(Event(Msg("Seat {seat} builds {what} on {edge} with a guard.", **said) if guard else
                        Msg("Seat {seat} builds {what} on {edge}.", **said), kind="wall",
                        data={"seat": seat, "edge": edge_name(edge), "guard": guard, "end": end}))
    p = st.board[edge[0]]
    roots = st.feats.close_edge(p, edge[1], st.turned_at[p])
    score_completed(st, roots, events, "the wall")
    if st.wall.closed:
        events.append(Event(Msg("The wall is closed all round the city."), kind="wall_closed"))


# ------------------------------------------------------------------ advance
def advance(st: "DieStadtState", events: list[Event]) -> None:
    """Carry the game on to the next real decision: skip and take decisions
    with one outcome, end the turn, check the end, draw the next tile."""
    while True:
        if st.queue:
            seat, kind = st.queue[0]
            if kind == "wall" and (st.wall.closed or st.wall.supply <= 0):
                events.append(Event(
                    Msg("The wall is closed: the rest of the wall round is dropped (DS-91).")
                    if st.wall.closed else
                    Msg("The wall pieces have run out: the rest of the wall round is dropped (DS-91)."),
                    kind="round_cut"))
                st.queue = []
                continue
            st.decision = kind
            st._legal_cache = None
            opts = options(st)
            if len(opts) == 1:
                execute(st, seat, opts[0], events)
                continue
            st._legal_cache = (st._step, opts)
            return
        if st.tower_pending:
            st.decision = "tower"
            opts = options(st)
            if len(opts) > 1:
                st._legal_cache = (st._step, opts)
                return
            st.tower_pending = False
        if end_reached(st, events):
            finish(st, events)
            return
        st.active = (st.active + 1) % st.seats
        st.turn_no += 1
        st.wall_k = 0
        if not draw(st, events):
            finish(st, events)
            return
        st.decision = "tile"
        opts = tile_options(st)
        if len(opts) == 1:
            events.append(Event(Msg("Only one placement is possible: {order}.", order=opts[0].to_text()),
                                kind="forced"))
            execute(st, st.active, opts[0], events)
            continue
        st._legal_cache = (st._step, opts)
        return


def draw(st: "DieStadtState", events: list[Event]) -> bool:
    """Draw the top tile for the active seat (DS-22); a tile that fits
    nowhere is shown, removed and replaced (A-9). False when none is left."""
    while True:
        k = next((i for i, p in enumerate(st.piles) if p), None)
        if k is None:
            return False
        tile = st.piles[k].pop()
        if k + 1 != st.pile:
            events.append(Event(
                Msg("Pile {pile} is taken into use: walls and towers come into play (DS-66, DS-85).",
                    pile=k + 1) if k == 1 else
                Msg("Pile {pile} is taken into use (DS-66, DS-85).", pile=k + 1),
                kind="pile", data={"pile": k + 1}))
        st.pile = k + 1
        if placement.placement_spaces(st, tile):
            st.drawn = tile
            events.append(Event(
                Msg("Seat {seat} draws tile {tile} ({pattern}) from pile {pile}; {left} left in it.",
                    seat=st.active + 1, tile=tile, pattern=pattern_of(tile), pile=k + 1,
                    left=len(st.piles[k])), kind="draw",
                data={"seat": st.active, "tile": tile, "pile": k + 1}))
            return True
        st.discarded.append(tile)
        events.append(Event(Msg("Tile {tile} ({pattern}) fits nowhere and is removed from the game (A-9).",
                                tile=tile, pattern=pattern_of(tile)), kind="discard", data={"tile": tile}))


def end_reached(st: "DieStadtState", events: list[Event]) -> bool:
    """The end checks at the end of a turn (DS-92, A-25)."""
    if st.wall.built and st.wall.supply <= 0:
        events.append(Event(Msg("The last wall piece has been built: the game ends (DS-92)."),
                            kind="end_reason"))
        return True
    if not st.tiles_left():
        events.append(Event(Msg("The last tile has been played: the game ends (DS-92)."),
                            kind="end_reason"))
        return True
    if st.wall.built:
        left = len(st.wall.open_edges(st.outline, limit=6))
        if left <= 5:
            events.append(Event(Msgn("Only {n} unbuilt edge remain between the wall's ends: the game ends (DS-92).",
                                     "Only {n} unbuilt edges remain between the wall's ends: the game ends (DS-92).",
                                     left),
                                kind="end_reason"))
            return True
    return False


def finish(st: "DieStadtState", events: list[Event]) -> None:
    """Close the wall with the remaining and imaginary pieces and score what
    it closes (DS-94 to DS-98, A-26), then the final scoring."""
    if st.wall.built:
        gap = st.wall.open_edges(st.outline)
    else:
        gap = st.outline.loop(top_edge(st.board))
    real = min(len(gap), st.wall.supply)
    st.wall.supply -= real
    st.closing = list(gap)
    st.imaginary = len(gap) - real
    if gap:
        events.append(Event(
            Msgn("The wall is closed with {n} piece and {imagined} imagined (DS-94 to DS-96).",
                 "The wall is closed with {n} pieces and {imagined} imagined (DS-94 to DS-96).",
                 real, imagined=st.imaginary) if st.imaginary else
            Msgn("The wall is closed with {n} piece (DS-94 to DS-96).",
                 "The wall is closed with {n} pieces (DS-94 to DS-96).", real),
            kind="closing"))
    roots = []
    for sp, side in gap:
        p = st.board[sp]
        roots += st.feats.close_edge(p, side, st.turned_at[p])
        nb = NEIGHBOURS[sp][side]
        if nb >= 0:
            st.blocked.add(nb)
    score_completed(st, roots, events, "the closing wall")
    final_scoring(st, events)
    st.over = True
    st.decision = None
    st.queue = []
    ranking = comma_list([Msg("seat {seat} {points}", seat=s.seat + 1, points=s.points)
                          for s in sorted(st.scores(), key=lambda s: (s.rank, s.seat))])
    events.append(Event(Msg("Game over. Final scores: {ranking}.", ranking=ranking), kind="end",
                        data={"scores": [s.points for s in st.scores()]}))
