"""The reply corpus (``tests/mail/corpus/*.txt``, see its README): fixtures
read, and a fixture made into the raw reply to a given notice."""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"


@dataclass
class Fixture:
    name: str
    meta: dict
    body: str
    orders: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.meta.get("body", "plain")

    @property
    def path(self) -> bool:
        return self.meta.get("path") == "yes"


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(" | ") if v.strip()] if value.strip() else []


def load() -> list[Fixture]:
    out = []
    for file in sorted(CORPUS.glob("*.txt")):
        for block in re.split(r"^=== ", file.read_text(encoding="utf-8"), flags=re.M)[1:]:
            head, _, body = block.partition("\n---\n")
            name, *meta_lines = head.split("\n")
            meta = {}
            for line in meta_lines:
                key, _, value = line.partition(":")
                meta[key.strip()] = value.strip()
            for key in ("client", "lang", "structure", "source"):
                assert meta.get(key), f"fixture {name} has no {key}"
            out.append(Fixture(name.strip(), meta, body.rstrip("\n") + "\n",
                               _split(meta.get("orders", "")), _split(meta.get("ignored", ""))))
    return out


@dataclass
class Notice:
    """The notice a reply answers: its plain and HTML text, Message-ID,
    Reply-To and sender address."""

    plain: str
    html: str
    message_id: str
    reply_to: str
    subject: str
    sender: str = "pbem@pbem.test"


def _quote(text: str, prefix: str) -> str:
    return "\n".join((prefix + line) if line else prefix.rstrip() for line in text.splitlines())


def _wrapped(text: str, width: int = 60) -> str:
    out = []
    for line in text.splitlines():
        out += textwrap.wrap(line, width) if len(line) > width else [line]
    return _quote("\n".join(out), "> ")


def _flowed(text: str, width: int = 66) -> str:
    out = []
    for line in text.splitlines():
        line = line if line == "-- " else line.rstrip()
        if len(line) > width:
            parts = textwrap.wrap(line, width, drop_whitespace=True)
            out += [p + " " for p in parts[:-1]] + [parts[-1]]
        else:
            out.append(line)
    return "\n".join("> " + l if l else ">" for l in out)


def _html_body(html: str) -> str:
    m = re.search(r"<body[^>]*>(.*)</body>", html, re.S | re.I)
    return m.group(1) if m else html


#: the opening an older notice of the same turn (a reminder) has instead of the turn notice's
OLDER_OPENING = ("Reminder: your orders for La Città #1 (Year 1, political round 1, seat 1) are not in yet. "
                 "Time left: 12 hours.\n"
                 "If the deadline passes, the default order is applied for you and the turn counts as missed.")


def older(text: str, html: bool = False) -> str:
    """``text`` (the notice's plain or HTML part) as an older notice of the
    same turn would have it: a reminder's opening instead of "It is your move"."""
    if html:
        return re.sub(r"It is your move in [^<]*", OLDER_OPENING.replace("\n", "<br>"), text, count=1)
    return re.sub(r"(?m)^It is your move in .*$", OLDER_OPENING, text, count=1)


def body_of(fx: Fixture, notice: Notice) -> str:
    values = {"{Q}": _quote(notice.plain, "> "), "{Q1}": _quote(notice.plain, ">"), "{P}": notice.plain,
              "{W}": _wrapped(notice.plain), "{F}": _flowed(notice.plain), "{H}": _html_body(notice.html),
              "{R}": older(notice.plain), "{RQ}": _quote(older(notice.plain), "> "),
              "{RH}": _html_body(older(notice.html, html=True)),
              "{ADDR}": notice.reply_to, "{FROM}": notice.sender}
    body = fx.body
    for key, value in values.items():
        body = body.replace(key, value)
    charset = fx.meta.get("charset")
    if charset:  # a client writing a legacy charset: what it cannot encode becomes "?"
        body = body.encode(charset, errors="replace").decode(charset)
    return body


def reply_bytes(fx: Fixture, notice: Notice, *, sender: str = "Ada <ada@example.org>") -> bytes:
    """The fixture as the raw reply a client would send to ``notice``."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = notice.reply_to
    msg["Subject"] = "Re: " + notice.subject
    msg["Message-ID"] = make_msgid(idstring=fx.name.replace("_", "-"), domain="example.org")
    if fx.meta.get("refs") != "no":
        msg["In-Reply-To"] = notice.message_id
        msg["References"] = notice.message_id
    body = body_of(fx, notice)
    charset = fx.meta.get("charset", "utf-8")
    if fx.kind == "html":
        msg.set_content(body, subtype="html", charset=charset, cte="quoted-printable")
    else:
        msg.set_content(body, charset=charset, cte="quoted-printable")  # keeps the trailing spaces of flowed lines
        if fx.kind == "flowed":
            msg.set_param("format", "flowed")
    return msg.as_bytes()
