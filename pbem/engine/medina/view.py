"""The position as one seat sees it (docs/rules/medina.md "What each seat
sees"): everything on the board and the domes are public; the pieces behind
another seat's screen are not ("lukuun ottamatta kupoleita")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.medina import board as B
from pbem.engine.medina.decision import decision, rules_section
from pbem.engine.medina.lone import owes_dome
from pbem.engine.medina.pieces import SEAT_COLOURS
from pbem.engine.medina.tiles import towers_of
from pbem.engine.phrases import seat as seat_name

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState

sq = B.square_name


def make_view(st: "MedinaState", seat: int | None) -> dict[str, Any]:
    """The position as ``seat`` (``None``: a spectator) sees it, as JSON
    data. Other seats' pieces behind their screens are absent
    (``"supply": None``); domes are public."""
    players = [{"seat": s, "name": seat_name(s), "colour": SEAT_COLOURS[s],
                "domes": st.supply[s]["domes"], "claimed": list(st.claimed[s]),
                "supply": dict(st.supply[s]) if s == seat else None} for s in range(st.seats)]
    return {
        "game": "medina", "seats": st.seats, "viewer": seat, "step": st.step,
        "phase": st.phase(), "over": st.over, "setup": st.setup,
        "turn": {"seat": None if st.over else st.seat, "number": st.turn_no,
                 "piece": st.placed + 1, "must_dome": owes_dome(st)},
        "current_seats": st.current_seats(),
        "palaces": [{
            "id": p.id, "colour": p.colour, "squares": [sq(i) for i in p.squares],
            "stables": [sq(i) for i in p.stables], "owner": p.owner,
            "dome": None if p.dome is None else sq(p.dome), "complete": p.complete,
            "size": p.size, "towers": towers_of(st, p)} for p in st.palaces],
        "merchants": [sq(i) for i in st.merchants],
        "walls": {B.wall_name(w): t for w, t in enumerate(st.walls) if t},
        "palace_tiles": dict(st.palace_tiles),
        "tower_tiles": {str(t): s for t, s in st.tower_tiles.items()},
        "returned": list(st.returned),
        "players": players,
        "last_sites": list(st.last_sites),
        "scores": [{"seat": sc.seat, "points": sc.points, "rank": sc.rank,
                    "detail": sc.detail} for sc in st.scores()],
        "decision": decision(st, seat), "rules_section": rules_section(st),
    }
