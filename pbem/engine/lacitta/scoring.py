"""Final scoring (la-citta.fi.txt "Loppupisteytys"; "Erikoinen kuudes
pelivuosi"): 1 point per citizen, 3 per complete city (a printed arch of
each colour), −5 for a famine in year 6; ties go to more gold, then are
shared."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event, Score
from pbem.engine.lacitta import data as D
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import Seat, semi_list

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def scores(s: "LaCittaState") -> list[Score]:
    """One :class:`Score` per seat: points, gold as tiebreak, rank and the
    parts (``citizens``, ``complete_cities``, ``famine_penalty``)."""
    rows = []
    for p in range(s.n):
        cit = s.citizens(p)
        comp = sum(1 for c in s.cities_of(p) if s.complete(c))
        pen = D.FAMINE_PENALTY if s.famine6[p] else 0
        pts = cit + D.COMPLETE_CITY_BONUS * comp - pen
        rows.append((p, pts, s.gold[p], {"citizens": cit, "complete_cities": comp,
                                          "famine_penalty": -pen}))
    out = []
    for p, pts, gold, detail in rows:
        rank = 1 + sum(1 for q in rows if (q[1], q[2]) > (pts, gold))
        out.append(Score(p, pts, gold, rank, detail))
    return out


def game_over(s: "LaCittaState") -> Event:
    """The last event: the ranking."""
    sc = scores(s)
    ranking = semi_list([Msgn("{seat}: {n} point, {gold} gold (rank {rank})",
                              "{seat}: {n} points, {gold} gold (rank {rank})", x.points,
                              seat=Seat(x.seat), gold=x.tiebreak, rank=x.rank)
                         for x in sorted(sc, key=lambda x: x.rank)])
    return Event(Msg("Game over. {ranking}.", ranking=ranking), kind="game_over",
                 data={"scores": [{"seat": x.seat, "points": x.points, "gold": x.tiebreak,
                                   "rank": x.rank} for x in sc]})
