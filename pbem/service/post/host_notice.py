"""The host's status notices: the game paused, resumed, its deadline
extended, or the game cancelled, told to every seat.

Host actions in quick succession are told in one mail per seat: each
notice waits ``HOST_NOTICE_DELAY_SECONDS`` and a later one supersedes it,
carrying its line along (docs/service.md, "Host notices").
"""
from __future__ import annotations

import datetime as dt

from flask import current_app
from sqlalchemy import and_, func, not_, select, update

from pbem.config import HOST_NOTICE_DELAY_SECONDS
from pbem.engine import get_game
from pbem.i18n import translations
from pbem.mail import compose
from pbem.service.core.db import db
from pbem.service.post.content import board_alt, board_png, phase_text, view_text_in
from pbem.service.post.envelope import envelope, game_ref, lang_of, queue_notice
from pbem.service.post.notify import HOST_NOTICE_KINDS
from pbem.service.post.watch_notice import host_link
from pbem.service.core.models import (
    OUT_HELD, OUT_PENDING, OUT_SUPERSEDED, PAUSED, Game, OutboxMessage, Seat,
)


def _supersede_host_notices(game: Game, now: dt.datetime) -> list[str]:
    """Mark the game's host notices still in their delay (pending, not
    claimed, not due before ``now``) superseded: the notice being written
    tells the latest state. Returns the kinds of the host actions not yet
    told, oldest first: every host notice of the game written after the
    last one that went (or is going) out, as the first seat had them."""
    host = and_(OutboxMessage.game_id == game.id, OutboxMessage.kind.in_(HOST_NOTICE_KINDS))
    waiting = and_(OutboxMessage.status == OUT_PENDING, OutboxMessage.claimed_at.is_(None),
                   OutboxMessage.next_attempt_at > now)
    told = db.session.scalar(select(func.max(OutboxMessage.id)).where(
        host, not_(waiting), OutboxMessage.status.not_in((OUT_SUPERSEDED, OUT_HELD)))) or 0
    rows = db.session.execute(select(OutboxMessage.kind, OutboxMessage.seat_index).where(
        host, OutboxMessage.id > told, OutboxMessage.status != OUT_HELD).order_by(OutboxMessage.id)).all()
    if not rows:
        return []
    db.session.execute(update(OutboxMessage).where(host, waiting).values(status=OUT_SUPERSEDED))
    first = min(seat for _kind, seat in rows)
    return [kind for kind, seat in rows if seat == first]


def _earlier(what: str, lang: str) -> str | None:
    """One line per host action told together with a later one, in ``lang``."""
    tr = translations(lang)
    return {"paused": tr.gettext("The host paused the game."), "resumed": tr.gettext("The host resumed the game."),
            "extended": tr.gettext("The host extended the deadline.")}.get(what)


def tell(game: Game, what: str, *, now: dt.datetime) -> None:
    """Tell every seat the host paused, resumed, extended or cancelled the
    game (with the board as that seat sees it, like every notice of a
    running game).

    Host actions in quick succession make one mail per seat, not one per
    action: the notice waits ``HOST_NOTICE_DELAY_SECONDS`` (app config from
    ``PBEM_HOST_NOTICE_DELAY_SECONDS``, default 60; 0 sends at once) and a later host notice of the same game
    supersedes every earlier one not yet sent; the one left lists the
    earlier actions in a line each, then the latest with the state it
    leaves (the deadline now). A cancellation is due at once."""
    delay = 0.0 if what == "cancelled" else float(
        current_app.config.get("HOST_NOTICE_DELAY_SECONDS", HOST_NOTICE_DELAY_SECONDS) or 0)
    due = now + dt.timedelta(seconds=delay)
    # the game row says a host notice waits: the next resolution releases it
    # (:func:`pbem.service.post.notify.release_host_notices`), and only then;
    # set before the first query, so it rides on the host action's UPDATE
    game.host_notice_due_at = due if due > now else None
    state = get_game(game.kind).state_from_json(game.state) if game.state else None
    earlier_kinds = _supersede_host_notices(game, now)
    for seat in game.seats:
        _tell_seat(game, seat, what, state, earlier_kinds, now=now, due=due)


def _tell_seat(game: Game, seat: Seat, what: str, state, earlier_kinds: list[str], *,
               now: dt.datetime, due: dt.datetime) -> None:
    """Queue one seat's host notice (:func:`pbem.mail.compose.host_action`):
    in its player's language and zone, the board as that seat sees it now;
    the host's own seat also gets the spectator link while the game is
    watchable (:func:`pbem.service.post.watch_notice.host_link`)."""
    lang = lang_of(seat.player)
    phase = phase_text(game, state, lang) if state is not None else ""
    phase = phase or translations(lang).gettext("before the start")
    picture = {}
    if state is not None:
        view = state.view(seat.index)
        picture = dict(board_png=board_png(game, view, lang=lang),
                       board_alt=board_alt(game, phase, lang),
                       position_text=view_text_in(game, view, lang))
    earlier = [line for line in (_earlier(k, lang) for k in earlier_kinds) if line]
    paused_left = (game.paused_remaining or 0) / 3600 if what == "extended" and game.status == PAUSED else None
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{what}")
    msg = compose.host_action(env, game_ref(game), action=what, phase=phase, deadline=game.deadline_at,
                              earlier=earlier, hours_left=paused_left, **picture,
                              watch_url=host_link(game, seat) if what != "cancelled" else "")
    queue_notice(game, seat, msg, what, f"{what}:{game.id}:{game.step}:{seat.index}:{int(now.timestamp() * 1000)}",
                  now, due_at=due if due > now else None)


__all__ = ["tell"]
