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
from pbem.engine.messages import Msg, msg_from_json
from pbem.i18n import MSG_KEY, event_text, pick_language, translate, translations
from pbem.mail import compose
from pbem.mail.order_lists import arrange
from pbem.mail.tokens import DEFAULT_SIGNIN_MAX_AGE
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.echo import order_in, read_as
from pbem.service.core.models import Game, GameEvent, OutboxMessage, Seat
from pbem.service.core.held_text import held_lines, note as held_note
from pbem.service.post import mailprefs, store

log = logging.getLogger(__name__)

#: at most this many events in "since your last move"
EVENTS_QUOTED = 60
#: kinds of the host's status notices (:mod:`pbem.service.post.host_notice`);
#: an unsent one is superseded by the next
HOST_NOTICE_KINDS = ("paused", "resumed", "extended", "cancelled")


def format_deadline(when: dt.datetime | None, tz_name: str, lang: str = "en") -> str:
    """``when`` (UTC) as an absolute date and time in ``tz_name``
    (``"Tuesday 24 November 2026, 14:00 (Europe/Helsinki)"``), in ``lang``."""
    return compose.format_deadline(when, tz_name, lang)


def _tz(game: Game, seat: Seat) -> str:
    return seat.player.timezone or game.timezone


def lang_of(player) -> str:
    """The language ``player``'s mail is written in (``players.language``;
    for a player not seen yet, the one the host chose); English without one."""
    return pick_language(getattr(player, "language", None))


def phase_text(game: Game, state, lang: str) -> str:
    """The turn's phase in ``lang``, the players named (:func:`named`):
    the engine's (a ``Msg`` once the engines write them) when the state is
    at hand, else the stored text."""
    return named(game, state.phase() if state is not None else (game.phase or ""), lang)


def names_of(game: Game) -> dict[int, str]:
    """Seat index -> the name of the player holding it (seats without one left out)."""
    return {s.index: s.player.name for s in game.seats if s.player is not None and s.player.name}


def named(game: Game, text, lang: str) -> str:
    """An engine's message (``Msg``) or a line already in ``lang``, in
    ``lang`` with every seat it names written as its player's name, as the
    pages and the board picture do: a message's seat words become the names
    before it is translated (:func:`pbem.boards.words.with_names`), then
    each "Seat 2" left in the words of ``lang``
    (:func:`pbem.web.table.seat_words`) is the name, unless the line names
    that player already ("Cy took seat 3")."""
    from pbem.boards.words import with_names
    from pbem.web.table import seat_words

    names = names_of(game)
    if isinstance(text, Msg):
        text = translate(with_names(text, names), lang)
    text = translate(text, lang)

    def swap(m) -> str:
        name = names.get(int(next(g for g in m.groups()[1:] if g)) - 1)
        return name if name and name not in text else m.group(0)

    return seat_words(lang).sub(swap, text)


def envelope(game: Game | None, seat: Seat | None, *, now: dt.datetime, tag: str,
              to_name: str | None = None, to_address: str | None = None, reply: bool = True,
              in_reply_to: str | None = None, references: Sequence[str] = (),
              lang: str | None = None) -> compose.Envelope:
    """Headers of a mail to ``seat`` about ``game``: the seat's thread root
    and the game's List-Id, and, for the seat's own player, one-click
    unsubscribe and the preferences link (docs/mail.md). ``lang``: the
    recipient's language (default: the seat's player's)."""
    cfg = current_app.config
    seated = game is not None and seat is not None
    own = seated and to_address is None and seat.player is not None
    return compose.Envelope(
        sender=cfg["MAIL_FROM"],
        to_name=to_name if to_name is not None else seat.player.name,
        to_address=to_address or seat.player.email,
        reply_to=links.reply_address(game.id, seat.index, seat.player.id if seat.player else None)
        if (reply and seated) else None,
        inbound_address=cfg["INBOUND_ADDRESS"],
        timezone=_tz(game, seat) if seated else cfg["DEFAULT_TIMEZONE"],
        locale=lang or lang_of(seat.player if seat is not None else None),
        sent_at=now, msgid_tag=tag, in_reply_to=in_reply_to, references=tuple(references),
        thread_root=links.thread_root(game.id, seat.index) if seated else None,
        list_id=links.list_id(game.id, game.title) if game is not None else None,
        unsubscribe_url=links.unsubscribe_url(seat.player_id) if own else None,
        preferences_url=links.preferences_url(seat.player_id) if own else None)


def game_ref(game: Game) -> compose.GameRef:
    return compose.GameRef(game.title, game.id, links.absolute(links.game_path(game.id)))


def queue_notice(game: Game, seat: Seat | None, msg, kind: str, key: str, now: dt.datetime, *,
           about_you: bool = True, due_at: dt.datetime | None = None) -> None:
    """Queue ``msg`` unless the seat's player does not want this ``kind``
    (:func:`pbem.service.post.mailprefs.route`): dropped, or held for the digest.
    ``due_at`` (UTC): not sent before then (unless held)."""
    held = None
    if seat is not None and seat.player is not None:
        way = mailprefs.route(seat.player, kind, about_you=about_you)
        if way == "drop":
            return
        if way == "hold":
            held = mailprefs.next_digest_at(seat.player, now)
    # due at ``due_at`` as written (one INSERT; a held row waits for the digest instead)
    store.add(msg, kind=kind, dedupe_key=key, game_id=game.id if game else None,
               seat_index=seat.index if seat else None, now=now, held_until=held, due_at=due_at)


