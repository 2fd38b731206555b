"""Absences (issue 25's): ``GET /api/v1/absences``, mine not over yet,
and ``GET /api/v1/games/<id>/away``, who at a game's table is away until
when (as its page shows everyone). Read only. Issue 28; docs/api.md."""
from __future__ import annotations

from flask import g

from pbem.service.play.absence_views import away_seats, own
from pbem.web.api.access import game_or_problem
from pbem.web.api.core import route
from pbem.web.api.games import ID
from pbem.web.api.schemas import Absence, AbsenceList, Away, AwayList


@route("/v1/absences", answers={"HTTP_200": AbsenceList}, tags=("absences",))
def my_absences():
    """My absences

    The absences I declared that are not over yet, soonest first (a
    token limited to one game: those of that game and of every game)."""
    token = g.api_token
    return AbsenceList(absences=[
        Absence(id=a.id, start=a.start, end=a.end, game=a.game_id) for a in own(token.player_id)
        if token.game_id is None or a.game_id in (None, token.game_id)])


@route(f"/v1/games/<{ID}:game_id>/away", answers={"HTTP_200": AwayList}, tags=("absences",))
def away(game_id: int):
    """Who is away

    The seats of the game whose players are away now, and until when."""
    game = game_or_problem(game_id)
    return AwayList(game=game.id, away=[Away(seat=index + 1, until=until)
                                        for index, until in sorted(away_seats(game).items())])
