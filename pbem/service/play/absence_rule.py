"""The absence rule (njudge's), pure: where a declared absence moves a deadline.

No database, no clock: the same absences and deadline always give the same
answer (replaying them gives the same deadlines). Times are aware UTC
``datetime``; lengths are ``timedelta``.

The rule (issue 25; docs/long-games.md):

- a deadline moves only when it falls inside an absence (``start <= deadline
  < end``), and then to the absence's end plus the game's grace;
- absences that overlap (or touch) form one span: the deadline moves once,
  to the end of that span plus the grace, never twice;
- the move is never longer than what is left of the game's cap nor of the
  player's yearly budget; when nothing is left it does not move, and the
  missed-turn rules apply at the deadline as without an absence.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterable

ZERO = dt.timedelta(0)


@dataclass(frozen=True)
class Span:
    """One absence: from ``start`` (inclusive) to ``end`` (exclusive), UTC."""

    start: dt.datetime
    end: dt.datetime


def covering_end(deadline: dt.datetime, spans: Iterable[Span]) -> dt.datetime | None:
    """The end of the span of overlapping absences ``deadline`` falls in
    (absences that overlap or touch count as one), or None when no absence
    covers it. Order of ``spans`` does not matter."""
    ordered = sorted((s for s in spans if s.end > s.start), key=lambda s: (s.start, s.end))
    run_start = run_end = None
    for span in ordered:
        if run_end is not None and span.start <= run_end:
            run_end = max(run_end, span.end)
            continue
        if run_start is not None and run_start <= deadline < run_end:
            return run_end
        run_start, run_end = span.start, span.end
    if run_start is not None and run_start <= deadline < run_end:
        return run_end
    return None


def moved_deadline(deadline: dt.datetime, spans: Iterable[Span], *, grace: dt.timedelta,
                   cap_left: dt.timedelta, budget_left: dt.timedelta) -> dt.datetime:
    """``deadline`` moved by the absences ``spans`` of one seat in one game:
    to the covering span's end plus ``grace``, by at most ``cap_left`` (what
    is left of the game's cap) and ``budget_left`` (of the player's yearly
    budget). Returns ``deadline`` itself when no absence covers it or
    nothing is left."""
    end = covering_end(deadline, spans)
    if end is None:
        return deadline
    shift = min(end + max(grace, ZERO) - deadline, max(cap_left, ZERO), max(budget_left, ZERO))
    return deadline + shift if shift > ZERO else deadline
