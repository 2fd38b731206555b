"""The pictures the board tests draw, in a module of their own so a fresh
process (:mod:`tests.boards.fresh`) draws them without importing pytest."""
from __future__ import annotations

from pbem.engine.lacitta.board import BEGINNER, SITES


def text_svg(family: str = "DejaVu Sans", weight: str = "normal", text: str = "F7 Castle") -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100">'
        '<rect width="300" height="100" fill="#fff"/>'
        f'<text x="150" y="62" text-anchor="middle" font-family="{family}" '
        f'font-weight="{weight}" font-size="36">{text}</text></svg>'
    )


def sample_view(seats: int = 3) -> dict:
    """A view in the engine's shape (pbem.engine.lacitta.view): beginner
    landscape and castles, and a market and a hospital with a notable next
    to seat 1's first castle."""
    layout = BEGINNER[seats]
    castles = layout["castles"]
    first = castles[0][0]
    nbs = list(SITES[first].neighbours)
    buildings = [{"site": site, "kind": "castle", "owner": seat, "city": site, "notables": [], "harvest": False}
                 for seat, pair in enumerate(castles) for site in pair]
    buildings += [
        {"site": nbs[0], "kind": "market", "owner": 0, "city": first, "notables": [], "harvest": False},
        {"site": nbs[1], "kind": "hospital", "owner": 0, "city": first,
         "notables": [{"seat": 0, "wish": "education"}], "harvest": False},
    ]
    cities = [{"castle": site, "owner": seat, "citizens": 7 if site == first else 3}
              for seat, pair in enumerate(castles) for site in pair]
    return {
        "game": "lacitta", "seats": seats, "viewer": 0, "phase": "Year 1, political round 2",
        "current_seats": [1], "wishes": [],
        "landscape": dict(layout["landscape"]),
        "buildings": buildings, "cities": cities,
        "players": [{"seat": i, "food": 3, "gold": 1, "points": 6} for i in range(seats)],
    }
