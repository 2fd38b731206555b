"""Which emails a change causes, built with :mod:`pbem.mail.compose`.

Every function here writes outbox rows in the current transaction (it never
commits). Each seat's email is built from ``state.view(seat)`` and the
events visible to that seat only, so no seat ever gets another seat's
private information. Dedupe keys make each notice unique per game, step
and seat: ``turn:<game>:<step>:<seat>``, ``reminder:...``, ``missed:...``,
``over:<game>:<seat>``, ``invite:<game>:<seat>``, ``inbound:<Message-ID>``.

Who hears what: the seats that must act get a turn notice (with the events
since their last move); when a deadline passes every seat is told; at the
end every seat gets the final scores; host actions (pause, resume, extend)
go to every seat.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from typing import Sequence

from flask import current_app
from sqlalchemy import bindparam, select, update

from pbem.engine import get_game
from pbem.engine.messages import Msg
from pbem.i18n import translate, translations
from pbem.mail import compose
from pbem.mail.tokens import DEFAULT_SIGNIN_MAX_AGE
from pbem.service.core import links
from pbem.service.core.bots import back_path
from pbem.service.core.db import db
from pbem.service.core.echo import order_in, read_as
from pbem.service.core.models import Game, GameEvent, OutboxMessage, Seat
from pbem.service.post import channel_post, mailprefs, store
from pbem.service.post import webhook_post
from pbem.service.post.send import send, send_deferred
from pbem.service.post.content import (
    _events, board_alt, board_png, named, phase_text, seat_label, turn, view_text_in,
)
from pbem.service.post.envelope import envelope, game_ref, lang_of, queue_notice

log = logging.getLogger(__name__)

#: kinds of the host's status notices (:mod:`pbem.service.post.host_notice`);
#: an unsent one is superseded by the next
HOST_NOTICE_KINDS = ("paused", "resumed", "extended", "cancelled")


def notice_due(seat: Seat, *, now: dt.datetime) -> dt.datetime:
    """When the turn notice queued for ``seat`` at ``now`` (UTC) is due.

    A seat whose player sent orders from the web page within
    ``LIVE_WINDOW_SECONDS`` (``seat.last_web_order_at``) is playing live,
    at the table: its notice waits ``NOTICE_GRACE_SECONDS``, and if the
    player moves on the page meanwhile it is superseded, never sent (a
    live game does not fill the inbox with a mail per move). Every other
    notice is due at once: a player who answers by mail, or has been away,
    hears of the turn without delay. A grace of 0 sends every notice at once."""
    cfg = current_app.config
    grace = float(cfg.get("NOTICE_GRACE_SECONDS", 0) or 0)
    window = dt.timedelta(seconds=float(cfg.get("LIVE_WINDOW_SECONDS", 0) or 0))
    last = seat.last_web_order_at
    if grace > 0 and last is not None and now - last <= window:
        return now + dt.timedelta(seconds=grace)
    return now


def turn_notice(game: Game, state, seat: Seat, *, now: dt.datetime, key_suffix: str = "") -> bool:
    """Queue the turn notice of ``seat`` for the game's current step,
    deferred: composed at delivery by :func:`compose_deferred` (and not sent
    if the seat has moved by then), due as :func:`notice_due` says.
    ``key_suffix`` tells apart a second notice for the same turn (a new
    player who took over the seat). True when it is due now."""
    due = notice_due(seat, now=now)
    send_deferred(kind="turn", dedupe_key=f"turn:{game.id}:{game.step}:{seat.index}{key_suffix}",
                  player=seat.player, game_id=game.id, seat_index=seat.index, step=game.step, now=now,
                  due_at=due if due > now else None)
    # turn mail is sent or dropped, never held (mailprefs.TURN)
    return due <= now and mailprefs.route(seat.player, "turn") == "send"


def compose_deferred(row, *, now: dt.datetime, draw_picture: bool = False):
    """The email a deferred outbox ``row`` (a turn notice: ``game_id``,
    ``seat_index``, ``step``, ``recipient``) stands for, composed from the
    game as it is at ``now``: the seat's view, the events since its last
    move, the legal orders and the deadline as they now are, which while the
    game is still at ``row.step`` is what they were when the notice was
    queued. ``None`` when the notice is stale: the game has left that step
    (the seat moved, or missed the deadline and was told so), is no longer
    running, the seat has sent its orders for that step already (a
    simultaneous decision waiting for the others), or the seat has changed
    hands (the new player got a notice of their own). ``draw_picture``: the board PNG is drawn into the mail now
    (delivery: no placeholder to parse the mail back for) instead of a
    placeholder; a picture that cannot be drawn is left out. Reads only;
    raises ``ValueError`` for a row of another kind."""
    from pbem.service.core.errors import GameNotFound
    from pbem.service.core.models import ACTIVE, PAUSED
    from pbem.service.core.snapshot import engine_state, load_game

    if row.kind != "turn" or row.step is None:
        raise ValueError(f"outbox row {row.id} ({row.kind}) is not a deferred turn notice")
    try:
        game = load_game(row.game_id)  # with its seats and players, in one statement
    except GameNotFound:
        return None
    if game.step != row.step or game.status not in (ACTIVE, PAUSED) or game.state is None:
        return None
    seat = next((s for s in game.seats if s.index == row.seat_index), None)
    if seat is None or seat.player is None or seat.player.email.lower() != row.recipient.strip().lower():
        return None
    if db.session.scalar(select(store.orders_sent(game.id, seat.index, row.step))):
        return None  # the seat has sent its orders for this step (others still to come)
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.turn")
    t = turn(game, engine_state(game), seat)
    if draw_picture and t.board_png is not None:
        from pbem.service.post.pictures import draw

        try:
            t = dataclasses.replace(t, board_png=draw(t.board_png))
        except Exception:  # a picture never stops a notice: the text carries everything
            log.exception("board picture of game %s could not be drawn; sent without it", game.id)
            t = dataclasses.replace(t, board_png=None)
    if draw_picture and t.board_png is not None and t.closeup_png is not None:
        from pbem.service.post.pictures import draw

        try:
            t = dataclasses.replace(t, closeup_png=draw(t.closeup_png))
        except Exception:  # the close-up is a help, never a reason to hold a notice
            log.exception("close-up picture of game %s could not be drawn; sent without it", game.id)
            t = dataclasses.replace(t, closeup_png=None)
    return compose.turn_notice(env, game_ref(game), t)


def reminder(game: Game, state, seat: Seat, *, now: dt.datetime) -> None:
    """The turn notice again before the deadline (once per step and
    deadline: an extended deadline can remind again)."""
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.reminder")
    queue_notice(game, seat, compose.reminder(env, game_ref(game), turn(game, state, seat)), "reminder",
           f"reminder:{game.id}:{game.step}:{seat.index}:{int(game.deadline_at.timestamp())}", now)


def after_change(game: Game, state, *, now: dt.datetime, missed: Sequence[int] = (),
                 since_step: int | None = None) -> bool:
    """Outbox rows after the state changed: when seats missed the deadline,
    every seat hears it (with what happened, as it may see it); at the end
    every seat gets the final scores; otherwise each seat that must act now
    gets a turn notice. True when a row written is due now (False: only
    turn notices waiting out a live player's grace, :func:`notice_due`).
    A host notice still waiting out its delay is due now: it goes before
    the next turn's mail, not after it (:func:`release_host_notices`)."""
    release_host_notices(game, now)
    channel_post.after_change(game, state, now=now, since_step=since_step)  # the group's chat (issue 26)
    webhook_post.after_change(game, state, now=now)  # the players' API webhooks (issue 28)
    if missed:
        current = state.current_seats()
        for seat in game.seats:
            lang = lang_of(seat.player)
            view = state.view(seat.index)
            events = _events(game, seat.index, since_step if since_step is not None else game.step - 1, lang)
            env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.missed")
            you = seat.index in missed
            names = ", ".join(seat_label(game.seat(s), lang) for s in current)
            next_up = translations(lang).gettext("Next to move: {seats}.").format(seats=names) if names else ""
            phase = phase_text(game, state, lang)
            result = compose.Result(
                phase=phase, events=events, missed=[seat_label(game.seat(s), lang) for s in missed if s != seat.index],
                you_missed=you, missed_count=seat.missed_turns if you else 0,
                default_order=_default_text(game, seat.index) if you else "",
                next_up=next_up, board_png=board_png(game, view, lang=lang), board_alt=board_alt(game, phase, lang),
                position_text=view_text_in(game, view, lang),
                back_url=links.absolute(back_path(seat)) if you and seat.bot_standin else "")  # issue 27
            queue_notice(game, seat, compose.turn_result(env, game_ref(game), result), "missed",
                   f"missed:{game.id}:{game.step}:{seat.index}", now, about_you=you)
    if state.is_terminal():
        for seat in game.seats:
            game_over(game, state, seat, now=now)
        return True
    # a seat a bot plays is not asked to move: the bot moves at once (issue 27)
    due = [turn_notice(game, state, game.seat(index), now=now) for index in state.current_seats()
           if not game.seat(index).bot_name]
    return bool(missed) or any(due)


def release_host_notices(game: Game, now: dt.datetime) -> None:
    """Make the game's host notices still waiting out their delay
    (:mod:`pbem.service.post.host_notice`) due at ``now``: written before the
    turn notices that follow, they are delivered first. Sends a statement
    only when the game row says one waits (``Game.host_notice_due_at``,
    set by :func:`pbem.service.post.host_notice.tell`, cleared here); an
    ordinary resolution sends none."""
    global _RELEASE
    due = game.host_notice_due_at
    if due is None:
        return
    game.host_notice_due_at = None
    if due <= now:
        return
    if _RELEASE is None:
        from pbem.service.core.models import OUT_PENDING

        t = OutboxMessage.__table__
        _RELEASE = update(t).where(
            t.c.game_id == bindparam("release_game"), t.c.kind.in_(HOST_NOTICE_KINDS), t.c.status == OUT_PENDING,
            t.c.claimed_at.is_(None), t.c.next_attempt_at > bindparam("release_at"),
        ).values(next_attempt_at=bindparam("release_at"))
    # a Core statement built once (outbox rows are written by Core too,
    # :func:`pbem.service.post.store.add`: none waits in the session unflushed)
    db.session.connection().execute(_RELEASE, {"release_game": game.id, "release_at": now})


#: the UPDATE of :func:`release_host_notices`, built on first use
_RELEASE = None


def _default_text(game: Game, seat: int) -> str:
    row = db.session.execute(
        select(GameEvent).where(GameEvent.game_id == game.id, GameEvent.kind == "missed")
        .order_by(GameEvent.id.desc())).scalars()
    for e in row:
        if (e.data or {}).get("seat") == seat:
            # several when the turn held several decisions (Medina: two pieces)
            return "; ".join((e.data or {}).get("orders") or [(e.data or {}).get("order", "")])
    return ""


def game_over(game: Game, state, seat: Seat, *, now: dt.datetime) -> None:
    """Final scores, the last events, the board, the seat's final view and
    the game record's links (``/games/<id>/record.txt`` and ``.json``,
    public once the game is over: docs/long-games.md)."""
    lang = lang_of(seat.player)
    lines = []
    rows = state.score_breakdown() or []
    for s in sorted(state.scores(), key=lambda s: (s.rank, s.seat)):
        parts = tuple((translate(label, lang), points.get(s.seat, 0)) for label, points in rows)
        lines.append(compose.ScoreLine(place=s.rank, name=seat_label(game.seat(s.seat), lang), points=s.points,
                                       detail=translations(lang).gettext("tie-break {value}").format(
                                           value=translate(s.tiebreak, lang)),
                                       is_you=s.seat == seat.index, parts=parts))
    view = state.view(seat.index)
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.over", reply=False)
    msg = compose.game_over(env, game_ref(game), scores=lines,
                            events=_events(game, seat.index, seat.last_moved_step, lang),
                            final_view=view_text_in(game, view, lang), board_png=board_png(game, view, lang=lang),
                            board_alt=translations(lang).gettext("The final board of {title} #{number}").format(
                                title=game.title, number=game.id),
                            record_urls=tuple(links.absolute(f"{links.game_path(game.id)}/record.{f}")
                                              for f in ("txt", "json")))
    queue_notice(game, seat, msg, "over", f"over:{game.id}:{seat.index}", now)


def invitation(game: Game, seat: Seat, *, now: dt.datetime, key_suffix: str = "") -> None:
    """The invitation with a sign-in link that joins the seat, in the
    language the host chose for the invitee (``players.language``)."""
    lang = lang_of(seat.player)
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.invite", reply=False)
    msg = compose.invitation(
        env, game_ref(game), host_name=game.host.name if game.host else "pbem", seat=seat.number,
        other_players=[seat_label(s, lang) for s in game.seats if s.index != seat.index],
        signin_url=links.signin_url(seat.player_id, links.join_path(game.id, seat.index)),
        deadline_hours=game.deadline_seconds / 3600,
        link_expires_at=now + dt.timedelta(seconds=DEFAULT_SIGNIN_MAX_AGE), game_kind=get_game(game.kind).title)
    queue_notice(game, seat, msg, "invite", f"invite:{game.id}:{seat.index}{key_suffix}", now)


def order_answer(game: Game, seat: Seat, result, *, in_reply_to: str | None, dedupe_key: str,
                 state=None, now: dt.datetime, phase: str | None = None,
                 ignored: Sequence[str] = (), references: Sequence[str] = ()) -> None:
    """The answer to orders sent by email: accepted (every line as read and
    what happens next) or refused (every line, the failing one, why, a
    close legal order when there is one, and what is legal now).
    ``phase``: the turn the orders were for (default: the game's phase
    now, which after a resolution is already the next turn); ``ignored``:
    greeting and sign-off lines set aside, named back; ``references``: the
    player's mail's own ``References`` (the answer carries the whole chain)."""
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.answer",
                    in_reply_to=in_reply_to, references=references)
    lang = lang_of(seat.player)
    phase = named(game, phase, lang) if phase else phase_text(game, state, lang)
    lines = [l.text for l in result.lines]
    if result.accepted:
        held_mark = translations(lang).gettext("(held for a later decision)")
        outcome = [read_as(l.text, l.order, lang) + (f" {held_mark}" if l.held else "")
                   for l in result.lines] + [translate(result.message, lang)]
        msg = compose.order_confirmation(env, game_ref(game), phase=phase, lines_read=lines,
                                         outcome=outcome, order_url=links.absolute(
                                             links.order_path(game.id, seat.index)), ignored=ignored)
        kind = "confirmation"
    else:
        failed = next((i + 1 for i, l in enumerate(result.lines) if l.error), None)
        reason = _refusal_reason(game, result, failed, lang)
        t = None
        if state is not None and seat.index in state.current_seats():
            t = turn(game, state, seat)
        hint = _suggestion(result, failed, t, lang)
        msg = compose.order_refusal(env, game_ref(game), lines_read=lines, failed_line=failed,
                                    reason=reason, turn=t, phase=phase, ignored=ignored, suggestion=hint)
        kind = "refusal"
    queue_notice(game, seat, msg, kind, dedupe_key, now)


