"""``GET /api/v1/games/<id>/seats/<n>/events?since=N``: the game log as
this seat sees it (public lines and its own private ones), after step
``N``, oldest first, each line in the token owner's language. Issue 28;
docs/api.md."""
from __future__ import annotations

from flask import request

from pbem.i18n import event_text
from pbem.service.play.queries import visible_events
from pbem.web.api.access import lang, my_seat
from pbem.web.api.core import route
from pbem.web.api.schemas import Event, EventList, EventQuery
from pbem.web.api.seats import SEAT


@route(f"{SEAT}/events", answers={"HTTP_200": EventList}, tags=("history",), query=EventQuery)
def events(game_id: int, number: int):
    """History since step N

    The game's log lines this seat may see, after step ``since`` (0: all),
    oldest first. Poll with ``since`` set to the answer's ``step`` (and
    ``If-None-Match``: an unchanged answer is a 304)."""
    game, seat = my_seat(game_id, number)
    since, language = request.context.query.since, lang()
    rows = [e for e in visible_events(game.id, seat.index, limit=None) if e.step > since]
    rows.reverse()
    return EventList(game=game.id, seat=seat.number, since=since, step=game.step, events=[
        Event(id=e.id, step=e.step, kind=e.kind or "", text=event_text(e.text, e.data, language),
              private=e.seat_index is not None) for e in rows])
