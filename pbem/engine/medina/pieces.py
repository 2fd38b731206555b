"""Medina components (medina.fi.txt "Sisältö", "Alkutoimet"; RULINGS.md)."""
from __future__ import annotations

PALACE_COLOURS = ("grey", "black", "brown", "orange")
"""Palace colours in the order of their palace tiles' value."""

PALACE_TILE_POINTS = {"grey": 1, "black": 2, "brown": 3, "orange": 4}
"""Points of each palace tile (RULINGS.md)."""

TOWER_TILE_POINTS = {1: 1, 2: 2, 3: 3, 4: 4}
"""Tower tile n is worth n points (RULINGS.md)."""

SEAT_COLOURS = ("red", "yellow", "blue", "green")
"""Dome and screen colour of seats 1..4 (the dome colours of the first edition)."""

KINDS = ("palace", "dome", "stable", "merchant", "wall")
"""The kinds of piece an order places."""

EMPTY, PALACE, STABLE, MERCHANT = 0, 1, 2, 3
"""What a square holds (``MedinaState.kind``): nothing, a palace piece, a
stable or a merchant. Domes sit on palace pieces; walls are on the ring."""

STARTING_SUPPLY = {
    # "3 pelaajan pelissä ... 4 kupolia, 6 palatsipalaa per väri, 4 tallia, 8 asukasta ja 10 muuripalaa"
    3: {"palace": 6, "domes": 4, "stables": 4, "merchants": 8, "walls": 10},
    # "4 pelaajan pelissä ... 4 kupolia, 5 palatsipalaa per väri, 3 tallia, 6 asukasta ja 8 muuripalaa"
    4: {"palace": 5, "domes": 4, "stables": 3, "merchants": 6, "walls": 8},
}

SUPPLY_KEYS = PALACE_COLOURS + ("domes", "stables", "merchants", "walls")
"""Keys of a seat's supply dict: palace pieces per colour, then the rest."""

SUPPLY_KEY = {"dome": "domes", "stable": "stables", "merchant": "merchants", "wall": "walls"}
"""Piece kind (other than a palace piece, keyed by its colour) -> its supply key."""


def starting_supply(seats: int) -> dict[str, int]:
    """One seat's pieces behind its screen at the start (``ValueError`` for a
    seat count other than 3 or 4)."""
    if seats not in STARTING_SUPPLY:
        raise ValueError(f"Medina is for 3 or 4 players, not {seats}")
    base = STARTING_SUPPLY[seats]
    supply = {c: base["palace"] for c in PALACE_COLOURS}
    supply.update({k: base[k] for k in ("domes", "stables", "merchants", "walls")})
    return supply
