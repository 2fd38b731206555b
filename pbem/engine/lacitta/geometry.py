"""Precomputed site-graph tables (RULINGS.md "Adjacency and distance").

Distances are counted in steps along the site graph (landscape is never
walked through); "N sites between" two sites means a distance of N + 1.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

from pbem.engine.lacitta.board import REGIONS, SITES

NAMES: tuple[str, ...] = tuple(SITES)                      # reading order
ORDER = {n: i for i, n in enumerate(NAMES)}                # reading-order key
NBR: dict[str, tuple[str, ...]] = {n: s.neighbours for n, s in SITES.items()}
PLAYERS: dict[str, int] = {n: s.players for n, s in SITES.items()}


def _bfs(src: str) -> dict[str, int]:
    dist = {src: 0}
    todo = deque([src])
    while todo:
        s = todo.popleft()
        d = dist[s] + 1
        for n in NBR[s]:
            if n not in dist:
                dist[n] = d
                todo.append(n)
    return dist


DIST: dict[str, dict[str, int]] = {n: _bfs(n) for n in NAMES}
# sites closer than the castle spacing (3 free sites between = distance 4)
# sites used at each player count, reading order
USABLE: dict[int, tuple[str, ...]] = {n: tuple(s for s in NAMES if PLAYERS[s] <= n) for n in (2, 3, 4, 5)}
BALL3: dict[str, tuple[str, ...]] = {n: tuple(m for m, d in DIST[n].items() if d <= 3) for n in NAMES}


class Terrain:
    """What the landscape gives each site: ``food`` (grain of adjacent fields,
    for a castle or farm), ``mountains`` (gold a year for a quarry) and
    ``water`` (a fountain or bathhouse may stand there)."""

    __slots__ = ("food", "mountains", "water")

    def __init__(self, landscape: dict[str, str]) -> None:
        self.food: dict[str, int] = {}
        self.mountains: dict[str, int] = {}
        self.water: dict[str, bool] = {}
        for n, s in SITES.items():
            food = mountains = 0
            water = False
            for rid in s.regions:
                reg = REGIONS[rid]
                kind, grain = (reg.kind, reg.grain) if reg.fixed else _tile(landscape[rid])
                if kind == "field":
                    food += grain
                elif kind == "mountain":
                    mountains += 1
                elif kind == "water":
                    water = True
            self.food[n] = food
            self.mountains[n] = mountains
            self.water[n] = water


def _tile(code: str) -> tuple[str, int]:
    if code.startswith("F"):
        return "field", int(code[1:])
    return ("mountain", 0) if code == "M" else ("water", 0)


@lru_cache(maxsize=256)
def _terrain(key: tuple[tuple[str, str], ...]) -> Terrain:
    return Terrain(dict(key))


def terrain(landscape: dict[str, str]) -> Terrain:
    return _terrain(tuple(sorted(landscape.items())))
