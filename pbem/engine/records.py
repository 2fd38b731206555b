"""What a game reports besides its position: :class:`Event` (one line of
the game log, public or for one seat) and :class:`Score` (one seat's
standing)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened, with one line for the game log.

    ``text`` is a :class:`~pbem.engine.messages.Msg` (its English text;
    the service keeps the template: ``pbem.i18n.stored_event_data``).

    ``seat`` is ``None`` for a public event, else the only seat that may see
    it (private events: a card looked at with Bürgernähe, a piece count
    behind a screen). ``kind`` is a short machine tag (``"build"``,
    ``"migration"``); ``data`` is JSON-serialisable detail.
    """

    text: str
    seat: int | None = None
    kind: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        """True when ``seat`` (``None`` = spectator) may see this event."""
        return self.seat is None or self.seat == seat

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "seat": self.seat, "kind": self.kind, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Event":
        return cls(d["text"], d.get("seat"), d.get("kind", ""), dict(d.get("data") or {}))


@dataclass(frozen=True)
class Score:
    """Final standing of one seat: ``points`` then ``tiebreak`` (La Città:
    gold) decide; ``rank`` is 1 for the winner(s), shared on a full tie."""

    seat: int
    points: int
    tiebreak: int
    rank: int
    detail: dict[str, int] = field(default_factory=dict)
