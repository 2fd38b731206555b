"""Scoring: streets and markets when completed, towers, and the final
scoring of overseers and guards ("Teiden ja torien pisteytys",
"Loppupisteitys", "Yhteenveto pisteytyksestä").

Points go into ``st.points[seat][category]`` with the categories of
:data:`CATEGORIES`; nothing is ever subtracted.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.diestadt.grid import edge_name, space_name
from pbem.engine.diestadt.tiles import HOMES, MARKET, STREET, building_points

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

CATEGORIES = ("streets", "markets", "towers", "overseers", "guards")


def cap(text: str) -> str:
    """First letter upper case, the rest untouched (space names stay "T19")."""
    return text[:1].upper() + text[1:]


def seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def street_points(tiles: int) -> int:
    """DS-47 to DS-49, DS-120: 1 point per tile below 4 tiles, 2 per tile from 4."""
    return tiles * (1 if tiles < 4 else 2)


def market_points(tiles: int, kinds: int) -> int:
    """DS-53, DS-54, DS-120: tiles times distinct kinds of goods."""
    return tiles * kinds


def majority(seats: list[int]) -> list[int]:
    """The seats with the most followers among ``seats`` (one entry per
    follower); all tied seats share (DS-56, DS-57, DS-103, DS-104)."""
    if not seats:
        return []
    counts: dict[int, int] = {}
    for s in seats:
        counts[s] = counts.get(s, 0) + 1
    top = max(counts.values())
    return sorted(s for s, c in counts.items() if c == top)


def _names(seats: list[int]) -> str:
    names = [seat_name(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def return_followers(st: "DieStadtState", root: int) -> list[int]:
    """Take the followers off feature ``root`` back to their supplies
    (DS-59, DS-83, DS-99); returns their seats."""
    seats = []
    for node in st.feats.fols.pop(root, []):
        seat = st.node_seat.pop(node)
        st.supply[seat] += 1
        seats.append(seat)
    return seats


def feature_place(st: "DieStadtState", root: int) -> str:
    """A short name for a feature: its type and first space in reading order."""
    word = ("street", "market", "residential area")[st.feats.ftype[root]]
    return f"the {word} at {space_name(min(st.feats.tiles[root]))}"


def score_completed(st: "DieStadtState", roots: list[int], events: list[Event], cause: str) -> int:
    """Score every street and market among ``roots`` that is now complete and
    was not scored before (DS-43, DS-50, DS-56 to DS-59, DS-82, DS-83).
    ``cause`` words the event ("the tile", "the wall"). Returns how many
    streets and markets were completed (occupied or not: DS-69)."""
    feats = st.feats
    done = 0
    seen = set()
    for r in roots:
        root = feats.find(r)
        if root in seen or feats.ftype[root] == HOMES or feats.done[root] or feats.open[root] > 0:
            continue
        seen.add(root)
        feats.done[root] = True
        done += 1
        tiles = feats.size(root)
        if feats.ftype[root] == STREET:
            cat, pts = "streets", street_points(tiles)
            how = f"{tiles} tile{'s' if tiles > 1 else ''}"
        else:
            kinds = feats.kind_count(root)
            cat, pts = "markets", market_points(tiles, kinds)
            how = f"{kinds} kind{'s' if kinds > 1 else ''} x {tiles} tile{'s' if tiles > 1 else ''}"
        fol_seats = [st.node_seat[n] for n in feats.fols.get(root, [])]
        winners = majority(fol_seats)
        for s in winners:
            st.points[s][cat] += pts
        return_followers(st, root)
        what = feature_place(st, root)
        if winners:
            text = (f"{cap(cause)} completes {what} ({how}): {_names(winners)} "
                    f"score{'s' if len(winners) == 1 else ''} {pts}; followers go back.")
        else:
            text = f"{cap(cause)} completes {what} ({how}); no follower, no points."
        events.append(Event(text, kind="complete", data={
            "feature": cat[:-1], "tiles": tiles, "points": pts, "seats": winners}))
    return done


def final_scoring(st: "DieStadtState", events: list[Event]) -> None:
    """DS-99 to DS-113, A-27: remove followers from unfinished streets and
    markets, then score overseers (2 per bordering market, majority) and
    guards (2 per public, 3 per historic building in the watch row). The
    closing wall has already been built by the caller (DS-94 to DS-98)."""
    feats = st.feats
    roots = feats.roots(st.placed_count, st.turned_at)
    for root in roots:
        if feats.ftype[root] in (STREET, MARKET) and feats.fols.get(root):
            seats = return_followers(st, root)
            events.append(Event(
                f"{cap(feature_place(st, root))} is unfinished: "
                f"{_names(sorted(set(seats)))} take{'s' if len(set(seats)) == 1 else ''} "
                f"the follower{'s' if len(seats) > 1 else ''} back, no points (DS-99, DS-100).",
                kind="unfinished", data={"seats": seats}))
    for root in roots:
        if feats.ftype[root] != HOMES or not feats.fols.get(root):
            continue
        markets = len(feats.bordering_markets(root))
        winners = majority([st.node_seat[n] for n in feats.fols[root]])
        pts = 2 * markets
        for s in winners:
            st.points[s]["overseers"] += pts
        events.append(Event(
            f"Overseers: {feature_place(st, root)} borders {markets} market"
            f"{'' if markets == 1 else 's'}: {_names(winners)} score{'s' if len(winners) == 1 else ''} {pts}.",
            kind="overseers", data={"markets": markets, "points": pts, "seats": winners}))
    for edge, seat in sorted(st.wall.guards.items()):
        row = st.wall.watch_row(edge, st.board)
        pts = sum(building_points(st.tile_at(sp)) for sp in row)
        st.points[seat]["guards"] += pts
        events.append(Event(
            f"Guard of {seat_name(seat)} on {edge_name(edge)} watches {len(row)} tile"
            f"{'' if len(row) == 1 else 's'} ({space_name(row[0])}-{space_name(row[-1])}): {pts}.",
            kind="guards", data={"seat": seat, "edge": edge_name(edge), "points": pts}))