def _refusal_reason(game: Game, result, failed: int | None, lang: str) -> str:
    """A refusal's reason, said once in ``lang``: the failed line's why
    alone when the service's sentence only names that line ("the line
    “…” could not be read": the mail names and marks the line already),
    else that sentence (where the turn ends, ...) and then the why."""
    if not failed:
        return named(game, result.message, lang)
    line = result.lines[failed - 1]
    why = named(game, line.error, lang)
    if isinstance(result.message, Msg) and result.message.params.get("line") == line.text:
        return why
    return f"{named(game, result.message, lang)} {why}"


def _suggestion(result, failed: int | None, t, lang: str = "en") -> str | None:
    """A legal order close to the refused line (``did you mean``), if any,
    in ``lang``'s words."""
    from pbem.mail.suggest import suggest

    if not failed:
        return None
    legal = [order_in(o, lang) for o in result.legal if not o.startswith("...")]
    if t is not None:
        legal += list(t.legal_orders)
    return suggest(result.lines[failed - 1].text, legal)


def unread_answer(game: Game, seat: Seat, first_lines: Sequence[str], *, in_reply_to: str | None,
                  dedupe_key: str, state=None, now: dt.datetime, phase: str | None = None) -> None:
    """The answer to a mail from the seat in which no order line was found:
    the first lines seen, and what is legal now. Nothing was applied."""
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.answer",
                    in_reply_to=in_reply_to)
    lang = lang_of(seat.player)
    t = turn(game, state, seat) if state is not None and seat.index in state.current_seats() else None
    msg = compose.order_refusal(
        env, game_ref(game), lines_read=[], failed_line=None, turn=t,
        phase=named(game, phase, lang) if phase else phase_text(game, state, lang),
        reason=translations(lang).gettext(
            "We could not find your orders in this mail. Write them one per line above the "
            "quoted text, or use the order page."), seen=first_lines)
    queue_notice(game, seat, msg, "refusal", dedupe_key, now)