def picture_view(game: Game, view: dict, lang: str = "en") -> dict:
    """``view`` with every seated player's name, as the board picture
    prints them (in seat colours, as the pages do; never "Seat 2"), its
    phase (an engine message) already in ``lang``: the placeholder keeps
    the view as JSON, where a message is only its English text."""
    from pbem.boards import named_view

    return named_view(view, {s.index: s.player.name for s in game.seats if s.player is not None}, lang)


def board_png(game: Game, view: dict, highlight: Sequence[str] = (), lang: str = "en") -> bytes | None:
    """The board picture part as this view shows it, players named and its
    words in ``lang``: a placeholder that
    outbox delivery draws into the PNG (:mod:`pbem.service.post.pictures`; drawing
    takes far longer than the rest of a turn, so it stays out of the turn's
    transaction), or ``None`` when the game has no board picture (the email
    then carries everything in words)."""
    try:
        from pbem.service.post.pictures import placeholder

        return placeholder(game.kind, picture_view(game, view, lang), highlight, lang=lang)
    except KeyError:
        return None
    except Exception:  # a picture must never stop a turn; the text carries everything
        log.exception("board picture of game %s failed", game.id)
        return None


def closeup_png(game: Game, view: dict, highlight: Sequence[str], lang: str = "en") -> tuple[bytes | None, str]:
    """The close-up picture part for a phone (a placeholder, drawn at
    delivery like :func:`board_png`) and its alternative text naming the
    legal sites it shows: the region of the board with the most legal
    sites at a scale where coordinates are legible on a 375 px screen
    (:mod:`pbem.boards.closeup`). ``(None, "")`` when the full picture is
    legible already, there are no legal sites, or the game has no board."""
    if not highlight:
        return None, ""
    try:
        from pbem.boards import closeup, render_svg
        from pbem.service.post.pictures import placeholder

        view = picture_view(game, view, lang)
        found = closeup.window(render_svg(game.kind, view, highlight=highlight, lang=lang), highlight)
        if found is None:
            return None, ""
        box, shown = found
        return (placeholder(game.kind, view, highlight, closeup=box, lang=lang),
                translations(lang).gettext("Close-up of the board around your legal sites {sites}").format(
                    sites=", ".join(shown)))
    except KeyError:
        return None, ""
    except Exception:  # a picture must never stop a turn; the text carries everything
        log.exception("close-up picture of game %s failed", game.id)
        return None, ""


def events_since(game: Game, seat: int, since_step: int) -> list[GameEvent]:
    """Events after ``since_step`` that ``seat`` may see, oldest first."""
    rows = db.session.execute(
        select(GameEvent).where(GameEvent.game_id == game.id, GameEvent.step > since_step)
        .order_by(GameEvent.id)).scalars()
    return [e for e in rows if e.visible_to(seat)][-EVENTS_QUOTED:]


def seat_label(seat: Seat, lang: str = "en") -> str:
    """``"Bruno (seat 2)"`` in ``lang``."""
    return translations(lang).gettext("{name} (seat {number})").format(name=seat.player.name, number=seat.number)


def seat_text(seat: Seat, lang: str = "en") -> str:
    """``"seat 2"`` in ``lang``."""
    return translations(lang).gettext("seat {number}").format(number=seat.number)


def board_alt(game: Game, phase: str, lang: str) -> str:
    """The board picture's alternative text in ``lang``."""
    return translations(lang).gettext("The board of {title} #{number}, {phase}").format(
        title=game.title, number=game.id, phase=phase)


def _events(game: Game, seat: int, since_step: int, lang: str) -> list[str]:
    """:func:`events_since` as lines in ``lang``."""
    return [event_line(game, e, lang) for e in events_since(game, seat, since_step)]


def event_line(game: Game, event: GameEvent, lang: str) -> str:
    """A stored game log line in ``lang`` with the players named (:func:`named`)."""
    kept = (event.data or {}).get(MSG_KEY)
    return named(game, msg_from_json(kept), lang) if kept else named(game, event_text(event.text, event.data, lang), lang)


