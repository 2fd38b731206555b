"""Submitting orders: validate every line, store them, start resolution.

An order text holds one order per line (Medina: two pieces a turn). The
lines are applied in order to a copy of the current state; if any line fails
nothing is stored and the answer quotes every line read, why the failing one
was refused and what is legal at that point. A submission holds one turn of
its seat at most: lines after the seat's turn ends (``State.turn_key``
changes, or the seat owes nothing more) are refused unread, so no answer is
ever computed from a state the seat has not seen (the year end after the
last political card, with the Voice of the People turned up). Accepted
orders are stored; when they are the last the turn waits for, the same
transaction resolves the turn (:func:`pbem.service.play.resolve.resolve_locked`,
under the game row lock that serialises every order of the game), so the
next seat's notice is in the outbox when the answer goes back. With
``RESOLVE_IN_REQUEST`` off, or if resolving fails unexpectedly, the orders
are kept and a worker task resolves the turn instead.

Languages: every sentence of an answer (``SubmitResult.message``,
``LineResult.error``, the engines' refusals kept as they come) is an
English :class:`~pbem.engine.messages.Msg`, never formatted into a plain
``str`` here. Pages and mail show it in the reader's language with
:meth:`SubmitResult.message_in`, :meth:`LineResult.error_in`,
:meth:`SubmitResult.summary` ``(lang)`` or :func:`pbem.i18n.translate`.
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Callable

from flask import current_app
from sqlalchemy import select

from pbem.engine import OrderError, OrderParseError, get_game
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import join, seat as seat_name
from pbem.i18n import translate
from pbem.service.core import queue
from pbem.service.core.db import begin_write, db
from pbem.service.core.echo import Held, Order, as_written, order_in, orders_of, said_orders
from pbem.service.core.errors import GameNotFound
from pbem.service.core.models import ACTIVE, PAUSED, PendingOrder, SOURCES, utcnow
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service.play import held as holding

log = logging.getLogger(__name__)

#: a game status as the refusal "The game is …" words it (translatable)
_STATUS_WORDS = {"invited": Msg("not started yet"), "finished": Msg("over"),
                 "cancelled": Msg("cancelled")}

#: lines longer than this are refused without parsing
MAX_LINE = 500
#: at most this many order lines in one submission
MAX_LINES = 20
#: how many legal orders to quote in a refusal
LEGAL_QUOTE = 30


@dataclass
class LineResult:
    """One line as read: ``order`` is its canonical form when it was
    accepted; ``error`` why it was refused (every line past the end of the
    seat's turn carries one: not read), a :class:`Msg` (or ``str``) in
    English: :meth:`error_in` gives it in a language; ``checked`` False for
    lines after a refused one (not looked at); ``held`` True for a line kept
    for a later decision (``order`` its canonical text, or ``cancel held``)."""

    text: str
    order: str | None = None
    error: Msg | str | None = None
    checked: bool = True
    #: kept for a later decision of the seat (:mod:`pbem.service.play.held`), not applied now
    held: bool = False

    def error_in(self, lang: str) -> str | None:
        """:attr:`error` in ``lang`` (``None`` when the line was not refused)."""
        return None if self.error is None else translate(self.error, lang)


@dataclass
class SubmitResult:
    """What happened to a submission.

    ``status``: ``"stored"`` (accepted, waiting for others or for the worker),
    ``"refused"`` (nothing kept), ``"stale"`` (made on an older step; nothing
    kept). ``ready``: every order the state waits for is in, so resolution has
    been started. ``resolved``: the turn was resolved with these orders, in
    the same transaction (``step`` is then the new step). ``legal``: orders
    legal now for the seat (on refusal), in the command language (the last
    may be a ``Msg`` "... and 12 more"). ``message``: the answer, a
    :class:`Msg` in English (:meth:`message_in` for another language).
    """

    status: str
    game_id: int
    seat_index: int
    step: int
    lines: list[LineResult] = field(default_factory=list)
    message: Msg | str = ""
    legal: list[str] = field(default_factory=list)
    ready: bool = False
    resolved: bool = False
    waiting_for: list[int] = field(default_factory=list)
    #: the turn resolved and the seat still owes a decision of the running
    #: game (Medina's second piece, a demolition after a famine); ``owes``:
    #: the engine's ``decision["owes"]`` of the seat's view then, if any
    goes_on: bool = False
    owes: Msg | str | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "stored"

    @property
    def orders(self) -> list[str]:
        return [line.order for line in self.lines if line.order]

    @property
    def applied(self) -> list[str]:
        """The accepted lines for the decision due now (not the held ones)."""
        return [line.order for line in self.lines if line.order and not line.held]

    @property
    def held(self) -> list[str]:
        """The lines kept for later decisions (without ``cancel held``)."""
        return [line.order for line in self.lines if line.held and line.order and line.order != holding.CANCEL]

    @property
    def holds(self) -> bool:
        """The submission replaces the seat's held orders (it holds lines or
        says ``cancel held``)."""
        return any(line.held for line in self.lines)

    def message_in(self, lang: str) -> str:
        """:attr:`message` in ``lang``."""
        return translate(self.message, lang)

    def reason(self) -> Msg | str:
        """The refusal in one sentence: :attr:`message`, then why the
        refused line was refused (a ``Msg`` when both are)."""
        failed = next((line.error for line in self.lines if line.error), None)
        return self.message if failed is None else Msg("{message} {why}", message=self.message,
                                                        why=failed)

    def summary(self, lang: str = "en") -> str:
        """Plain text for a page or a confirmation email, in ``lang``: each
        line read, what became of it, and (on refusal) what is legal now."""
        def tr(m) -> str:
            return translate(m, lang)

        def said(order) -> str:   # an order in the reader's words (pbem.service.core.echo)
            return order_in(order, lang)

        out = [tr(self.message), ""]
        for line in self.lines:
            if line.error:
                out.append(f"> {line.text}\n  " + tr(Msg("REFUSED: {why}", why=line.error)))
            elif line.held and self.status != "stored":
                out.append(f"> {line.text}\n  " + tr(Msg("not kept (the message was refused)")))
            elif line.held:
                out.append(f"> {line.text}\n  " + tr(Msg("held orders dropped") if line.order == holding.CANCEL
                                                     else Msg("held for a later decision: {order}",
                                                              order=said(line.order))))
            elif line.order is not None:
                out.append(f"> {line.text}\n  " + tr(Msg("accepted as: {order}", order=said(line.order))))
            elif not line.checked:
                out.append(f"> {line.text}\n  " + tr(Msg("not applied (an earlier line was refused)")))
        if self.legal:
            out += ["", tr(Msg("Legal orders now:"))] + [f"  {said(o)}" for o in self.legal]
        return "\n".join(out).strip() + "\n"


def split_lines(text: str) -> list[str]:
    """The order lines of a submission: stripped, blank lines and ``#``
    comments dropped."""
    lines = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def legal_orders(state, seat: int, limit: int = LEGAL_QUOTE, engine=None) -> list[str]:
    """Canonical texts of up to ``limit`` legal orders of ``seat`` now
    (:class:`~pbem.service.core.echo.Order` items when ``engine``, the
    :class:`~pbem.engine.api.Game`, is given: each can be written in the
    reader's language)."""
    from pbem.mail.order_lists import arrange

    texts = arrange(Order(a, engine) if engine is not None else a.to_text()
                    for a in state.legal_actions(seat))  # common first, A2 before A10
    if len(texts) > limit:
        texts = texts[:limit] + [Msgn("... and {n} more", "... and {n} more", len(texts) - limit)]
    return texts


@dataclass
class Trial:
    """A submission applied line by line: the state after its last line,
    and per line ``(step before, action, events, step after)`` — exactly
    what resolving those lines on the same state records."""

    state: object
    applied: list = field(default_factory=list)


def turn_ended(state, seat_index: int, turn) -> bool:
    """Whether the turn whose :meth:`~pbem.engine.api.State.turn_key` was
    ``turn`` is over for ``seat_index`` in ``state``: the seat owes no
    decision now, or the decisions owed belong to another turn (a new
    political round, the year end after the last political card, the next
    Medina turn even of the same seat)."""
    return seat_index not in state.current_seats() or state.turn_key() != turn


def _turn_start_legal(game, state, seat_index: int, in_place: bool) -> list[str]:
    """The seat's legal orders at the start of its turn (``state`` was
    applied to in place: read again from the game row)."""
    return legal_orders(engine_state(game) if in_place else state, seat_index, engine=get_game(game.kind))


def _past_the_turn(result: SubmitResult, last: int, game, state, seat_index: int,
                   in_place: bool) -> tuple[str, str, list[str]]:
    """The refusal of a submission whose lines go on after the seat's turn
    ended with line ``last`` (1-based). The lines after it are never
    parsed: the state they would be read on (the next turn, e.g. the year
    end with the Voice of the People turned up) is one the seat has not
    seen, so any answer about them could tell what its view hides."""
    for line in result.lines[last:]:
        line.error = Msg("Past the end of your turn, so not read. Send only the orders of this turn; "
                         "the next turn is asked for when it comes.")
    return (Msg("Nothing was applied: your turn ends with line {last}, but you sent {n} lines.",
                last=last, n=len(result.lines)),
            "refused", _turn_start_legal(game, state, seat_index, in_place))


def holdable(kind, text: str) -> str | None:
    """The canonical text of a line the seat may send ahead of its decision
    (:meth:`~pbem.engine.api.Game.hold_order`, read on the text alone), or
    ``cancel held`` (in a game that holds orders); ``None`` for any other
    line."""
    if len(text) > MAX_LINE:
        return None
    if holding.is_cancel(text):
        return holding.CANCEL if holding.game_holds(kind) else None
    canonical = kind.hold_order(text)
    return None if canonical is None else Held(canonical, kind)   # written in any language (echo)


def _hold(lines: list[LineResult], canonical: list[str | None]) -> tuple[str, str, list[str]] | None:
    """Mark ``lines`` held (their canonical texts ``canonical``); a refusal
    when more than :data:`pbem.service.play.held.MAX_HELD` would be kept."""
    for line, text in zip(lines, canonical):
        line.held, line.order = True, text
    if sum(1 for t in canonical if t != holding.CANCEL) > holding.MAX_HELD:
        for line in lines:
            line.order = None
        lines[0].error = Msg("at most {max} orders are held for later decisions", max=holding.MAX_HELD)
        return (Msg("Nothing was applied: you sent more than {max} orders to hold.", max=holding.MAX_HELD),
                "refused", [])
    return None


def _phase(game, state):
    """The game's phase as the engine words it (a ``Msg``), else the stored text."""
    phase = state.phase() if state is not None else None
    return phase if isinstance(phase, Msg) and str(phase) == game.phase else game.phase


def _stale(game, state, written_step: int) -> Msg:
    """Why orders written at ``written_step`` are refused, naming the turns
    as players see them (the phase then and now), never step numbers."""
    from pbem.service.play.replay import state_at

    now = _phase(game, state)
    try:
        then = state_at(game.id, written_step).phase() if written_step < game.step else None
    except ValueError:
        then = None
    if then is None or str(then) == str(now):
        return Msg("These orders were written before the last move in {phase}. Nothing was applied; "
                   "please look at the board again and send fresh orders.", phase=now)
    return Msg("These orders were written for {written}, but the game has moved on to {phase}. Nothing "
               "was applied; please look at the board again and send fresh orders.", written=then, phase=now)


def check_orders(game, seat_index: int, result: SubmitResult, *,
                 expected_step: int | None, state=None, in_place: bool = False,
                 trial_out: list | None = None) -> tuple[str, str, list[str]] | None:
    """Every check a submission goes through, on a copy of the state; nothing
    is stored. Fills ``result.lines`` (``order`` for each line read,
    ``error`` on the one refused). Returns ``None`` when every line is
    legal, else ``(message, status, legal orders now)`` with status
    ``"refused"`` or ``"stale"`` (``message`` a :class:`Msg`). Used by :func:`submit_orders` and the
    order page's preview, so both answer the same.

    The lines must stay within the seat's turn: once a line ends it
    (:func:`turn_ended`), the remaining lines are refused with "your turn
    ends with line N" without being parsed, so no error, legal list or
    other text is ever computed on the state after the turn (which can hold
    what the seat's view hides). The one exception is held orders
    (:mod:`pbem.service.play.held`): when every remaining line is one the game
    lets a seat send ahead (:func:`holdable`, judged on the text alone) they
    are marked ``held`` instead; so are such lines sent while another seat
    decides, or that answer no decision the seat owes now (a submission of
    held lines only is never stale: no position was read to write them).
    ``state``: the game's
    engine state when the caller has parsed it already (left unchanged,
    unless ``in_place``: the lines are applied to it, saving a copy). On
    success a :class:`Trial` is appended to ``trial_out`` when given."""
    if seat_index not in {s.index for s in game.seats}:
        return Msg("This game has no seat {n}.", n=seat_index + 1), "refused", []
    if game.status == PAUSED:
        return (Msg("The game is paused by its host; orders are taken again when it resumes."),
                "refused", [])
    if game.status != ACTIVE:
        return Msg("The game is {status}; it takes no orders.",
                   status=_STATUS_WORDS.get(game.status, game.status)), "refused", []
    if state is None:
        state = engine_state(game)
    kind = get_game(game.kind)
    canonical = [holdable(kind, line.text) for line in result.lines]
    held_only = bool(canonical) and None not in canonical
    if expected_step is not None and expected_step != game.step and not held_only:
        return _stale(game, state, expected_step), "stale", legal_orders(state, seat_index, engine=kind)
    if not result.lines:
        return (Msg("No orders were found in what you sent."), "refused",
                legal_orders(state, seat_index, engine=kind))
    if len(result.lines) > MAX_LINES:
        return (Msg("At most {max} order lines are read at once; you sent {n}.", max=MAX_LINES,
                    n=len(result.lines)), "refused", [])
    if seat_index not in state.current_seats():
        if held_only:
            problem = _hold(result.lines, canonical)
            if problem is None and trial_out is not None:
                trial_out.append(Trial(state, []))
            return problem
        waiting = join([seat_name(s) for s in state.current_seats()]) or Msg("nobody")
        return (Msg("It is not your turn: the game waits for {waiting} ({phase}).", waiting=waiting,
                    phase=_phase(game, state)), "refused", [])
    turn = state.turn_key()
    trial = state if in_place else state.copy()
    applied = []
    for number, line in enumerate(result.lines, 1):
        if applied and turn_ended(trial, seat_index, turn):
            if None not in canonical[number - 1:]:   # the rest waits for later decisions
                problem = _hold(result.lines[number - 1:], canonical[number - 1:])
                if problem is not None:
                    return problem
                break
            return _past_the_turn(result, number - 1, game, state, seat_index, in_place)
        if len(line.text) > MAX_LINE:
            line.error = Msg("the line is longer than {max} characters", max=MAX_LINE)
            return (Msg("Nothing was applied: a line is too long."), "refused",
                    legal_orders(trial, seat_index, engine=kind))
        text = canonical[number - 1]
        if text is not None and (text == holding.CANCEL or not kind.held_order_due(trial, seat_index, text)):
            line.held, line.order = True, text     # for a later decision, not the one owed now
            continue
        try:
            action = kind.parse_action(trial, seat_index, line.text)
            before = trial.step
            applied.append((before, action, trial.apply(seat_index, action), trial.step))
        except OrderError as err:
            line.error = as_written(err.message, line.text)   # quoted as the player wrote it
            # the turn's start (applied to in place: read again; a refusal is rare)
            legal = (orders_of(kind, trial, seat_index, err.legal) or legal_orders(trial, seat_index, engine=kind)
                     or _turn_start_legal(game, state, seat_index, in_place))
            if isinstance(err, OrderParseError):
                msg = Msg("Nothing was applied: the line \u201c{line}\u201d could not be read.",
                          line=line.text)
            else:
                msg = Msg("Nothing was applied: the line \u201c{line}\u201d is not legal now.",
                          line=line.text)
            return msg, "refused", legal
        line.order = Order(action, kind)   # canonical text, written in any language (echo)
    held_lines = [line for line in result.lines if line.held]
    if len(held_lines) > holding.MAX_HELD:
        return _hold(held_lines, [line.order for line in held_lines])
    if trial_out is not None:
        trial_out.append(Trial(trial, applied))
    return None


def submit_orders(game_id: int, seat_index: int, text: str, *, expected_step: int | None,
                  source: str, message_id: str | None = None,
                  now: dt.datetime | None = None,
                  before_commit: Callable[[SubmitResult], None] | None = None,
                  game=None, resolve: bool = True) -> SubmitResult:
    """Validate and store the orders of seat ``seat_index`` (0-based).

    ``expected_step`` is the state step the player saw when writing (the
    order page's hidden field; for email, the step of the notice answered,
    read from In-Reply-To/References); an order made
    on an older step is refused as stale. ``None`` skips that check (an order
    written now, e.g. from a command line). ``source`` is ``web``, ``email``
    or ``deadline``. A new submission replaces the seat's stored orders of the
    same step (a seat may change its mind before the others are in).

    When these are the last orders the state waits for (``result.ready``),
    the turn is resolved in the same transaction (``result.resolved``; with
    ``RESOLVE_IN_REQUEST`` off, or if that fails, the orders are stored and
    :func:`pbem.service.play.resolve.resolve_game` is enqueued after the commit).
    Commits; enqueues outbox delivery after a resolution that wrote mail
    due now (a live player's turn notice waits:
    :func:`pbem.service.post.notify.notice_due`). Raises :class:`GameNotFound`;
    every other problem is a refused result.

    ``before_commit(result)``, when given, runs inside the transaction that
    stores the orders (or, on refusal, a transaction of its own) so a caller
    can write its own rows atomically with them (the inbound pipeline: the
    Message-ID record and the confirmation email).

    ``game``: the game row when the caller has already loaded and locked it
    in the current transaction (``load_game(game_id, for_update=True)``).
    ``resolve=False`` never resolves in the request (what a failed
    resolution falls back to).
    """
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}")
    now = now or utcnow()
    if game is None:
        game = load_game(game_id, for_update=True)
    result = SubmitResult("refused", game_id, seat_index, game.step)
    lines = split_lines(text)
    result.lines = [LineResult(line) for line in lines]

    def refuse(message: Msg | str, status: str, legal: list[str]) -> SubmitResult:
        db.session.rollback()
        result.status, result.message = status, message
        result.legal = legal or []
        for line in result.lines:
            if line.order is None and line.error is None:
                line.checked = False
        if before_commit is not None:
            begin_write()
            before_commit(result)
            db.session.commit()
        return result

    state = engine_state(game) if game.status == ACTIVE and game.state is not None else None
    # the seat alone decides now (the common case): its lines are checked on
    # the state itself, and if they complete the turn that trial *is* the
    # resolution (no copy, nothing applied twice)
    alone = state is not None and state.current_seats() == [seat_index]
    trials: list[Trial] = []
    problem = check_orders(game, seat_index, result, expected_step=expected_step, state=state,
                           in_place=alone, trial_out=trials)
    if problem is not None:
        return refuse(*problem)
    held_rows = None
    if result.holds:   # these lines replace the seat's held orders
        holding.replace(game.id, seat_index, result.held, source=source, now=now)
        held_rows = holding.rows_of(game, force=True)
    if not trials[0].applied:   # held lines only: no decision is answered now
        result.status = "stored"
        result.message = _held_message(result, "")
        if before_commit is not None:
            before_commit(result)
        db.session.commit()
        return result

    # every seat's stored orders in one query (the game row lock keeps them
    # still): this seat's row to replace, and who else is in for this step;
    # none to read when the read after the lock counted none (the common case)
    stored = []
    if game.pending_count:
        stored = db.session.execute(
            select(PendingOrder).where(PendingOrder.game_id == game.id)).scalars().all()
    pending = next((p for p in stored if p.seat_index == seat_index), None)
    if pending is None:
        # not added to the session yet: orders that complete the turn and
        # are resolved here never need their row
        pending = PendingOrder(game_id=game.id, seat_index=seat_index)
    pending.step = game.step
    pending.text = "\n".join(result.applied)
    pending.source = source
    pending.message_id = message_id
    pending.created_at = now
    have = {p.seat_index for p in stored if p.step == game.step} | {seat_index}
    waiting = [] if alone else [s for s in state.current_seats() if s not in have]
    result.status = "stored"
    result.ready = not waiting
    result.waiting_for = waiting
    mail_due = False
    if result.ready and resolve and current_app.config.get("RESOLVE_IN_REQUEST", True):
        from pbem.service.play.resolve import resolve_locked

        try:
            # the game row is locked; ``state`` is consumed
            resolution = resolve_locked(
                game, now=now, state=state, pending={**{p.seat_index: p for p in stored}, seat_index: pending},
                pre_applied=(seat_index, trials[0]) if alone else None, held_rows=held_rows)
            result.resolved = resolution.status == "resolved"
            mail_due = resolution.mail_due
            if result.resolved:
                _goes_on(result, game, state)
        except Exception:
            # Undo the whole transaction (nothing of it is kept) and store the
            # orders again without resolving: the worker task resolves them.
            # A savepoint would do the same for two more round trips on
            # every resolving order.
            log.exception("game %s: resolving in the request failed; left to the worker", game_id)
            db.session.rollback()
            return submit_orders(game_id, seat_index, text, expected_step=expected_step, source=source,
                                 message_id=message_id, now=now, before_commit=before_commit,
                                 resolve=False)
    if not result.resolved:
        db.session.add(pending)
        db.session.flush()
    if result.resolved:
        result.message = Msg("Your orders are accepted and the turn is resolved.")
        result.step = game.step
    elif result.ready:
        result.message = Msg("Your orders are accepted and the turn is being resolved.")
    else:
        result.message = Msg("Your orders are accepted. They will be applied together with the "
                             "orders of {seats}, when those are in or at the deadline. Until then "
                             "you may send new orders to replace them.",
                             seats=join([seat_name(s) for s in waiting]))
    if result.holds:
        result.message = _held_message(result, result.message)
    if before_commit is not None:
        before_commit(result)
    db.session.commit()
    if result.resolved:
        if mail_due:  # turn notices waiting out a live player's grace: beat's delivery sends them
            queue.enqueue(queue.DELIVER)
    elif result.ready:
        queue.enqueue(queue.RESOLVE, game_id)
    return result