def bounce_notice(game: Game, player, status: str, *, now: dt.datetime, row_id: int) -> None:
    """Tell the host of ``game`` that mail to ``player`` bounces for good
    (:mod:`pbem.service.accounts.bounces`): ``status`` is the RFC 3463 code
    (``5.1.1``), the one thing of the report the host is told."""
    host = game.host
    lang = lang_of(host)
    env = envelope(game, None, now=now, tag=f"pbem.{game.id}.bounce", to_name=host.name,
                    to_address=host.email, reply=False, lang=lang)
    tr = translations(lang)
    headline = tr.gettext("mail to {name} bounces").format(name=player.name)
    msg = compose.host_notice(env, game_ref(game), headline=headline, paragraphs=[
        tr.gettext("Mail to {name} <{address}> comes back undelivered (delivery status {status}: a permanent "
                   "failure).").format(name=player.name, address=player.email, status=status),
        tr.gettext("pbem sends {name} no more mail until they say on their mail preferences page that the "
                   "address works again. They can still play on their order page; their deadlines pass as usual."
                   ).format(name=player.name),
        tr.gettext("You can ask them for a working address, or replace them at their seat from the game page."),
    ])
    send(msg, kind="bounce", dedupe_key=f"bounce:{player.id}:{row_id}", player=host, game_id=game.id, now=now)


