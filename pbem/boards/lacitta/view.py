"""The La Città view, normalised for drawing: :func:`read_view` turns a
``State.view`` dict (any point of the game, setup included) into a
:class:`BoardView`; unknown keys are ignored, missing or malformed ones
drawn as absent.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.boards.lacitta.palette import NAMED_COLOURS, SEAT_COLOURS, WISHES


# Names the engine or a translation may use for the same buildings.
BUILDING_ALIASES = {
    "bauernhof": "farm", "steinbruch": "quarry", "marktplatz": "market", "statue": "statue",
    "klosterschule": "school", "monastery school": "school", "brunnen": "fountain",
    "badhaus": "bathhouse", "bath house": "bathhouse", "bath": "bathhouse",
    "universität": "university", "universitaet": "university", "cathedral": "dom",
}


@dataclass
class Building:
    """A building or castle on a site, as :func:`read_view` reads it."""

    site: str
    kind: str                      # "castle", "farm", ... (data.BUILDINGS)
    owner: int
    city: str | None               # castle site of its city
    notables: list[str] = field(default_factory=list)   # wish per Brot und Spiele notable
    harvest: bool = False          # a Reiche Ernte notable on this farm


@dataclass
class Player:
    """A seat in the header: colour (``#rrggbb``), name (``""``: "Seat 2" is drawn) and counts."""

    seat: int
    name: str
    colour: str
    food: int | None = None
    gold: int | None = None
    points: int | None = None


@dataclass
class BoardView:
    """A La Città view normalised for drawing (:func:`read_view`)."""

    seats: int
    landscape: dict[str, str]      # slot id -> tile code ("F2", "M", "L") or "" (empty)
    buildings: dict[str, Building]  # site -> building
    citizens: dict[str, int]       # castle site -> citizens of that city
    players: list[Player]
    phase: str = ""
    viewer: int | None = None
    to_move: frozenset[int] = frozenset()
    wishes: tuple[str, ...] = ()
    last: frozenset[str] = frozenset()   # sites the latest turn changed (outlined)


def as_int(x: Any) -> int | None:
    """``x`` as an int, ``None`` for a bool or anything that is not a number."""
    if isinstance(x, bool):
        return None
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def colour_of(value: Any, seat: int) -> str:
    """``value`` (a colour name such as ``"red"`` or ``#rrggbb``) as ``#rrggbb``; else the default
    colour of ``seat``."""
    if isinstance(value, str):
        v = value.strip().lower()
        if v in NAMED_COLOURS:
            return NAMED_COLOURS[v]
        if len(v) in (4, 7) and v.startswith("#") and all(c in "0123456789abcdef" for c in v[1:]):
            return v
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _kind(x: Any) -> str:
    k = str(x or "").strip().lower()
    return BUILDING_ALIASES.get(k, k)


def _seq(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else []


def read_view(view: Mapping[str, Any]) -> BoardView:
    """Normalise a La Città view (``pbem.engine.lacitta.view.make_view``) for
    drawing. Reads, all optional (a missing or malformed entry is drawn as
    absent, never an error):

    - ``seats``; ``phase`` (header text); ``viewer`` (marked "you");
      ``current_seats`` (marked as to move); ``wishes`` (this year's, shown
      once revealed);
    - ``landscape``: ``{slot: tile code}`` (``board.TILES``: ``F1 F2 F3 M L``);
      a missing slot is drawn empty;
    - ``buildings``: ``[{"site", "kind", "owner", "city", "notables":
      [{"seat", "wish"}], "harvest"}]`` (castles included, ``kind="castle"``);
    - ``cities``: ``[{"castle", "owner", "citizens", ...}]`` for the number on
      each castle;
    - ``last_sites``: sites the latest turn changed, outlined;
    - ``players``: ``[{"seat", "food", "gold", "points"}]`` plus, if the
      caller adds them, ``"name"`` and ``"colour"`` (a name such as ``"red"``
      or ``#rrggbb``; default: red, blue, green, yellow, purple by seat).
    """
    players = []
    for i, p in enumerate(_seq(view.get("players"))):
        p = p if isinstance(p, Mapping) else {}
        seat = as_int(p.get("seat"))
        seat = i if seat is None else seat
        players.append(Player(seat=seat, name=str(p.get("name") or ""),
                              colour=colour_of(p.get("colour") or p.get("color"), seat),
                              food=as_int(p.get("food")), gold=as_int(p.get("gold")), points=as_int(p.get("points"))))
    seats = as_int(view.get("seats")) or len(players) or 5
    raw_land = view.get("landscape")
    landscape = {str(k): str(v or "") for k, v in raw_land.items()} if isinstance(raw_land, Mapping) else {}

    buildings: dict[str, Building] = {}
    for b in _seq(view.get("buildings")):
        if not isinstance(b, Mapping) or not b.get("site"):
            continue
        site = str(b["site"]).upper()
        owner = as_int(b.get("owner"))
        notables = [str((n.get("wish") if isinstance(n, Mapping) else n) or "") for n in _seq(b.get("notables"))]
        buildings[site] = Building(site=site, kind=_kind(b.get("kind")), owner=0 if owner is None else owner,
                                   city=str(b["city"]).upper() if b.get("city") else None,
                                   notables=notables, harvest=bool(b.get("harvest")))
    citizens: dict[str, int] = {}
    for c in _seq(view.get("cities")):
        if isinstance(c, Mapping) and c.get("castle") and as_int(c.get("citizens")) is not None:
            castle = str(c["castle"]).upper()
            citizens[castle] = as_int(c["citizens"])
            if castle not in buildings:      # a city listed without its castle building
                owner = as_int(c.get("owner"))
                buildings[castle] = Building(castle, "castle", 0 if owner is None else owner, castle)

    known = {p.seat for p in players}
    for seat in sorted({b.owner for b in buildings.values()} - known):
        players.append(Player(seat=seat, name="", colour=colour_of(None, seat)))
    players.sort(key=lambda p: p.seat)
    to_move = frozenset(x for x in (as_int(s) for s in _seq(view.get("current_seats"))) if x is not None)
    wishes = tuple(str(w) for w in _seq(view.get("wishes")) if w in WISHES)
    return BoardView(seats=seats, landscape=landscape, buildings=buildings, citizens=citizens,
                     players=players, phase=str(view.get("phase") or ""), viewer=as_int(view.get("viewer")),
                     to_move=to_move, wishes=wishes,
                     last=frozenset(str(x).upper() for x in _seq(view.get("last_sites"))))
