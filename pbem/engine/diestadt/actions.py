"""The four kinds of Die Stadt orders (design 6.2).

* :class:`PlaceTile` ``tile F7 90 merchant E`` — the drawn tile, turned
  90 degrees clockwise, with an optional follower on the feature touching
  the named point.
* :class:`BuildGate` ``gate H3 N guard`` — the gate on an outline edge.
* :class:`BuildWall` ``wall cw guard`` — a wall piece at one end, with a
  guard (refused when the guard is barred; a held line reads it "if still
  legal", docs/rules/diestadt.md "Guards").
* :class:`PlaceTower` ``tower cw`` / ``no tower``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.api import Action
from pbem.engine.messages import Msg, Msgc

#: the order page's questions (``Action.steps``), in the order they are asked
TURN = Msg("Turn the tile")
FOLLOWER = Msg("Follower")
GUARD = Msg("Guard")
_ROLES = {"citizen": Msgc("Die Stadt", "citizen"), "merchant": Msgc("Die Stadt", "merchant"), "overseer": Msg("overseer")}


def _guard_step(guard: bool) -> tuple[tuple[str, str], ...]:
    return ((GUARD, Msg("with a guard") if guard else Msg("no guard")),)


@dataclass(frozen=True)
class PlaceTile(Action):
    """``site`` a space (``"F7"``), ``rotation`` 0/90/180/270 clockwise from
    the drawn picture, ``role`` citizen/merchant/overseer or None, ``point``
    N NE E SE S SW W NW (board compass after turning) or None."""

    site: str  # type: ignore[assignment]
    rotation: int = 0
    role: str | None = None
    point: str | None = None

    def __post_init__(self) -> None:
        # hashed once: legal orders are looked up in sets on every apply
        object.__setattr__(self, "_hash", hash((self.site, self.rotation, self.role, self.point)))

    def __hash__(self) -> int:
        return self._hash

    def to_text(self) -> str:
        text = f"tile {self.site} {self.rotation}"
        return f"{text} {self.role} {self.point}" if self.role else text

    @property
    def label(self) -> str:
        return "tile"

    @property
    def steps(self) -> tuple[tuple[str, str], ...]:
        """The rotation (``"90°"``), then the follower (``"merchant at E"``
        or ``"no follower"``)."""
        who = (Msg("{role} at {point}", role=_ROLES.get(self.role, self.role), point=self.point)
               if self.role else Msg("no follower"))
        return ((TURN, f"{self.rotation}°"), (FOLLOWER, who))

    @property
    def mark(self) -> str | None:
        """The point the follower stands at, if any."""
        return self.point if self.role else None


@dataclass(frozen=True)
class BuildGate(Action):
    """``site`` an edge with its tile inside (``"H3N"``)."""

    site: str  # type: ignore[assignment]
    guard: bool = False

    def to_text(self) -> str:
        return f"gate {self.site[:-1]} {self.site[-1]}" + (" guard" if self.guard else "")

    @property
    def label(self) -> str:
        return "gate"

    @property
    def steps(self) -> tuple[tuple[str, str], ...]:
        return _guard_step(self.guard)


@dataclass(frozen=True)
class BuildWall(Action):
    """``end`` ``cw``/``ccw``; ``site`` the edge the piece goes on now;
    ``asked_guard``: a held line asked for a guard that is barred now, so
    the piece goes without it and the events say so (not part of the
    order: equal orders compare equal, and ``to_text`` is what was built)."""

    end: str
    guard: bool = False
    site: str | None = None
    asked_guard: bool = field(default=False, compare=False)

    def to_text(self) -> str:
        return f"wall {self.end}" + (" guard" if self.guard else "")

    @property
    def label(self) -> str:
        return f"wall {self.end}"

    @property
    def steps(self) -> tuple[tuple[str, str], ...]:
        return _guard_step(self.guard)


@dataclass(frozen=True)
class PlaceTower(Action):
    """``end`` ``cw``/``ccw``, or None for "no tower"; ``site`` the corner."""

    end: str | None = None
    site: str | None = None

    def to_text(self) -> str:
        return f"tower {self.end}" if self.end else "no tower"

    @property
    def label(self) -> str:
        return self.to_text()
