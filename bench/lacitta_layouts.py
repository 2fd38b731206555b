"""Search for La Città beginner layouts (run by hand; prints Python data).

    .venv/bin/python bench/lacitta_layouts.py [seed]

Finds one landscape (every tile kind spread over the board) and, for 2..5
players, two starting castles per seat on sites of that player count, at
least 3 sites apart (RULINGS.md), each touching grain, every castle giving the
same food (so every seat starts equal).  The output is pasted into
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


def place(seats: int, land: dict[str, str], rng: random.Random, per_castle: int):
    cand = [s for s in SITES if SITES[s].players <= seats and food(s, land) == per_castle]
    for _ in range(20000):
        rng.shuffle(cand)
        chosen: list[str] = []
        for s in cand:
            if all(DIST[s][c] >= 6 for c in chosen):   # leave room to grow
                chosen.append(s)
            if len(chosen) == 2 * seats:
                break
        if len(chosen) == 2 * seats:
            # seat i gets castles i and 2*seats-1-i (snake, like the table)
            return [sorted([chosen[i], chosen[2 * seats - 1 - i]]) for i in range(seats)]
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
        res = place(seats, land, rng, 2)
        assert res, seats
        out[seats] = res
    print("_LANDSCAPE =", land)
    print("_CASTLES =", out)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
