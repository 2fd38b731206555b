"""Scoring ("Pisteytys"; docs/rules/medina.md "Scoring"): each claimed
palace scores 1 per palace piece, stable, and merchant and wall piece
orthogonally next to it; then the palace and tower tiles held."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Score
from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import MERCHANT, PALACE_TILE_POINTS, TOWER_TILE_POINTS
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState, Palace

#: the scoring rules as :func:`score_breakdown` rows: ``(Score.detail key, label)``
SCORE_ROWS = (("palaces", Msg("palace pieces")), ("stables", Msg("stables")), ("merchants", Msg("merchants")),
              ("walls", Msg("wall pieces")), ("palace_tiles", Msg("palace tiles")), ("tower_tiles", Msg("tower tiles")))


def palace_points(st: "MedinaState", p: "Palace") -> dict[str, int]:
    """"Pisteytys": 1 per palace piece, stable, and merchant and wall piece
    orthogonally next to a piece or stable of the palace (each counted
    once per palace): ``{"pieces", "stables", "merchants", "walls"}``."""
    cells = p.squares + p.stables
    around = {j for i in cells for j in B.ORTH[i]}
    merchants = sum(1 for j in around if st.kind[j] == MERCHANT)
    walls = {w for i in cells for w in B.SQUARE_WALLS[i] if st.walls[w]}
    return {"pieces": len(p.squares), "stables": len(p.stables),
            "merchants": merchants, "walls": len(walls)}


def scores(st: "MedinaState") -> list[Score]:
    """Points per seat: claimed palaces (pieces, stables, neighbouring
    merchants and walls) plus palace and tower tiles held. Ties share
    the rank ("yhteinen voitto"); ``tiebreak`` is always 0."""
    detail = [{"palaces": 0, "stables": 0, "merchants": 0, "walls": 0,
               "palace_tiles": 0, "tower_tiles": 0} for _ in range(st.seats)]
    for p in st.palaces:
        if p.owner is None:
            continue
        pts = palace_points(st, p)
        d = detail[p.owner]
        d["palaces"] += pts["pieces"]
        d["stables"] += pts["stables"]
        d["merchants"] += pts["merchants"]
        d["walls"] += pts["walls"]
    for c, s in st.palace_tiles.items():
        if s is not None:
            detail[s]["palace_tiles"] += PALACE_TILE_POINTS[c]
    for t, s in st.tower_tiles.items():
        if s is not None:
            detail[s]["tower_tiles"] += TOWER_TILE_POINTS[t]
    points = [sum(d.values()) for d in detail]
    return [Score(seat=s, points=points[s], tiebreak=0,
                  rank=1 + sum(1 for q in points if q > points[s]), detail=detail[s])
            for s in range(st.seats)]


def score_breakdown(st: "MedinaState") -> list[tuple[Msg, dict[int, int]]]:
    """"Pisteytys" row by row: palace pieces, stables, merchants and wall
    pieces of the seat's palaces, then palace and tower tiles; each
    ``(label, {seat: points})``, summing to :func:`scores`."""
    rows = scores(st)
    return [(label, {s.seat: s.detail[key] for s in rows}) for key, label in SCORE_ROWS]
