"""The mails of table talk (issue 26): :func:`messages` (the messages a
seat has not seen yet, in one mail; a reply to it is a message to the same
people) and :func:`message_answer` (a message mailed in was sent, or why
not). Templates ``talk.txt``/``talk.html`` and ``talk_answer``."""
from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from typing import Sequence

from .inputs import Envelope, GameRef
from .message import build, subject_prefix
from .render import catalog


@dataclass(frozen=True)
class TalkLine:
    """One message in a mail: ``head`` ("Bruno → everyone, 12:30"), ``body``
    (the message's plain text, lines kept), ``private`` (to some seats only)."""

    head: str
    body: str
    private: bool = False


def messages(env: Envelope, game: GameRef, lines: Sequence[TalkLine], *, reply_to_whom: str,
             page_url: str = "") -> EmailMessage:
    """The talk mail: every line, oldest first; ``reply_to_whom`` says who
    a reply reaches ("everyone", "Bruno and Carla"); ``page_url``: the
    seat's page, where the whole thread is."""
    tr = catalog(env)
    n = len(lines)
    subject = tr.ngettext("{prefix} — {n} new message at the table", "{prefix} — {n} new messages at the table",
                          n).format(prefix=subject_prefix(game), n=n)
    return build("talk", env, subject, {"game": game, "lines": list(lines), "reply_to_whom": reply_to_whom,
                                        "page_url": page_url})


def message_answer(env: Envelope, game: GameRef, *, sent: bool, to_whom: str, why: str = "",
                   body: str = "") -> EmailMessage:
    """The answer to a message mailed in: sent to ``to_whom``, or refused
    (``why``, and the text as read, so nothing is lost)."""
    tr = catalog(env)
    subject = (tr.gettext("{prefix} — your message is sent") if sent
               else tr.gettext("{prefix} — your message was not sent")).format(prefix=subject_prefix(game))
    return build("talk_answer", env, subject, {"game": game, "sent": sent, "to_whom": to_whom, "why": why,
                                               "body": body}, answering=True)
