"""Replies to a notice sent as format=flowed (RFC 3676): however the
player's client quotes it (paragraphs joined and quoted whole, re-flowed at
its own width with soft breaks of its own, or our lines as they came), the
orders are read the same and the copy of the notice is found."""
from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from types import SimpleNamespace

import pytest

from pbem.engine import get_game
from pbem.mail.flowed import plain_text
from pbem.mail.inbound import DEFAULT_MAX_LINES, parse_inbound
from pbem.mail.reply_text import read_reply
from pbem.service.play.replies import notice_texts, order_predicate

from .corpus_loader import _flowed, _quote
from .test_corpus import world  # noqa: F401  (the module's fixture: a sent La Città notice)

HEADER = "On Mon, 23 Nov 2026 at 16:44, pbem <pbem@pbem.test> wrote:"


def _reply(world, body: str, *, flowed: bool) -> bytes:
    notice = message_from_bytes(world.raw, policy=policy.default)
    msg = EmailMessage()
    msg["From"] = "Ada <ada@example.org>"
    msg["To"] = notice["Reply-To"]
    msg["Subject"] = "Re: " + notice["Subject"]
    msg["In-Reply-To"] = msg["References"] = notice["Message-ID"]
    msg.set_content(body, cte="quoted-printable")  # keeps the trailing spaces of soft breaks
    if flowed:
        msg.set_param("format", "flowed")
    return msg.as_bytes()


def _read(world, raw: bytes):
    mail = parse_inbound(raw, max_order_lines=DEFAULT_MAX_LINES)
    texts, tokens = notice_texts(world.raw)
    return read_reply(mail.body, notice_texts=texts, sender_tokens=tokens + ["play@pbem.test"],
                      is_order=order_predicate(SimpleNamespace(kind="lacitta"), 0, world.state),
                      order_words=get_game("lacitta").order_words())


def _quotes(world) -> dict[str, tuple[str, bool]]:
    """How clients quote the notice: ``{name: (quote, sent format=flowed)}``."""
    part = message_from_bytes(world.raw, policy=policy.default).get_body(("plain",))
    wire, shown = part.get_content(), plain_text(message_from_bytes(world.raw, policy=policy.default))
    return {
        "paragraphs quoted whole": (_quote(shown, "> "), False),
        "re-flowed at 66": (_flowed(shown, 66), True),
        "re-flowed at 40": (_flowed(shown, 40), True),
        "our lines kept, flowed": ("\n".join("> " + line if line else ">" for line in wire.split("\n")), True),
        "our lines kept, fixed": (_quote(wire, "> "), False),
    }


def test_the_notice_is_sent_flowed_and_its_paragraphs_are_longer_than_a_line(world):
    part = message_from_bytes(world.raw, policy=policy.default).get_body(("plain",))
    assert part.get_param("format") == "flowed" and part.get_param("delsp") == "no"
    shown = plain_text(message_from_bytes(world.raw, policy=policy.default))
    assert max(map(len, shown.splitlines())) > 78
    # over 78 as sent: a URL, or an indented line of the game's tables (fixed, never cut)
    assert all(line.startswith(("http://", "  ")) for line in part.get_content().splitlines() if len(line) > 78)


@pytest.mark.parametrize("how", ["paragraphs quoted whole", "re-flowed at 66", "re-flowed at 40",
                                 "our lines kept, flowed", "our lines kept, fixed"])
def test_a_reply_is_read_the_same_however_its_client_quotes_us(world, how):
    quote, flowed = _quotes(world)[how]
    top = _read(world, _reply(world, f"gold\n\nThanks!\n\n{HEADER}\n{quote}\n", flowed=flowed))
    assert (top.orders, top.ignored, top.found) == (["gold"], ["Thanks!"], True)
    bottom = _read(world, _reply(world, f"{HEADER}\n{quote}\n\nbuild farm E6\n", flowed=flowed))
    assert (bottom.orders, bottom.found) == (["build farm E6"], True)

