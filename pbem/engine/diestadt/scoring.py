"""Scoring: streets and markets when completed, towers, and the final
scoring of overseers and guards ("Teiden ja torien pisteytys",
"Loppupisteitys", "Yhteenveto pisteytyksestä").

Points go into ``st.points[seat][category]`` with the categories of
:data:`CATEGORIES`; nothing is ever subtracted.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.diestadt.grid import edge_name, space_name
from pbem.engine.diestadt.tiles import HOMES, MARKET, STREET, building_points
from pbem.engine.messages import Msg, Msgn

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

CATEGORIES = ("streets", "markets", "towers", "overseers", "guards")


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


@lru_cache(maxsize=None)
def seat_word(seat: int) -> Msg:
    """``seat 1`` as a message (for seat index 0); kept, as the few other
    small messages below (an engine writes hundreds of them a game)."""
    return Msg("seat {seat}", seat=seat + 1)


@lru_cache(maxsize=None)
def tiles_word(n: int) -> Msg:
    return Msgn("{n} tile", "{n} tiles", n)


@lru_cache(maxsize=None)
def market_size(kinds: int, tiles: int) -> Msg:
    """``2 kinds x 3 tiles``."""
    return Msg("{kinds} x {tiles}", kinds=Msgn("{n} kind", "{n} kinds", kinds), tiles=tiles_word(tiles))


def comma_list(items: list) -> str:
    """``a, b, c`` as a message (one item as it is, none: empty)."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Msg("{list}, {item}", list=comma_list(items[:-1]), item=items[-1])


def _names(seats: list[int]) -> str:
    """``seat 1, seat 2 and seat 3`` as a message."""
    names = [seat_word(s) for s in seats]
    if len(names) == 1:
        return names[0]
    return Msg("{list} and {last}", list=comma_list(names[:-1]), last=names[-1])


def return_followers(st: "DieStadtState", root: int) -> list[int]:
    """Take the followers off feature ``root`` back to their supplies
    (DS-59, DS-83, DS-99); returns their seats."""
    seats = []
    for node in st.feats.fols.pop(root, []):
        seat = st.node_seat.pop(node)
        st.supply[seat] += 1
        seats.append(seat)
    return seats


_PLACE = (lambda sp: Msg("the street at {space}", space=sp),
          lambda sp: Msg("the market at {space}", space=sp),
          lambda sp: Msg("the residential area at {space}", space=sp))
_PLACE_CAP = (lambda sp: Msg("The street at {space}", space=sp),
              lambda sp: Msg("The market at {space}", space=sp),
              lambda sp: Msg("The residential area at {space}", space=sp))
#: what completed a feature, as the subject of the event sentence
_CAUSE = {"the tile": Msg("The tile"), "the wall": Msg("The wall"),
          "the closing wall": Msg("The closing wall")}


def feature_place(st: "DieStadtState", root: int, capital: bool = False) -> Msg:
    """A short name for a feature: its type and first space in reading order
    (``capital``: to begin a sentence)."""
    return _place(st.feats.ftype[root], min(st.feats.tiles[root]), capital)


@lru_cache(maxsize=4096)
def _place(ftype: int, space: int, capital: bool) -> Msg:
    return (_PLACE_CAP if capital else _PLACE)[ftype](space_name(space))


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
            how = tiles_word(tiles)
        else:
            kinds = feats.kind_count(root)
            cat, pts = "markets", market_points(tiles, kinds)
            how = market_size(kinds, tiles)
        fol_seats = [st.node_seat[n] for n in feats.fols.get(root, [])]
        winners = majority(fol_seats)
        for s in winners:
            st.points[s][cat] += pts
        return_followers(st, root)
        what = feature_place(st, root)
        if winners:
            text = Msgn("{cause} completes {what} ({how}): {names} scores {points}; followers go back.",
                        "{cause} completes {what} ({how}): {names} score {points}; followers go back.",
                        len(winners), cause=_CAUSE[cause], what=what, how=how,
                        names=_names(winners), points=pts)
        else:
            text = Msg("{cause} completes {what} ({how}); no follower, no points.",
                       cause=_CAUSE[cause], what=what, how=how)
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
                Msgn("{what} is unfinished: {names} takes {followers} back, no points (DS-99, DS-100).",
                     "{what} is unfinished: {names} take {followers} back, no points (DS-99, DS-100).",
                     len(set(seats)), what=feature_place(st, root, capital=True),
                     names=_names(sorted(set(seats))),
                     followers=Msgn("the follower", "the followers", len(seats))),
                kind="unfinished", data={"seats": seats}))
    bordering = feats.bordering_markets()
    for root in roots:
        if feats.ftype[root] != HOMES or not feats.fols.get(root):
            continue
        markets = len(bordering.get(root, ()))
        winners = majority([st.node_seat[n] for n in feats.fols[root]])
        pts = 2 * markets
        for s in winners:
            st.points[s]["overseers"] += pts
        events.append(Event(
            Msgn("Overseers: {what} borders {markets}: {names} scores {points}.",
                 "Overseers: {what} borders {markets}: {names} score {points}.",
                 len(winners), what=feature_place(st, root),
                 markets=Msgn("{n} market", "{n} markets", markets),
                 names=_names(winners), points=pts),
            kind="overseers", data={"markets": markets, "points": pts, "seats": winners}))
    for edge, seat in sorted(st.wall.guards.items()):
        row = st.wall.watch_row(edge, st.board)
        pts = sum(building_points(st.tile_at(sp)) for sp in row)
        st.points[seat]["guards"] += pts
        events.append(Event(
            Msgn("Guard of seat {seat} on {edge} watches {n} tile ({first}-{last}): {points}.",
                 "Guard of seat {seat} on {edge} watches {n} tiles ({first}-{last}): {points}.",
                 len(row), seat=seat + 1, edge=edge_name(edge), first=space_name(row[0]),
                 last=space_name(row[-1]), points=pts),
            kind="guards", data={"seat": seat, "edge": edge_name(edge), "points": pts}))
