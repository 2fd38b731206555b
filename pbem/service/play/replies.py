"""Reading a player's reply with what pbem knows: the notice it answers.

pbem keeps every mail it sent in the outbox. The notice a reply answers is
the row whose Message-ID the reply names (In-Reply-To, then References,
newest first); without one, the seat's latest turn notice or reminder.
Its plain part and its HTML part (as text) are handed to
:func:`pbem.mail.reply_text.read_reply`, which finds the quoted copy by
its words; the game's order parser tells orders from a greeting or a
sign-off (a line it cannot read at all is not an order).
"""
from __future__ import annotations

import logging
from email import message_from_bytes, policy
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from typing import Callable

from flask import current_app
from sqlalchemy import select

from pbem.engine import OrderError, OrderParseError, get_game
from pbem.mail import reply_text
from pbem.mail.flowed import plain_text
from pbem.mail.inbound_body import head_and_tail
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage
from pbem.service.play.held import game_holds, is_cancel

log = logging.getLogger(__name__)

__all__ = ["answered_notice", "new_text", "notice_texts", "order_predicate", "read"]

#: how many of the seat's latest outbox rows are looked at for the notice answered
RECENT = 40
_NOTICE_KINDS = ("turn", "reminder", "missed", "refusal", "confirmation", "talk")


def _message_id(raw: bytes) -> str:
    try:
        return str(BytesHeaderParser(policy=policy.compat32).parsebytes(raw).get("Message-ID", "")).strip()
    except Exception:  # a row we wrote ourselves; never expected
        return ""


def answered_notice(game_id: int, seat_index: int, refs: list[str]) -> bytes | None:
    """The bytes of the mail to this seat that a reply answers: the row
    whose Message-ID is in ``refs`` (In-Reply-To first), else the seat's
    latest turn notice or reminder (composed now if it is still waiting in
    the outbox). ``None`` when pbem has sent this seat nothing it keeps."""
    rows = db.session.execute(
        select(OutboxMessage).where(OutboxMessage.game_id == game_id, OutboxMessage.seat_index == seat_index,
                                    OutboxMessage.kind.in_(_NOTICE_KINDS))
        .order_by(OutboxMessage.id.desc()).limit(RECENT)).scalars().all()
    wanted = [r.strip() for r in refs if r]
    if wanted:
        by_id = {_message_id(r.raw): r.raw for r in rows if r.raw}
        for ref in wanted:
            if ref in by_id:
                return by_id[ref]
    for row in rows:
        if row.kind not in ("turn", "reminder"):
            continue
        if row.raw:
            return row.raw
        try:
            from pbem.service.post.outbox import render

            raw = render(row)
        except Exception:  # composing is best effort: the patterns read the reply without it
            log.exception("outbox row %s could not be composed to read a reply", row.id)
            raw = None
        if raw:
            return raw
    return None


def notice_texts(raw: bytes) -> tuple[list[str], list[str]]:
    """``(texts, sender tokens)`` of a sent mail: its plain part and its
    HTML part as text; its sender's name and address and its Reply-To."""
    msg = message_from_bytes(raw, policy=policy.default)
    # the plain part as written: a format=flowed part's soft breaks joined
    texts: list[str] = [text for text in (plain_text(msg),) if text]
    html = msg.get_body(("html",))
    if html is not None:
        texts.append(reply_text.html_to_text(html.get_content()))
    tokens: list[str] = []
    for header in ("From", "Reply-To"):
        for name, addr in getaddresses([str(msg.get(header, ""))]):
            tokens += [t for t in (name, addr) if t]
    return texts, tokens


def order_predicate(game, seat_index: int, state) -> Callable[[str], bool]:
    """Whether a line is in the game's command language: the game's parser
    reads it on the turn's state (legal or not), or it is a line the seat
    may send ahead (:mod:`pbem.service.play.held`); a line it cannot parse at
    all (``OrderParseError``) is not an order."""
    engine = get_game(game.kind)
    holds = game_holds(engine)

    def is_order(line: str) -> bool:
        if holds and (is_cancel(line) or engine.hold_order(line) is not None):
            return True   # a line held for a later decision (pbem.service.play.held)
        try:
            engine.parse_action(state, seat_index, line)  # parsing reads the state only
        except OrderParseError:
            return False
        except OrderError:
            return True
        except Exception:
            return False
        return True

    return is_order


#: how much of a reply's body is read for orders: its first and last halves
MAX_READ_CHARS = 32_000


def read(mail, game, seat_index: int, state) -> reply_text.Reading:
    """The orders (and the lines set aside) of ``mail`` (an
    :class:`~pbem.mail.inbound.InboundMail` to seat ``seat_index`` of
    ``game``). ``state``: the game's engine state, or ``None``."""
    refs = [mail.in_reply_to or "", *reversed(mail.references)]
    raw = answered_notice(game.id, seat_index, refs)
    texts, tokens = notice_texts(raw) if raw else ([], [])
    cfg = current_app.config
    tokens += [a for _n, a in getaddresses([cfg.get("MAIL_FROM", "")]) if a] + [cfg.get("INBOUND_ADDRESS", "")]
    is_order = order_predicate(game, seat_index, state) if state is not None else None
    # the orders are above or below the quote; a longer middle is quoted
    # text, and reading it line by line with the game's parser costs ~25 µs
    # a line (a 400,000-character body of order-like lines: about 2 s)
    body = head_and_tail(mail.body, MAX_READ_CHARS)
    words = get_game(game.kind).order_words() if state is not None else ()
    return reply_text.read_reply(body, notice_texts=texts, sender_tokens=tokens, is_order=is_order,
                                 by_patterns=mail.text, order_words=words)


def new_text(mail, game, seat_index: int) -> list[str]:
    """The newly written lines of ``mail`` (to seat ``seat_index`` of
    ``game``), found with the same quote finder as orders: the notice it
    answers (a turn notice, or a message notice of table talk) located by
    its words, else the patterns. Table talk reads its messages from them
    (:mod:`pbem.service.inbound_talk`, issue 26)."""
    refs = [mail.in_reply_to or "", *reversed(mail.references)]
    raw = answered_notice(game.id, seat_index, refs)
    texts, tokens = notice_texts(raw) if raw else ([], [])
    cfg = current_app.config
    tokens += [a for _n, a in getaddresses([cfg.get("MAIL_FROM", "")]) if a] + [cfg.get("INBOUND_ADDRESS", "")]
    lines, _found = reply_text.new_lines(head_and_tail(mail.body, MAX_READ_CHARS), notice_texts=texts,
                                         sender_tokens=tokens, by_patterns=mail.text)
    return lines
