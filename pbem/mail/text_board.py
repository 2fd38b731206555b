"""A game's text view (``Game.view_text``) cut into prose and grids, so the
HTML part can keep a text board's columns on a phone.

A grid is a run of at least :data:`MIN_ROWS` consecutive lines made of
short tokens (a board drawn in characters: ``" 3 - . . m . *"``, a
header ``"A B C D"``); wrapped at a 375 px screen such a row breaks into
two half-rows that read as garbage. Everything else is prose, which wraps
as usual. No game is named: the shape of the lines decides.
"""
from __future__ import annotations

from dataclasses import dataclass

#: consecutive grid-like lines that make a grid (a lone short-token line,
#: e.g. "T15: 0 180 · S16: 0 180", is prose)
MIN_ROWS = 3
#: tokens a grid line has at least, and the longest token it may hold
MIN_TOKENS, MAX_TOKEN = 6, 4


@dataclass(frozen=True)
class Block:
    """``text`` (lines joined by ``\\n``) and whether it is a ``grid``."""

    text: str
    grid: bool


def _grid_like(line: str) -> bool:
    tokens = line.split()
    return len(tokens) >= MIN_TOKENS and all(len(t) <= MAX_TOKEN for t in tokens)


def blocks(text: str) -> list[Block]:
    """``text`` as prose and grid blocks in order; joined with ``\\n`` they
    give ``text`` back (less a trailing newline)."""
    lines = (text or "").rstrip("\n").split("\n")
    marks = [_grid_like(line) for line in lines]
    out: list[Block] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and marks[j] == marks[i]:
            j += 1
        grid = marks[i] and j - i >= MIN_ROWS
        chunk = "\n".join(lines[i:j])
        if out and out[-1].grid == grid:
            out[-1] = Block(out[-1].text + "\n" + chunk, grid)
        else:
            out.append(Block(chunk, grid))
        i = j
    return [b for b in out if b.text.strip()] or [Block(text or "", False)]


__all__ = ["Block", "blocks", "MIN_ROWS"]
