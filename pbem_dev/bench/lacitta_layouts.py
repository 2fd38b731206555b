"""Search for La Città beginner layouts (run by hand; prints Python data).

    .venv/bin/python pbem_dev/bench/lacitta_layouts.py [seed]

Finds one landscape (every tile kind spread over the board) and, for 2..5
players, two starting castles per seat on sites of that player count, at
least 3 sites apart (RULINGS.md), each touching grain (2 to 4 food), every seat
starting with 6 food.  The output is pasted into
``BEGINNER`` in pbem/engine/lacitta/board.py; tests check the constraints.
"""
from __future__ import annotations

import random
import sys
from collections import deque

from pbem.engine.lacitta.board import REGIONS, SITES, SLOTS, TILES


def distances(src: str) -> dict[str, int]:
    dist = {src: 0}
    todo = deque([src])
    while todo:
        s = todo.popleft()
        for n in SITES[s].neighbours:
            if n not in dist:
                dist[n] = dist[s] + 1
                todo.append(n)
    return dist


DIST = {s: distances(s) for s in SITES}


def food(site: str, land: dict[str, str]) -> int:
    total = 0
    for rid in SITES[site].regions:
        reg = REGIONS[rid]
        if reg.fixed:
            total += reg.grain if reg.kind == "field" else 0
        elif land[rid].startswith("F"):
            total += int(land[rid][1])
    return total


def water(site: str, land: dict[str, str]) -> bool:
    return any((REGIONS[r].fixed and REGIONS[r].kind == "water") or land.get(r) == "L"
               for r in SITES[site].regions)


def place(seats: int, land: dict[str, str], rng: random.Random, per_seat: int):
    """Two castles per seat, each giving 2..4 food, every seat ``per_seat``
    in total, castles at least 4 free sites apart."""
    cand = [s for s in SITES if SITES[s].players <= seats and 2 <= food(s, land) <= per_seat - 2]
    for _ in range(20000):
        rng.shuffle(cand)
        chosen: list[str] = []
        for s in cand:
            if all(DIST[s][c] >= 5 for c in chosen):
                chosen.append(s)
            if len(chosen) == 2 * seats:
                break
        if len(chosen) < 2 * seats:
            continue
        pairs = _pair(chosen, land, per_seat)
        if pairs:
            return [sorted(p) for p in pairs]
    return None


def _pair(castles: list[str], land: dict[str, str], total: int):
    if not castles:
        return []
    first, rest = castles[0], castles[1:]
    for other in rest:
        if food(first, land) + food(other, land) == total:
            sub = _pair([c for c in rest if c != other], land, total)
            if sub is not None:
                return [[first, other], *sub]
    return None


def main(seed: int = 7) -> None:
    rng = random.Random(seed)
    tiles = [code for code, n in TILES.items() for _ in range(n)]
    while True:
        rng.shuffle(tiles)
        land = dict(zip(SLOTS, tiles))
        # lakes and mountains not bunched: no two touching the same site
        bad = any(sum(1 for r in s.regions if land.get(r) in ("L", "M")) > 1 for s in SITES.values())
        if not bad:
            break
    out = {}
    for seats in (2, 3, 4, 5):
        res = place(seats, land, rng, 6)
        assert res, seats
        out[seats] = res
    print("_LANDSCAPE =", land)
    print("_CASTLES =", out)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
