"""Table talk by mail (issue 26; docs/long-games.md, "Table talk by mail").

A seat's mail is a message when:

- it answers a message notice (its In-Reply-To or References names one:
  ``pbem.<game>.<seat>.<message id>.talk``): the whole reply is a message,
  to the same people as the newest message of that notice: everyone when
  it was to everyone, else its author and its other recipients (a
  reply-all); a ``to:`` line at its top chooses other recipients;
- or it carries a ``to:`` line (``to: Bruno, Carla``, ``to: all``, in any
  language's word: :mod:`pbem.mail.talk_reply`): everything from that line
  on is the message; the lines above it are read as orders, as usual.

Either way the newly written text is read with the same quote finder as
orders (:func:`pbem.service.play.replies.new_text`), the message is
written by :func:`pbem.service.play.talk.post_message` (every rule of the
web applies: the host's setting, 4,000 characters, the rate limit), and
answered on its own (``talk_answer``): sent to whom, or why not with the
text as read, so nothing is lost. Orders in the same mail get their own
answer from the order path.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass

from pbem.i18n import translate, translations
from pbem.engine.messages import Msg
from pbem.mail import talk_mail
from pbem.mail.talk_reply import ALL_WORDS, fold, is_to_line, split
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import ServiceError
from pbem.service.core.snapshot import load_game
from pbem.service.core.talk_models import TalkMessage
from pbem.service.inbound_notices import answer as safely
from pbem.service.play import replies, talk
from pbem.service.play.talk_mail import names
from pbem.service.play.talk_read import messages_for
from pbem.service.post.envelope import envelope, game_ref, lang_of
from pbem.service.post.send import send

_TALK_MSGID = re.compile(r"pbem\.(\d+)\.(\d+)\.(\d+)\.talk[.@]")


@dataclass
class Taken:
    """What :func:`take` did: ``done`` (the mail was only a message, now
    sent or refused and answered), ``mail`` (what is left to read as
    orders), ``detail`` (for the inbound record)."""

    done: bool
    mail: object
    detail: str = ""


def answered_message(mail, game_id: int, seat_index: int) -> int | None:
    """The newest message id of the message notice ``mail`` answers, or ``None``."""
    for ref in [mail.in_reply_to or "", *reversed(mail.references)]:
        m = _TALK_MSGID.search(ref or "")
        if m and int(m[1]) == game_id and int(m[2]) == seat_index:
            return int(m[3])
    return None


def reply_recipients(game, seat_index: int, player_id: int, message_id: int) -> str | list[int]:
    """Who a reply to message ``message_id`` goes to: :data:`talk.ALL` when
    it was to everyone, else its author and its other recipients. Only a
    message the replier may read counts (else: everyone is refused below)."""
    line = next((m for m in messages_for(game, seat_index, player_id, limit=10_000, with_muted=True)
                 if m.id == message_id), None)
    if line is None:
        raise ServiceError(Msg("The message you answered is no longer yours to answer."))
    if line.to_all:
        return talk.ALL
    return sorted({line.seat, *line.to} - {seat_index})


def seats_named(game, seat_index: int, written: list[str]) -> str | list[int]:
    """The seats the names of a ``to:`` line stand for: a player's name
    (as on the game page, case and accents aside), "seat 2" or "2";
    :data:`talk.ALL` for "all" in any language. Raises ``ServiceError``
    naming the names it does not know and the ones it does, or a name
    two players share (one may have taken the other's: the seat number
    says which)."""
    if any(fold(n) in ALL_WORDS for n in written):
        return talk.ALL
    by_name: dict[str, list[int]] = {}
    for s in game.seats:
        if s.player and s.player.name:
            by_name.setdefault(fold(s.player.name), []).append(s.index)
    out, unknown, shared = [], [], []
    for name in written:
        key = fold(name)
        number = re.sub(r"^\D*", "", key)
        if key in by_name and len(by_name[key]) > 1:
            shared.append(name[:60])
        elif key in by_name:
            out.append(by_name[key][0])
        elif number.isdigit() and 1 <= int(number) <= len(game.seats) and not re.search(r"\d\D", key):
            out.append(int(number) - 1)
        else:
            unknown.append(name[:60])
    if shared:
        seats = ", ".join(str(i + 1) for name in shared for i in by_name[fold(name)])
        raise ServiceError(Msg("More than one player of this game is called {names} (seats {seats}); write the "
                               "seat number instead, as in \u201cto: seat 2\u201d.", names=", ".join(shared),
                               seats=seats))
    if unknown:
        known = ", ".join(s.player.name for s in game.seats if s.index != seat_index and s.player and s.player.name)
        raise ServiceError(Msg("No player of this game is called {names}; the others are {known}.",
                               names=", ".join(unknown), known=known))
    return out


def take(mail, game_id: int, seat_index: int, now: dt.datetime) -> Taken:
    """Read the message in seat ``seat_index``'s ``mail`` (see the module),
    post and answer it (commits). Returns what is left of the mail."""
    answered = answered_message(mail, game_id, seat_index)
    if answered is None and not any(is_to_line(line) for line in (mail.text or "").splitlines()):
        return Taken(False, mail)  # no message here (read from the headers and text alone: no query)
    game = load_game(game_id)
    lines = replies.new_text(mail, game, seat_index)
    to = split(lines)
    db.session.commit()
    if answered is None and to is None:
        return Taken(False, mail)
    seat = game.seat(seat_index)
    before = to.before if to is not None else []
    body = to.message if to is not None else "\n".join(lines).strip("\n")
    try:
        recipients = (seats_named(game, seat_index, to.names) if to is not None
                      else reply_recipients(game, seat_index, seat.player_id, answered))
        message = talk.post_message(game_id, seat_index, seat.player_id, body, to=recipients, source="email", now=now)
        detail = f"message {message.id}"
    except ServiceError as err:
        db.session.rollback()
        message, detail = None, f"message refused: {err}"
        why = err.args[0] if err.args else str(err)
    else:
        why = ""
    _answer(mail, game_id, seat_index, message, why, body, now)
    if any(line.strip() for line in before):
        text = "\n".join(before)
        return Taken(False, dataclasses.replace(mail, text=text, body=text), detail)
    return Taken(True, mail, detail)


def _answer(mail, game_id: int, seat_index: int, message: TalkMessage | None, why, body: str,
            now: dt.datetime) -> None:
    """Queue the answer to a mailed-in message and commit."""
    begin_write()
    game = load_game(game_id)
    seat = game.seat(seat_index)
    lang = lang_of(seat.player)
    safely(answer, game, seat, lang, message, translate(why, lang) if why else "", body,
           in_reply_to=mail.message_id, references=mail.references, now=now)
    db.session.commit()


def answer(game, seat, lang: str, message: TalkMessage | None, why: str, body: str, *, in_reply_to: str,
           references, now: dt.datetime) -> None:
    """Queue the ``talk_answer`` mail to ``seat`` (in the open transaction):
    the message was sent to whom, or ``why`` not, with ``body`` as read."""
    to_whom = ""
    if message is not None:
        to_whom = (translations(lang).gettext("everyone") if message.to_all
                   else names(game, [r.seat_index for r in message.recipients], lang))
    env = envelope(game, seat, now=now, tag=f"pbem.{game.id}.{seat.index}.talkanswer", in_reply_to=in_reply_to,
                   references=[*references, in_reply_to][-20:])
    msg = talk_mail.message_answer(env, game_ref(game), sent=message is not None, to_whom=to_whom, why=why,
                                   body=body[:4000] if message is None else "")
    send(msg, kind="talk_answer", dedupe_key=f"talk-in:{in_reply_to}", player=seat.player, now=now,
         game_id=game.id, seat_index=seat.index)
