"""What one seat (or a spectator) may see of a La Città position.

Hidden: the order of the political and Voice of the People decks, the three
face-down Voice cards until they are revealed (except, for a seat, the cards
it looked at with Bürgernähe this year).  Everything else is public, as at
the table.

Shape (JSON-able)::

    {"game": "lacitta", "seats": 4, "viewer": 0 | None, "year": 2, "round": 3,
     "phase": "Year 2, political round 3", "phase_key": "political",
     "start_player": 1, "current_seats": [2], "setup": "beginner",
     "landscape": {"T1": "F1", ...},           # slot -> tile code (board.TILES)
     "buildings": [{"site": "F7", "kind": "farm", "owner": 0, "city": "C3",
                    "notables": [{"seat": 0, "wish": "culture"}], "harvest": false}, ...],
     "cities": [{"castle": "C3", "owner": 0, "citizens": 5, "buildings": 4,
                 "limit": 8 | None, "arches": {"culture": 1, ...},
                 "printed_arches": {...}, "complete": false, "food": 4}, ...],
     "players": [{"seat": 0, "gold": 3, "food": 8, "citizens": 9, "action_cards": 2,
                  "political_played": 1, "notables_free": 4, "castles_left": 2,
                  "founded_this_year": false, "famine_next_year": false,
                  "famine_year6": false, "points": 9}, ...],
     "display": ["dom", "golden age", ...], "deck_size": 18, "discard_size": 0,
     "voice": [{"position": 1, "wish": "health", "face_up": true},
               {"position": 2, "wish": null, "face_up": false}, ...],
     "wishes": ["health"] (after the reveal),
     "supply": {"farm/quarry": 37, ...},
     "pending": {"2": "starve 3"} (year-end decisions owed, public),
     "private": {"seat": 0, "peeked": {"2": "culture"}, "action_cards": 2} | None,
     "decision": {"kind": "starve", "owes", "why", "rule", "rules"} | None (the viewer's),
     "rules_section": {"id": "yearend", "question": "How do ... work?"},
     "last_sites": ["F7", "C3"] (sites the latest order changed; decision.py)}
"""
from __future__ import annotations

from typing import Any

from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.decision import decision, rules_section
from pbem.engine.lacitta.geometry import ORDER


def make_view(s, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of the position ``s``, in the
    shape this module's docstring gives."""
    mine = seat is not None and 0 <= seat < s.n
    peeked = set(s.peeked[seat]) if mine else set()
    private = None
    if mine:
        private = {"seat": seat,
                   "peeked": {str(i + 1): s.voice[i] for i in sorted(peeked) if i < len(s.voice)},
                   "action_cards": s.actions[seat]}
    return {
        "game": "lacitta", "seats": s.n, "viewer": seat, "year": s.year, "round": s.round,
        "phase": s.phase(), "phase_key": s.phase_name, "start_player": s.start,
        "current_seats": s.current_seats(), "setup": s.setup, "step": s.step,
        "landscape": dict(s.landscape), "buildings": _buildings(s), "cities": _cities(s),
        "players": _players(s),
        "display": list(s.display), "deck_size": len(s.deck), "discard_size": len(s.discard),
        "voice": _voice(s, peeked), "wishes": list(s.wishes),
        "supply": {p: D.SUPPLY[p] - s.used[p] for p in D.SUPPLY},
        "pending": _pending(s), "private": private,
        "decision": decision(s, seat), "rules_section": rules_section(s),
        "last_sites": list(s.last_sites),
    }


def _buildings(s) -> list[dict[str, Any]]:
    """Every building in board order, with its city, notables and Reiche Ernte mark."""
    harvest = set(s.harvest)
    notables: dict[str, list] = {}
    for site, who, wish in s.notables:
        notables.setdefault(site, []).append({"seat": who, "wish": wish})
    buildings = []
    for site in sorted(s.occ, key=ORDER.__getitem__):
        city = s.cities[s.occ[site]]
        buildings.append({"site": site, "kind": s.kind[site], "owner": city.owner, "city": city.castle,
                          "notables": notables.get(site, []), "harvest": site in harvest})
    return buildings


def _cities(s) -> list[dict[str, Any]]:
    """Every city by its castle's board order: citizens, size limit, arches, food."""
    cities = []
    for c in sorted(s.cities.values(), key=lambda c: ORDER[c.castle]):
        cap = s.capacity(c)
        cities.append({
            "castle": c.castle, "owner": c.owner, "citizens": c.citizens, "buildings": len(c.sites),
            "sites": sorted(c.sites, key=ORDER.__getitem__),
            "limit": None if cap >= 10 ** 6 else cap,
            "arches": {w: s.arches(c, w) for w in D.WISHES},
            "printed_arches": {w: s.arches(c, w, notables=False) for w in D.WISHES},
            "complete": s.complete(c),
            "food": sum(s.terrain.food[x] for x in c.sites if s.kind[x] in ("castle", "farm")),
        })
    return cities


def _players(s) -> list[dict[str, Any]]:
    """Each seat's public supplies, flags and points."""
    scores = {sc.seat: sc.points for sc in s.scores()}
    return [{
        "seat": p, "gold": s.gold[p], "food": s.food[p], "harvest_food": s.harvest_bonus(p),
        "citizens": s.citizens(p), "action_cards": s.actions[p],
        "political_played": len(s.played[p]), "notables_free": s.notables_free(p),
        "castles_left": s.castles_left(p), "founded_this_year": s.founded[p],
        "famine_next_year": s.famine_next[p], "famine_year6": s.famine6[p], "points": scores[p],
    } for p in range(s.n)]


def _voice(s, peeked: set[int]) -> list[dict[str, Any]]:
    """The four Voice of the People cards: the first face up, the others
    once revealed; a face-down card's wish only for a seat that ``peeked``."""
    voice = []
    for i, w in enumerate(s.voice):
        up = i == 0 or s.revealed
        voice.append({"position": i + 1, "face_up": up,
                      "wish": w if up or i in peeked else None})
    return voice


def _pending(s) -> dict[str, str]:
    """The year-end or migration decisions owed, by seat (public)."""
    pending = {}
    if s.phase_name == "yearend":
        for p, ye in s.yearend.items():
            if ye["stage"] == "starve":
                pending[str(p)] = f"starve {ye['excess']}"
            else:
                pending[str(p)] = "demolish " + ", ".join(
                    f"{c.castle} {len(c.sites) - c.citizens}" for c in s.cities_of(p)
                    if len(c.sites) > c.citizens)
    elif s.phase_name == "migration":
        p = s.order()[s.mig_index]
        pending[str(p)] = "wish " + ", ".join(c for c, w in s.wish_choice.items() if w is None)
    return pending
