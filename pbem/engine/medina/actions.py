"""The one kind of Medina order: place a piece from behind the screen."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.api import Action
from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import KINDS, PALACE_COLOURS


@dataclass(frozen=True)
class Place(Action):
    """Place one piece: ``kind`` is one of ``palace dome stable merchant
    wall``; ``site`` a square (``"E5"``) or, for a wall, a wall space
    (``"W12"``); ``colour`` the palace colour for a palace piece, else
    ``None``.

    Text forms: ``palace orange E5``, ``dome E5``, ``stable F6``,
    ``merchant G2``, ``wall W12``.
    """

    kind: str
    site: str  # type: ignore[assignment]  (narrows Action.site)
    colour: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown piece kind {self.kind!r}")
        if (self.kind == "palace") != (self.colour is not None):
            raise ValueError("a palace piece needs a colour, other pieces none")
        if self.colour is not None and self.colour not in PALACE_COLOURS:
            raise ValueError(f"unknown palace colour {self.colour!r}")
        # hashed once: legal orders are looked up in sets on every apply
        object.__setattr__(self, "_hash", hash((self.kind, self.site, self.colour)))

    def __hash__(self) -> int:
        return self._hash

    def to_text(self) -> str:
        if self.kind == "palace":
            return f"palace {self.colour} {self.site}"
        return f"{self.kind} {self.site}"


# Every placement that can exist, made once: the engine hands out these
# objects instead of building new ones on every legal_actions call.
SQUARE_ACTIONS: dict[str, tuple[Place, ...]] = {
    kind: tuple(Place(kind, B.square_name(i)) for i in range(B.SQUARES))
    for kind in ("dome", "stable", "merchant")}
PALACE_ACTIONS: dict[str, tuple[Place, ...]] = {
    c: tuple(Place("palace", B.square_name(i), c) for i in range(B.SQUARES))
    for c in PALACE_COLOURS}
WALL_ACTIONS: tuple[Place, ...] = tuple(Place("wall", B.wall_name(w)) for w in range(B.WALLS))
