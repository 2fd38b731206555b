"""Checking a submission: every check an order text goes through, on a
copy of the state (or the state itself when the seat alone decides), with
nothing stored. :func:`check_orders` is shared by
:func:`pbem.service.play.orders.submit_orders` and the order page's preview,
so both answer the same.

Each line is applied in order; a submission holds one turn of its seat at
most: lines after the seat's turn ends (``State.turn_key`` changes, or the
seat owes nothing more) are refused unread, unless every one of them may be
held for a later decision (:mod:`pbem.service.play.held`). Every sentence is
an English :class:`~pbem.engine.messages.Msg`, shown in the reader's
language by the pages and mail.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pbem.engine import OrderError, OrderParseError, get_game
from pbem.engine.messages import Msg, Msgn
from pbem.engine.phrases import join, seat as seat_name
from pbem.service.core.echo import Held, Order, as_written, orders_of
from pbem.service.core.models import ACTIVE, PAUSED
from pbem.service.core.snapshot import engine_state
from pbem.service.play import held as holding
from pbem.service.play.submission import LineResult, SubmitResult

#: a game status as the refusal "The game is …" words it (translatable)
_STATUS_WORDS = {"invited": Msg("not started yet"), "finished": Msg("over"),
                 "cancelled": Msg("cancelled")}

#: lines longer than this are refused without parsing
MAX_LINE = 500
#: at most this many order lines in one submission
MAX_LINES = 20
#: how many legal orders to quote in a refusal
LEGAL_QUOTE = 30


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
    problem = _game_refuses(game, seat_index)
    if problem is not None:
        return problem
    if state is None:
        state = engine_state(game)
    kind = get_game(game.kind)
    canonical = [holdable(kind, line.text) for line in result.lines]
    held_only = bool(canonical) and None not in canonical
    problem = _submission_refused(game, state, seat_index, result, kind, expected_step, held_only)
    if problem is not None:
        return problem
    if seat_index not in state.current_seats():
        return _out_of_turn(game, state, result, canonical, held_only, trial_out)
    return _check_lines(game, state, seat_index, result, kind, canonical, in_place, trial_out)


def _game_refuses(game, seat_index: int) -> tuple[str, str, list[str]] | None:
    """The refusal when the game takes no orders from ``seat_index`` (no
    such seat, paused, not running); None when it does."""
    if seat_index not in {s.index for s in game.seats}:
        return Msg("This game has no seat {n}.", n=seat_index + 1), "refused", []
    if game.status == PAUSED:
        return (Msg("The game is paused by its host; orders are taken again when it resumes."),
                "refused", [])
    if game.status != ACTIVE:
        return Msg("The game is {status}; it takes no orders.",
                   status=_STATUS_WORDS.get(game.status, game.status)), "refused", []
    return None


def _submission_refused(game, state, seat_index: int, result: SubmitResult, kind,
                        expected_step: int | None, held_only: bool) -> tuple[str, str, list[str]] | None:
    """The refusal of a submission as a whole: written on an older step
    (stale; held lines only never are), empty, or more than :data:`MAX_LINES` lines."""
    if expected_step is not None and expected_step != game.step and not held_only:
        return _stale(game, state, expected_step), "stale", legal_orders(state, seat_index, engine=kind)
    if not result.lines:
        return (Msg("No orders were found in what you sent."), "refused",
                legal_orders(state, seat_index, engine=kind))
    if len(result.lines) > MAX_LINES:
        return (Msg("At most {max} order lines are read at once; you sent {n}.", max=MAX_LINES,
                    n=len(result.lines)), "refused", [])
    return None


def _out_of_turn(game, state, result: SubmitResult, canonical, held_only: bool,
                 trial_out: list | None) -> tuple[str, str, list[str]] | None:
    """A submission while the seat owes no decision: held lines only are
    kept (a :class:`Trial` with nothing applied), anything else is refused
    naming whom the game waits for."""
    if held_only:
        problem = _hold(result.lines, canonical)
        if problem is None and trial_out is not None:
            trial_out.append(Trial(state, []))
        return problem
    waiting = join([seat_name(s) for s in state.current_seats()]) or Msg("nobody")
    return (Msg("It is not your turn: the game waits for {waiting} ({phase}).", waiting=waiting,
                phase=_phase(game, state)), "refused", [])


def _check_lines(game, state, seat_index: int, result: SubmitResult, kind, canonical,
                 in_place: bool, trial_out: list | None) -> tuple[str, str, list[str]] | None:
    """Apply the lines one by one to the trial state (``state`` itself when
    ``in_place``) until the seat's turn ends; the rest is held when every
    remaining line may be, else refused unread (:func:`_past_the_turn`)."""
    turn = state.turn_key()
    trial = state if in_place else state.copy()
    applied: list = []

    def start_legal() -> list[str]:
        return _turn_start_legal(game, state, seat_index, in_place)

    for number, line in enumerate(result.lines, 1):
        if applied and turn_ended(trial, seat_index, turn):
            if None in canonical[number - 1:]:
                return _past_the_turn(result, number - 1, game, state, seat_index, in_place)
            problem = _hold(result.lines[number - 1:], canonical[number - 1:])  # waits for later decisions
            if problem is not None:
                return problem
            break
        problem = _check_line(line, canonical[number - 1], trial, seat_index, kind, applied, start_legal)
        if problem is not None:
            return problem
    held_lines = [line for line in result.lines if line.held]
    if len(held_lines) > holding.MAX_HELD:
        return _hold(held_lines, [line.order for line in held_lines])
    if trial_out is not None:
        trial_out.append(Trial(trial, applied))
    return None


def _check_line(line: LineResult, text: str | None, trial, seat_index: int, kind, applied: list,
                start_legal: Callable[[], list[str]]) -> tuple[str, str, list[str]] | None:
    """One line: too long (refused), held for a later decision (``text``
    its canonical held form), or parsed and applied to ``trial`` (appended
    to ``applied``); an illegal or unreadable line is refused with what is
    legal (the engine's list, else now, else at the turn's start)."""
    if len(line.text) > MAX_LINE:
        line.error = Msg("the line is longer than {max} characters", max=MAX_LINE)
        return (Msg("Nothing was applied: a line is too long."), "refused",
                legal_orders(trial, seat_index, engine=kind))
    if text is not None and (text == holding.CANCEL or not kind.held_order_due(trial, seat_index, text)):
        line.held, line.order = True, text     # for a later decision, not the one owed now
        return None
    try:
        action = kind.parse_action(trial, seat_index, line.text)
        before = trial.step
        applied.append((before, action, trial.apply(seat_index, action), trial.step))
    except OrderError as err:
        line.error = as_written(err.message, line.text)   # quoted as the player wrote it
        legal = (orders_of(kind, trial, seat_index, err.legal) or legal_orders(trial, seat_index, engine=kind)
                 or start_legal())
        if isinstance(err, OrderParseError):
            return (Msg("Nothing was applied: the line \u201c{line}\u201d could not be read.", line=line.text),
                    "refused", legal)
        return (Msg("Nothing was applied: the line \u201c{line}\u201d is not legal now.", line=line.text),
                "refused", legal)
    line.order = Order(action, kind)   # canonical text, written in any language (echo)
    return None
