"""The inbound email pipeline: one RFC 5322 message in, orders submitted,
an answer in the outbox.

Steps: parse (:func:`pbem.mail.inbound.parse_inbound`: size, line and
structure limits, RFC 3834 auto-mail and loops are dropped without an
answer); dedupe by Message-ID; find the seat from the signed reply address,
which names the player it was written for (once the host gives the seat to
someone else, mail through the old one is not applied, and that player is
told; issue 22); accept only mail whose one author (the From address, read by the address
parser, never the display name; no other Sender) is that seat's own
address and, with ``INBOUND_REQUIRE_AUTH``, whose From domain our mail
server authenticated (:mod:`pbem.mail.authresults`); read which step the
player answered (the Message-ID of our notice in In-Reply-To/References)
so an answer to an old email is refused as stale; submit the orders; and
write the answer (what was read and what happened, or the
failing line, why, and what is legal now) in the same transaction as the
orders and the Message-ID record, so a message is applied and answered once.

No backscatter: nothing a sender wrote (lines, display name, address,
Message-ID) is mailed to an address that has not shown it holds the seat.
Mail through a seat's reply address from another address (or unauthenticated)
gets at most a fixed-text notice, sent to the seat's registered address and
at most :data:`pbem.service.inbound_notices.NOTICE_LIMIT` per address; mail through no reply address from
a registered player's address gets a fixed-text hint, under the global
``UNKNOWN_MAIL_ANSWER_LIMIT`` (whoever sends it can put any From on it).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import re
from dataclasses import dataclass

from flask import current_app
from email.utils import getaddresses
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbem.mail.authresults import sender_authenticated
from pbem.mail.inbound import DEFAULT_MAX_LINES, InboundMail, InboundRejected, parse_inbound, reply_target
from pbem.mail.tokens import BadToken, read_reply_address
from pbem.service.accounts import bounces
from pbem.service.core import queue, ratelimit
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import GameNotFound
from pbem.service.core.models import Game, GameEvent, InboundMessage, Player, Seat, utcnow
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service import inbound_away
from pbem.service import inbound_talk
from pbem.service.play import replies
from pbem.service.play.orders import submit_orders
from pbem.service.play.submission import SubmitResult
from pbem.service.inbound_notices import NOTICE_LIMIT, answer, hint_unknown, notify_holder
from pbem.service.post import notify

log = logging.getLogger(__name__)


_OUR_MSGID = re.compile(r"pbem\.(\d+)\.(\d+)\.(\d+)\.(?:turn|reminder|answer)[.@]")


@dataclass
class InboundResult:
    """``result``: ``stored`` (orders accepted), ``refused``, ``stale``,
    ``duplicate`` (Message-ID seen before: nothing done), ``rejected``
    (dropped unanswered: automatic, looping, oversized or broken mail),
    ``unknown`` (no valid reply address), ``wrong-sender`` (not from the
    seat's address alone), ``unauthenticated`` (from it, but our mail
    server did not authenticate it: ``INBOUND_REQUIRE_AUTH``),
    ``rate-limited`` (over ``INBOUND_RATE_LIMIT`` for the sender: dropped
    unanswered), ``replaced`` (through the reply address of a player the
    host has since replaced at the seat: nothing applied, that player told),
    ``bounce`` (a hard bounce of our mail: the address is marked),
    ``bounce-soft``, ``bounce-unread`` (:mod:`pbem.service.accounts.bounces`),
    ``absence`` (only away lines: absences recorded or refused, and answered;
    :mod:`pbem.service.inbound_away`), ``message`` (only a message to the
    table: sent or refused, and answered; :mod:`pbem.service.inbound_talk`)."""

    result: str
    detail: str = ""
    game_id: int | None = None
    seat_index: int | None = None
    submit: SubmitResult | None = None


def answered_step(mail, game_id: int, seat_index: int) -> int | None:
    """The step of our notice this mail answers, or ``None`` if unknown."""
    for ref in [mail.in_reply_to or "", *reversed(mail.references)]:
        m = _OUR_MSGID.search(ref or "")
        if m and int(m[1]) == game_id and int(m[2]) == seat_index:
            return int(m[3])
    return None


def _own_addresses() -> list[str]:
    cfg = current_app.config
    own = [cfg["INBOUND_ADDRESS"]]
    own += [addr for _n, addr in getaddresses([cfg["MAIL_FROM"]]) if addr]
    return own


def _record(message_id: str, sender: str, result: str, detail: str = "", game_id=None,
            seat_index=None) -> None:
    db.session.add(InboundMessage(message_id=message_id[:998], sender=sender[:320], result=result,
                                  detail=detail[:4000], game_id=game_id, seat_index=seat_index,
                                  received_at=utcnow()))


def _seen(message_id: str) -> bool:
    return db.session.execute(select(InboundMessage.id).where(
        InboundMessage.message_id == message_id[:998])).first() is not None


def handle_inbound(raw: bytes, *, now: dt.datetime | None = None) -> InboundResult:
    """Process one inbound message (bytes). Never raises for bad input;
    idempotent per Message-ID. Commits; enqueues delivery of the answer."""
    try:
        return _handle(raw, now=now)
    except IntegrityError:
        # The same message delivered twice at the same moment: the unique
        # Message-ID let one delivery through. Anything else is a real error.
        db.session.rollback()
        try:
            bounce = bounces.addressed(raw)
            message_id = bounce.message_id if bounce else parse_inbound(
                raw, own_addresses=_own_addresses()).message_id
        except InboundRejected:  # pragma: no cover - it parsed a moment ago
            raise
        if _seen(message_id):
            return InboundResult("duplicate", f"{message_id} was processed before")
        raise


def _handle(raw: bytes, *, now: dt.datetime | None = None) -> InboundResult:
    now = now or utcnow()
    try:
        bounce = bounces.addressed(raw)  # a bounce of ours (VERP), before the RFC 3834 refusal
    except InboundRejected as err:  # over the inbound limits
        log.info("mail to a bounce address dropped: %s", err)
        return InboundResult("rejected", str(err))
    if bounce is not None:
        return _handle_bounce(bounce, raw, now)
    mail = _parsed(raw)
    if isinstance(mail, InboundResult):
        return mail
    begin_write()
    if _seen(mail.message_id):
        db.session.rollback()
        return InboundResult("duplicate", f"{mail.message_id} was processed before")
    admitted = _admit(mail, now)
    if isinstance(admitted, InboundResult):
        return admitted
    db.session.commit()
    return _apply(mail, *admitted, now)


def _parsed(raw: bytes) -> InboundMail | InboundResult:
    """The parsed mail, or the ``rejected`` result (dropped unanswered)."""
    try:
        # no order-line cap here: the reply is read again with the notice it
        # answers (replies.read), and a mail with too many lines is answered
        mail = parse_inbound(raw, own_addresses=_own_addresses(), max_order_lines=DEFAULT_MAX_LINES)
    except InboundRejected as err:
        log.info("inbound mail dropped: %s", err)
        return InboundResult("rejected", str(err))
    # PostgreSQL text cannot hold NUL: an address or Message-ID with one is
    # not real mail; NULs elsewhere are dropped from what is kept.
    if "\x00" in mail.from_address or "\x00" in mail.message_id:
        log.info("inbound mail dropped: NUL in the sender address or Message-ID")
        return InboundResult("rejected", "NUL byte in the sender address or Message-ID")
    if "\x00" in mail.text + mail.from_name + mail.subject or any("\x00" in a for a in mail.auth_results):
        mail = dataclasses.replace(mail, text=mail.text.replace("\x00", ""),
                                   from_name=mail.from_name.replace("\x00", ""),
                                   subject=mail.subject.replace("\x00", ""),
                                   auth_results=tuple(a.replace("\x00", "") for a in mail.auth_results))
    return mail


def _admit(mail: InboundMail, now: dt.datetime) -> InboundResult | tuple[int, int]:
    """``(game id, seat index)`` when ``mail`` may be read as the seat's
    orders; else its recorded result (``unknown``, ``rate-limited``,
    ``replaced``, ``wrong-sender``, ``unauthenticated``), committed, with
    the answer or notice it earns in the outbox. In the write transaction."""
    sender, cfg = mail.from_address.lower(), current_app.config
    try:
        game, seat, bound = _addressed_seat(mail)
    except (BadToken, GameNotFound, KeyError, ValueError) as err:
        if (limited := _over_rate(mail, sender, sender, now)) is not None:
            return limited
        _record(mail.message_id, sender, "unknown", str(err))
        hint_unknown(mail, now=now)
        db.session.commit()
        queue.enqueue(queue.DELIVER)
        return InboundResult("unknown", str(err))
    # counted per reply address and sender: a From alone (anyone can write
    # any) spends nothing of what the seat's own replies may use
    if (limited := _over_rate(mail, sender, f"{game.id}-{seat.index}-{bound}|{sender}", now)) is not None:
        return limited
    if bound is not None and bound != seat.player_id:
        return _former_holder(mail, sender, game, seat, bound, now=now)
    why, detail = None, ""
    if (mail.author or "").lower() != seat.player.email.strip().lower():
        # From another address, several authors, or a Sender: other than the author.
        why, detail = "wrong-sender", f"seat holder is {seat.player.email}"
    elif cfg.get("INBOUND_REQUIRE_AUTH"):
        verdict = sender_authenticated(mail.auth_results, mail.author, cfg.get("INBOUND_AUTHSERV_IDS") or ())
        why, detail = (None, "") if verdict.ok else ("unauthenticated", verdict.detail)
    if why is None:
        return game.id, seat.index
    _record(mail.message_id, sender, why, detail, game.id, seat.index)
    notify_holder(game, seat, why, mail, now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    log.info("inbound mail for game %s seat %s not applied: %s", game.id, seat.index, detail)
    return InboundResult(why, sender if why == "wrong-sender" else detail, game.id, seat.index)


def _apply(mail: InboundMail, game_id: int, seat_index: int, now: dt.datetime) -> InboundResult:
    """Read the seat's reply and submit its orders; the answer is written
    with them (or, with no order line, the first lines seen are answered)."""
    sender = mail.from_address.lower()
    talked = inbound_talk.take(mail, game_id, seat_index, now)  # a message to the table first (issue 26)
    if talked.done:
        return _recorded_message(mail, sender, talked.detail, game_id, seat_index)
    mail = talked.mail
    expected = answered_step(mail, game_id, seat_index)
    away = inbound_away.lines_of(mail)
    if away:  # absences first (issue 25); the other lines are read as orders
        mail = inbound_away.without_away_lines(mail)
    reading, phase = _read_reply(mail, game_id, seat_index)
    if away:
        _answer_away(mail, sender, away, game_id, seat_index, now, record=not reading.orders)
        if not reading.orders:
            return InboundResult("absence", "; ".join(away), game_id, seat_index)
    if not reading.orders:
        return _answer_unread(mail, sender, reading, game_id, seat_index, phase, now)

    def write_answer(res: SubmitResult) -> None:
        if _seen(mail.message_id):  # a concurrent delivery of the same message got here first
            raise _Duplicate()
        _record(mail.message_id, sender, res.status, res.message, game_id, seat_index)
        g = db.session.get(Game, game_id)
        state = engine_state(g) if g.state is not None else None
        answer(notify.order_answer, g, g.seat(seat_index), res, in_reply_to=mail.message_id,
                dedupe_key=f"inbound:{mail.message_id}", state=state, now=now,
                phase=phase, ignored=reading.ignored, references=mail.references)

    try:
        res = submit_orders(game_id, seat_index, reading.text, expected_step=expected, source="email",
                            message_id=mail.message_id, now=now, before_commit=write_answer)
    except _Duplicate:
        db.session.rollback()
        return InboundResult("duplicate", f"{mail.message_id} was processed before", game_id, seat_index)
    queue.enqueue(queue.DELIVER)
    return InboundResult(res.status, res.message, game_id, seat_index, res)


class _Duplicate(Exception):
    pass


def _recorded_message(mail, sender: str, detail: str, game_id: int, seat_index: int) -> InboundResult:
    """Record a mail that was only a message to the table (sent or refused,
    and answered by :mod:`pbem.service.inbound_talk`). Commits."""
    begin_write()
    _record(mail.message_id, sender, "message", detail, game_id, seat_index)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return InboundResult("message", detail, game_id, seat_index)


def _answer_away(mail, sender: str, lines: list[str], game_id: int, seat_index: int, now: dt.datetime, *,
                 record: bool) -> None:
    """Record the mail's away lines as absences and answer them; ``record``:
    the mail has nothing else to apply, so it is recorded as ``absence``."""
    answers = inbound_away.declare_lines(mail, lines, game_id, seat_index, now)
    begin_write()
    if record:
        _record(mail.message_id, sender, "absence", "; ".join(lines), game_id, seat_index)
    inbound_away.write_answer(mail, answers, game_id, seat_index, now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)


def _over_rate(mail: InboundMail, sender: str, key: str, now: dt.datetime) -> InboundResult | None:
    """Count the mail against ``INBOUND_RATE_LIMIT`` under ``key``; over
    it, record it as ``rate-limited``, commit and return that result
    (dropped unanswered: an answer would feed a flood, or a loop)."""
    if ratelimit.allow_inbound(key, now=now):
        return None
    _record(mail.message_id, sender, "rate-limited", "over INBOUND_RATE_LIMIT")
    db.session.commit()
    log.warning("inbound mail from %s dropped: over the rate limit", sender)
    return InboundResult("rate-limited", f"too many mails from {sender}")


def _addressed_seat(mail: InboundMail) -> tuple[Game, Seat, int | str | None]:
    """``(game, seat, holder)`` of the signed reply address ``mail`` came
    through; ``holder`` is the id of the player it was written for
    (:func:`pbem.mail.tokens.read_reply_address`). An address from before
    holders were bound (no holder) counts only in a game where the host
    never gave a seat away. Raises :class:`BadToken`,
    :class:`GameNotFound`, ``KeyError`` (no such seat), ``ValueError``."""
    cfg = current_app.config
    keys = (cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"])
    old = cfg.get("SECRET_KEY_FALLBACKS") or ()
    _game, _seat, address = reply_target(mail, *keys, old_secrets=old)
    found = read_reply_address(*keys, address, old_secrets=old)
    game = load_game(int(found.game))   # with its seats and their players: one statement
    seat = game.seat(int(found.seat))
    if found.holder is None and db.session.execute(select(GameEvent.id).where(
            GameEvent.game_id == game.id, GameEvent.kind == "replaced").limit(1)).first() is not None:
        raise BadToken("an unbound reply address, in a game where the host gave a seat to someone else")
    return game, seat, found.holder


def _former_holder(mail: InboundMail, sender: str, game: Game, seat: Seat, holder: int | str, *,
                   now: dt.datetime) -> InboundResult:
    """Mail through the reply address of a player who no longer holds the
    seat (the host gave it away): nothing applied, whatever its From says.
    The player the address was written for (not the From) is told so in
    their language, within :data:`NOTICE_LIMIT`. Commits."""
    _record(mail.message_id, sender, "replaced", f"address of player {holder}; the seat's holder is now "
            f"player {seat.player_id}", game.id, seat.index)
    former = db.session.get(Player, holder) if isinstance(holder, int) else None
    if former is not None and ratelimit.allow("pbem-notice", former.email.strip().lower(), NOTICE_LIMIT,
                                              fail_open=False, now=now):
        answer(notify.not_applied, game, seat, former, "replaced", dedupe_key=f"inbound:{mail.message_id}",
                now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    log.info("inbound mail for game %s seat %s not applied: the address of a former holder", game.id, seat.index)
    return InboundResult("replaced", "the host gave this seat to another player", game.id, seat.index)


def _handle_bounce(bounce: bounces.Bounce, raw: bytes, now: dt.datetime) -> InboundResult:
    """Mail to a bounce address: deduped by Message-ID and counted against
    ``INBOUND_RATE_LIMIT`` per bounce address (a forged From cannot spend
    another mail's bounces), then read
    (:func:`pbem.service.accounts.bounces.apply`) and recorded. Commits."""
    begin_write()
    if _seen(bounce.message_id):
        db.session.rollback()
        return InboundResult("duplicate", f"{bounce.message_id} was processed before")
    if not ratelimit.allow_inbound(f"bounce-{bounce.row_id}", now=now):  # only its holders can spend it
        _record(bounce.message_id, bounce.sender, "rate-limited", "over INBOUND_RATE_LIMIT")
        db.session.commit()
        return InboundResult("rate-limited", f"too many mails to the bounce address of outbox row {bounce.row_id}")
    status, detail, game_id = bounces.apply(bounce, raw, now=now)
    _record(bounce.message_id, bounce.sender, status, detail, game_id)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return InboundResult(status, detail, game_id)


def _read_reply(mail, game_id: int, seat_index: int):
    """``(reading, phase)``: the reply read with the notice it answers
    (:mod:`pbem.service.play.replies`), and the phase the orders are for (the
    game's phase now, before they are applied). Reads only."""
    game = db.session.get(Game, game_id)
    phase = game.phase
    state = None
    if game.state is not None:
        try:
            state = engine_state(game)
        except Exception:  # reading never fails on a state: the patterns still read the mail
            log.exception("game %s: state unreadable while reading a reply", game_id)
    if state is not None:
        phase = state.phase()  # the engine's message: the answer says it in the player's language
    reading = replies.read(mail, game, seat_index, state)
    db.session.rollback()  # end the read: submit_orders locks the game itself
    return reading, phase


def _answer_unread(mail, sender: str, reading, game_id: int, seat_index: int, phase: str,
                   now: dt.datetime) -> InboundResult:
    """No order line in a mail from the seat's own address: it is answered
    with the first lines seen (never dropped silently), nothing applied."""
    begin_write()
    if _seen(mail.message_id):
        db.session.rollback()
        return InboundResult("duplicate", f"{mail.message_id} was processed before", game_id, seat_index)
    detail = "no orders found in the mail"
    _record(mail.message_id, sender, "refused", detail, game_id, seat_index)
    game = db.session.get(Game, game_id)
    state = engine_state(game) if game.state is not None else None
    answer(notify.unread_answer, game, game.seat(seat_index), reading.first_lines,
            in_reply_to=mail.message_id, dedupe_key=f"inbound:{mail.message_id}", state=state,
            now=now, phase=phase)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return InboundResult("refused", detail, game_id, seat_index)
