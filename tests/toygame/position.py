"""Pebbles position text: one fact per line, ``#`` comments::

    heap wbwww      # top first
    points 3 2
    black 1 0
    turn 2          # the seat to take, numbered from 1
    step 4
"""
from __future__ import annotations

from typing import Any

FACTS = ("heap", "points", "black", "turn", "step")


def dump(state) -> str:
    d = state.d
    return (f"heap {d['heap'] or '-'}\npoints {' '.join(map(str, d['points']))}\n"
            f"black {' '.join(map(str, d['black']))}\nturn {d['turn'] + 1}\nstep {d['step']}\n")


def _fact(key: str, words: list[str], d: dict[str, Any]) -> None:
    if key == "heap":
        heap = "" if words == ["-"] else "".join(words)
        if set(heap) - {"w", "b"}:
            raise ValueError("heap: only w and b")
        d["heap"] = heap
    elif key in ("points", "black"):
        d[key] = [int(w) for w in words]
    else:
        (word,) = words
        d[key] = int(word) - (key == "turn")


def load(game, text: str):
    from tests.toygame.game import PebblesState

    d: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), 1):
        key, *words = line.split("#", 1)[0].split() or [""]
        if not key:
            continue
        try:
            if key not in FACTS:
                raise ValueError(f"no fact {key!r}")
            _fact(key, words, d)
        except ValueError as err:
            raise ValueError(f"line {number}: {line!r}: {err}") from None
    missing = [key for key in FACTS if key not in d]
    if missing or len(d["points"]) != len(d["black"]):
        raise ValueError(f"the position lacks {', '.join(missing) or 'a black count per seat'}")
    return PebblesState(game, d)