def not_applied(game: Game | None, seat: Seat | None, player, why: str, *, dedupe_key: str,
                now: dt.datetime) -> None:
    """Tell a player, at their own registered address and by their
    registered name, that a mail sent in their name was not applied
    (``why``: ``wrong-sender``, ``unauthenticated``, ``unknown``,
    ``replaced``: ``player`` held ``seat`` once, and the host gave it to
    someone else; see :func:`pbem.mail.compose.not_applied`). Fixed text:
    nothing of that mail is quoted (its lines, sender, name and Message-ID
    are whoever sent it's), and it answers no Message-ID (the player never
    saw that mail). ``game``/``seat``: the seat whose reply address it came
    through, or ``None`` (``unknown``)."""
    if why == "replaced":  # a former holder: their own address and language, no order page
        env = envelope(game, None, now=now, tag=f"pbem.{game.id}.{seat.index}.replaced", to_name=player.name,
                        to_address=player.email, reply=False, lang=lang_of(player))
        ref, order_url = game_ref(game), ""
    elif game is not None and seat is not None:
        env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.notice", reply=False)
        ref = game_ref(game)
        order_url = links.absolute(links.order_path(game.id, seat.index))
    else:
        env = envelope(None, None, now=now, tag="pbem.0.notice", to_name=player.name, to_address=player.email,
                       reply=False, lang=lang_of(player))
        ref, order_url = compose.GameRef("pbem", "-"), links.absolute("/")
    msg = compose.not_applied(env, ref, why=why, order_url=order_url)
    send(msg, kind="not-applied", dedupe_key=dedupe_key, player=player, game_id=game.id if game else None,
         seat_index=seat.index if seat else None, now=now)