def example_reply(state, seat: int, limit: int = 8, *, engine=None, lang: str = "en") -> list[str]:
    """The lines of one legal reply: an order for every decision ``seat``
    owes in this turn (Medina: both pieces; one line in a La Città
    political round), each picked from the middle of the legal orders then,
    so the example works as written and shows the turn's shape. With
    ``engine`` (the game's :class:`~pbem.engine.api.Game`) the lines are
    written in ``lang`` (:meth:`~pbem.engine.api.Game.order_text`)."""
    trial, key, lines = state.copy(), state.turn_key(), []
    while seat in trial.current_seats() and trial.turn_key() == key and len(lines) < limit:
        actions = sorted(trial.legal_actions(seat), key=lambda a: a.to_text())
        if not actions:
            break
        action = actions[len(actions) // 2]
        lines.append(engine.order_text(action, lang) if engine is not None else action.to_text())
        trial.apply(seat, action)
    return lines


def turn(game: Game, state, seat: Seat) -> compose.Turn:
    """The decision ``seat`` owes now, as the mail library wants it, in
    the seat's player's language: the legal orders and the example reply
    in its words (:meth:`~pbem.engine.api.Game.order_text`), the engine's
    messages and log lines translated."""
    engine = get_game(game.kind)
    lang = lang_of(seat.player)
    view = state.view(seat.index)
    actions = state.legal_actions(seat.index)
    legal = arrange(engine.order_text(a, lang) for a in actions)  # common orders first, A2 before A10
    sites = sorted({a.site for a in actions if a.site})
    examples = example_reply(state, seat.index, engine=engine, lang=lang)
    near, near_alt = closeup_png(game, view, sites, lang)
    phase = phase_text(game, state, lang)
    return compose.Turn(
        phase=phase, seat=seat_text(seat, lang), deadline=game.deadline_at,
        order_url=links.seat_signin_url(seat.player_id, game.id, seat.index),
        private_info=_with_held(view_text_in(game, view, lang), game.id, seat.index, lang, engine),
        since_last=_events(game, seat.index, seat.last_moved_step, lang),
        legal_orders=legal, order_help=translate(engine.order_help(), lang), examples=examples,
        board_png=board_png(game, view, sites, lang), board_alt=board_alt(game, phase, lang),
        closeup_png=near, closeup_alt=near_alt)


def _with_held(text: str, game_id: int, seat_index: int, lang: str, engine) -> str:
    """The seat's view text, then the orders it holds for later decisions
    (:mod:`pbem.service.core.held_text`), if any, in ``lang`` (``engine`` writes them)."""
    note = held_note(held_lines(game_id, seat_index), engine)
    return f"{text}\n\n{translate(note, lang)}" if note else text


def view_text_in(game: Game, view: dict, lang: str) -> str:
    """The engine's text form of ``view`` (``Game.view_text``) in ``lang``."""
    return get_game(game.kind).view_text(view, tr=lambda m: translate(m, lang))


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
    way = mailprefs.route(seat.player, "turn")
    if way == "drop":
        return False
    held = mailprefs.next_digest_at(seat.player, now) if way == "hold" else None
    due = notice_due(seat, now=now)
    store.add_deferred(kind="turn", dedupe_key=f"turn:{game.id}:{game.step}:{seat.index}{key_suffix}",
                        game_id=game.id, seat_index=seat.index, step=game.step,
                        recipient=seat.player.email, now=now, due_at=due if due > now else None,
                        held_until=held)
    return due <= now and held is None


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
                position_text=view_text_in(game, view, lang))
            queue_notice(game, seat, compose.turn_result(env, game_ref(game), result), "missed",
                   f"missed:{game.id}:{game.step}:{seat.index}", now, about_you=you)
    if state.is_terminal():
        for seat in game.seats:
            game_over(game, state, seat, now=now)
        return True
    due = [turn_notice(game, state, game.seat(index), now=now) for index in state.current_seats()]
    return bool(missed) or any(due)


def release_host_notices(game: Game, now: dt.datetime) -> None:
    """Make the game's host notices still waiting out their delay
    (:mod:`pbem.service.post.host_notice`) due at ``now``: written before the
    turn notices that follow, they are delivered first."""
    global _RELEASE
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
    """Final scores, the last events, the board and the seat's final view."""
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
                                title=game.title, number=game.id))
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
    store.add(msg, kind="bounce", dedupe_key=f"bounce:{player.id}:{row_id}", game_id=game.id, now=now)


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
    cfg = current_app.config
    if why == "replaced":  # a former holder: their own address and language, no order page
        env = envelope(game, None, now=now, tag=f"pbem.{game.id}.{seat.index}.replaced", to_name=player.name,
                        to_address=player.email, reply=False, lang=lang_of(player))
        ref, order_url = game_ref(game), ""
    elif game is not None and seat is not None:
        env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.{game.step}.notice", reply=False)
        ref = game_ref(game)
        order_url = links.absolute(links.order_path(game.id, seat.index))
    else:
        env = compose.Envelope(sender=cfg["MAIL_FROM"], to_name=player.name, to_address=player.email,
                               inbound_address=cfg["INBOUND_ADDRESS"], timezone=cfg["DEFAULT_TIMEZONE"],
                               locale=lang_of(player), sent_at=now, msgid_tag="pbem.0.notice")
        ref, order_url = compose.GameRef("pbem", "-"), links.absolute("/")
    msg = compose.not_applied(env, ref, why=why, order_url=order_url)
    store.add(msg, kind="not-applied", dedupe_key=dedupe_key, game_id=game.id if game else None,
               seat_index=seat.index if seat else None, now=now)
