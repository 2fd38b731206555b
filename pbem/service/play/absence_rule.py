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
from typing import Iterable

from pbem.service.core.absence_spans import Span, covering_end

__all__ = ["Span", "covering_end", "moved_deadline"]

ZERO = dt.timedelta(0)


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
