"""Spans of absences and the end of the run that covers an instant (issue
25), pure: shared by the absence rule (:mod:`pbem.service.play.absence_rule`)
and the notices that say "away until …" (:mod:`pbem.service.post.away_text`)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterable


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
