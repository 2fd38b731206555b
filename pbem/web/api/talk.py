"""``GET /api/v1/games/<id>/seats/<n>/talk?after=ID``: the table talk my
seat may read (issue 26's rules, :func:`pbem.service.play.talk_read.
messages_for`: public messages, my own, those to my seat while I held
it; muted seats left out), oldest first. Read only. Issue 28; docs/api.md."""
from __future__ import annotations

from flask import g, request

from pbem.service.play.talk_read import messages_for
from pbem.web.api.access import my_seat
from pbem.web.api.core import route
from pbem.web.api.schemas import TalkList, TalkMessageOut, TalkQuery
from pbem.web.api.seats import SEAT


@route(f"{SEAT}/talk", answers={"HTTP_200": TalkList}, tags=("talk",), query=TalkQuery)
def talk(game_id: int, number: int):
    """Table talk

    The messages this seat may read, oldest first, with a higher id than
    ``after`` (poll with the last id seen)."""
    game, seat = my_seat(game_id, number)
    lines = messages_for(game, seat.index, g.api_token.player_id, after_id=request.context.query.after)
    return TalkList(game=game.id, seat=seat.number, messages=[
        TalkMessageOut(id=m.id, seat=m.seat + 1, to_all=m.to_all, to=[s + 1 for s in m.to], body=m.body,
                       hidden=m.hidden, created_at=m.created_at, mine=m.mine) for m in lines])
