"""The four kinds of Die Stadt orders (design 6.2).

* :class:`PlaceTile` ``tile F7 90 merchant E`` — the drawn tile, turned
  90 degrees clockwise, with an optional follower on the feature touching
  the named point.
* :class:`BuildGate` ``gate H3 N guard`` — the gate on an outline edge.
* :class:`BuildWall` ``wall cw guard`` — a wall piece at one end; ``guard``
  means "with a guard if still legal".
* :class:`PlaceTower` ``tower cw`` / ``no tower``.
"""
from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.api import Action


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
        text = f"tile {self.rotation}"
        return f"{text} {self.role} {self.point}" if self.role else text


@dataclass(frozen=True)
class BuildGate(Action):
    """``site`` an edge with its tile inside (``"H3N"``)."""

    site: str  # type: ignore[assignment]
    guard: bool = False

    def to_text(self) -> str:
        return f"gate {self.site[:-1]} {self.site[-1]}" + (" guard" if self.guard else "")

    @property
    def label(self) -> str:
        return "gate guard" if self.guard else "gate"


@dataclass(frozen=True)
class BuildWall(Action):
    """``end`` ``cw``/``ccw``; ``site`` the edge the piece goes on now."""

    end: str
    guard: bool = False
    site: str | None = None

    def to_text(self) -> str:
        return f"wall {self.end}" + (" guard" if self.guard else "")

    @property
    def label(self) -> str:
        return self.to_text()


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
