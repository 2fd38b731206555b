"""A game's order help (``Game.order_help()``, plain text in two columns)
as blocks the HTML mail can lay out for any screen width.

The help is written for a fixed-width screen: indented rows whose order
starts the line and whose meaning starts at one column, meanings wrapped
onto lines indented to that column, and prose between. In a narrow mail
window a ``<pre>`` that wraps mixes the two columns, so the HTML part shows
each row as the order on one line and its meaning under it
(:func:`blocks`); the text part keeps the help as written.

The meaning column is found from the text: the column where most of the
help's indented fields begin after a run of two or more spaces. A row is an
indented line with a field starting exactly there (order = what is before
it, meaning = from there on); an indented line starting at that column
continues the row above; any other indented line is an order with no
meaning of its own (an example line, or several orders on one line); an
unindented line is prose (consecutive lines joined, as they were wrapped
only for width), and a one-line prose block right above rows is their
heading.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

_FIELD = re.compile(r"(?<=\S)  +(?=\S)")


@dataclass
class Row:
    """One order (as the player writes it) and what it does ("" if the
    line is only an example)."""

    order: str
    meaning: str = ""


@dataclass
class Block:
    """``kind`` is ``"heading"``, ``"text"`` or ``"rows"``; ``text`` for the
    first two, ``rows`` for the last."""

    kind: str
    text: str = ""
    rows: list[Row] = field(default_factory=list)


def meaning_column(text: str) -> int | None:
    """The column (0-based) where the meanings start, or ``None`` when no
    line is in two columns."""
    starts: Counter[int] = Counter()
    for line in text.splitlines():
        if not line.startswith(" "):
            continue
        indent = len(line) - len(line.lstrip(" "))
        starts.update(m.end() for m in _FIELD.finditer(line))
        if indent >= 6:
            starts[indent] += 1
    return starts.most_common(1)[0][0] if starts else None


def blocks(text: str) -> list[Block]:
    """``text`` (a game's order help) as :class:`Block` items in order."""
    col = meaning_column(text)
    out: list[Block] = []
    prose: list[str] = []

    def flush_prose(before_rows: bool) -> None:
        if prose:
            kind = "heading" if before_rows and len(prose) == 1 else "text"
            out.append(Block(kind, text=" ".join(prose)))
            prose.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            flush_prose(False)
            continue
        if not line.startswith(" "):
            prose.append(line.strip())
            continue
        flush_prose(True)
        if not out or out[-1].kind != "rows":
            out.append(Block("rows"))
        rows = out[-1].rows
        indent = len(line) - len(line.lstrip(" "))
        if col is not None and len(line) > col and line[col - 2:col] == "  " and line[col] != " " \
                and line[:col].strip():
            rows.append(Row(line[:col].strip(), line[col:].strip()))
        elif rows and indent >= 6:          # a wrapped line: it continues the row above
            last = rows[-1]
            if last.meaning or indent == col:
                last.meaning = f"{last.meaning} {line.strip()}".lstrip()
            else:
                last.order = f"{last.order} {line.strip()}"
        else:
            rows.append(Row(line.strip()))
    flush_prose(False)
    return out


__all__ = ["Row", "Block", "meaning_column", "blocks"]