def _goes_on(result: SubmitResult, game, state) -> None:
    """Whether the seat still owes a decision after its orders resolved the
    turn (``state``: the engine state after the resolution, the one the
    game row now holds), read here so the answer needs no second read."""
    if game.status == ACTIVE and result.seat_index in state.current_seats():
        result.goes_on = True
        result.owes = (state.view(result.seat_index).get("decision") or {}).get("owes")


def _held_message(result: SubmitResult, first) -> Msg:
    """``first`` (a ``Msg`` or ``""``), then what became of the seat's held orders."""
    if result.held:
        then = Msg("Held for your next decisions: {orders} (applied when each comes due; new held "
                   "orders replace them).", orders=said_orders(result.held))
    else:
        then = Msg("Your held orders are dropped.")
    return Msg("{first} {then}", first=first, then=then) if first else then


def pending_seats(game_id: int, step: int) -> list[int]:
    """Seats that have orders stored for ``step`` of game ``game_id``."""
    return sorted(db.session.execute(
        select(PendingOrder.seat_index).where(PendingOrder.game_id == game_id,
                                              PendingOrder.step == step)).scalars())


__all__ = ["submit_orders", "check_orders", "turn_ended", "SubmitResult", "LineResult", "split_lines", "legal_orders",
           "pending_seats", "GameNotFound"]
