"""When a turn's reminder goes: a pure rule of its own, read by the
deadlines, the absences (an absence that moves a deadline may send the
reminder again) and the calendar feed's alarm, without importing the
deadline machinery (which imports the resolution)."""
from __future__ import annotations

import datetime as dt


def reminder_lead(reminder_seconds: int, deadline_seconds: int) -> dt.timedelta:
    """How long before the deadline a turn's reminder goes: the game's
    ``reminder_seconds``, but never in the first half of a turn
    (``deadline_seconds`` long), where it would come with "your move"."""
    return dt.timedelta(seconds=min(reminder_seconds, deadline_seconds / 2))


__all__ = ["reminder_lead"]
