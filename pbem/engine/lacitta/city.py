"""One La Città city: its castle, owner, citizens and buildings, and
whether a set of buildings still hangs together around the castle
(la-citta.fi.txt "Rakennuksen sijoittaminen"; RULINGS.md "Demolition")."""
from __future__ import annotations

from pbem.engine.lacitta.geometry import NBR


class City:
    """One city: identified by its castle's site; ``sites`` are its buildings
    (castle first); ``citizens`` all grey citizens in it (castle included)."""

    __slots__ = ("castle", "owner", "citizens", "sites")

    def __init__(self, castle: str, owner: int, citizens: int, sites: list[str]) -> None:
        self.castle = castle
        self.owner = owner
        self.citizens = citizens
        self.sites = sites

    def spare(self) -> int:
        """Citizens in the castle beyond the one that must stay there."""
        return self.citizens - len(self.sites)


def connected(castle: str, sites: set | frozenset) -> bool:
    """Whether ``sites`` (castle included) form one group of neighbouring
    sites; False when the castle is not among them."""
    if castle not in sites:
        return False
    seen = {castle}
    todo = [castle]
    while todo:
        s = todo.pop()
        for n in NBR[s]:
            if n in sites and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(sites)
