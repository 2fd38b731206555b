"""``pbem bench inbound``: CPU time of the inbound parser on hostile mail.

Each case is one message at most ``DEFAULT_MAX_BYTES`` (2 MiB) long, built
to hit one costly path of the stdlib's email parsers: a folded ``To:`` of
80,000 addresses, 120,000 addresses on one line, a one-word encoded
``Subject:`` of 2 MiB, as many MIME parts or nesting levels as fit, header
fields by the hundred thousand, a quadratic ``Content-Type`` parameter list,
a ``From:`` of quotes, a huge attached message's header, junk
``Authentication-Results``. Each is parsed with
:func:`pbem.mail.inbound.parse_inbound` (and its ``Authentication-Results``
checked, as with ``PBEM_INBOUND_REQUIRE_AUTH``); the CPU time per message is
``time.process_time()``. The goal: every message is read or refused in under
100 ms of CPU.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable

import click

from pbem.mail.authresults import sender_authenticated
from pbem.mail.inbound import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, InboundRejected, parse_inbound

__all__ = ["CASES", "build", "measure"]

MAX = DEFAULT_MAX_BYTES
_HEAD = (b"From: Ada <ada@example.org>\r\nTo: play+1-0-abcdefghijklmnop@pbem.test\r\n"
         b"Subject: Re: [pbem] La Citta #1\r\nMessage-ID: <bench@example.org>\r\n")


def _fill(prefix: bytes, unit: bytes, suffix: bytes = b"\r\n\r\ncastle F7\r\n") -> bytes:
    """``prefix`` + as many ``unit`` as fit in MAX with ``suffix``."""
    n = (MAX - len(prefix) - len(suffix)) // len(unit)
    return prefix + unit * n + suffix


def _lines(prefix: bytes, unit: bytes, lines: int = DEFAULT_MAX_LINES - 1000,
           suffix: bytes = b"\r\n\r\ncastle F7\r\n") -> bytes:
    """``prefix`` + ``unit`` repeated to just under the line limit (and MAX)."""
    count = min((lines - prefix.count(b"\n") - 4) // unit.count(b"\n"),
                (MAX - len(prefix) - len(suffix)) // len(unit))
    return prefix + unit * count + suffix


def _folded_to(count: int) -> bytes:
    to = b",\r\n ".join(b"u%d@example.org" % i for i in range(count))
    return (b"From: Ada <ada@example.org>\r\nTo: " + to + b"\r\nSubject: x\r\n\r\ncastle F7\r\n")[:MAX]


def _one_line_to(count: int) -> bytes:
    to = b",".join(b"u%d@x.io" % i for i in range(count))
    return (b"From: Ada <ada@example.org>\r\nTo: " + to + b"\r\nSubject: x\r\n\r\ncastle F7\r\n")[:MAX]


def _deep(levels: int = 10 ** 9) -> bytes:
    out = [_HEAD + b"Content-Type: multipart/mixed; boundary=b0\r\n\r\n"]
    size, i = len(out[0]), 1
    while i <= levels:
        level = b"--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n" % (i - 1, i)
        if size + len(level) > MAX:
            return b"".join(out)
        out.append(level)
        size, i = size + len(level), i + 1
    return b"".join(out)


def _mime(parts: int) -> bytes:
    body = b"".join(b"--q\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(parts))
    return _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n" + body + b"--q--\r\n"


def _attachment() -> bytes:
    import base64

    head = _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\n\r\ncastle F7\r\n--q\r\n"
    head += b"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    room = (MAX - len(head) - 20) * 3 // 4 * 76 // 78
    data = base64.encodebytes(b"\x00" * (room // 3 * 3)).replace(b"\n", b"\r\n")
    return head + data + b"--q--\r\n"


#: name -> builder of one hostile message (bytes, at most MAX)
CASES: dict[str, Callable[[], bytes]] = {
    "a normal reply": lambda: _HEAD + b"\r\ncastle F7\r\n\r\nOn Monday pbem wrote:\r\n> turn\r\n",
    "folded To, 80k addresses": lambda: _folded_to(80_000),
    "To, 120k addresses, one line": lambda: _one_line_to(120_000),
    "folded To, 39k lines": lambda: _folded_to(39_000),
    "To, 100 addresses (the limit)": lambda: _folded_to(100),
    "To, 7 fields of 32 KiB of commas": lambda: (
        b"From: a@example.org\r\n" + (b"To: " + b"a," * 16_000 + b"\r\n") * 7 + b"\r\ncastle F7\r\n"),
    "Subject, one 2 MiB encoded word": lambda: _fill(b"From: a@example.org\r\nSubject: =?utf-8?q?", b"a",
                                                      b"?=\r\n\r\ncastle F7\r\n"),
    "Subject, 990-char encoded word": lambda: (b"From: a@example.org\r\nSubject: =?utf-8?q?" + b"a" * 970
                                                + b"?=\r\n\r\ncastle F7\r\n"),
    "header fields, CR line ends": lambda: _fill(b"From: a@example.org\r\n", b"X-A: b\r"),
    "header fields, 39k lines": lambda: _lines(b"From: a@example.org\r\n", b"X-A: b\r\n"),
    "one field of 1990 folded lines": lambda: (
        b"From: a@example.org\r\nX-Long: v\r\n" + (b" " + b"w" * 126 + b"\r\n") * 1990 + b"\r\ncastle F7\r\n"),
    "300 header fields (the limit)": lambda: (_HEAD + b"X-A: b\r\n" * 290 + b"\r\ncastle F7\r\n"),
    "MIME parts, as many as fit": lambda: _fill(_HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n",
                                                b"--q\r\n\r\nx\r\n"),
    "MIME parts, 13k (39k lines)": lambda: _lines(
        _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n", b"--q\r\n\r\nx\r\n"),
    "MIME parts, 199 (the limit)": lambda: _mime(199),
    "MIME nesting, as deep as fits": _deep,
    "MIME nesting, 13k deep (39k lines)": lambda: _deep(13_000),
    "Content-Type, 300k parameters": lambda: _fill(b"From: a@example.org\r\nContent-Type: text/plain",
                                                   b"; a=b"),
    "part Content-Type, 3k parameters": lambda: (
        _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\nContent-Type: text/plain"
        + b";\r\n a=b" * 3000 + b"\r\n\r\ncastle F7\r\n--q--\r\n"),
    "parts, each a 16 KiB Content-Type": lambda: _fill(
        _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n",
        b"--q\r\nContent-Type: text/plain" + b"; a=b" * 3200 + b"\r\n\r\n\r\n", b"--q--\r\n"),
    "parts, each a 4 KiB Content-Type": lambda: _fill(
        _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n",
        b"--q\r\nContent-Type: text/plain" + b"; a=b" * 780 + b"\r\n\r\n\r\n", b"--q--\r\n"),
    "15 parts, each a 4 KiB Content-Type": lambda: (
        _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n"
        + (b"--q\r\nContent-Type: text/plain" + b"; a=b" * 780 + b"\r\n\r\n\r\n") * 15 + b"--q--\r\n"),
    "Content-Type, 32 KiB of parameters": lambda: (
        b"From: a@example.org\r\nContent-Type: text/plain" + b"; a=b" * 6500 + b"\r\n\r\ncastle F7\r\n"),
    "Content-Type, 64 long parameters (the limit)": lambda: (
        b"From: a@example.org\r\nContent-Type: text/plain"
        + b"".join(b';\r\n p%d="%s"' % (i, b"v" * 400) for i in range(64)) + b"\r\n\r\ncastle F7\r\n"),
    "From, 990 quotes": lambda: b"From: " + b'"' * 990 + b"\r\nSubject: x\r\n\r\ncastle F7\r\n",
    "From, 2 MiB of quotes": lambda: _fill(b"From: ", b'"'),
    "From, 250 fields of 990 quotes": lambda: (b"From: " + b'"' * 990 + b"\r\n") * 250 + b"\r\ncastle F7\r\n",
    "To, 16 KiB of commas (the limit)": lambda: (
        b"From: a@example.org\r\nTo: " + b"a," * 8000 + b"\r\n\r\ncastle F7\r\n"),
    "attached message, 200k header lines": lambda: _fill(
        _HEAD + b"Content-Type: message/rfc822\r\n\r\n", b"X-A: b\r"),
    "attached messages, 2400 deep": lambda: (
        _HEAD + b"Content-Type: message/rfc822\r\n\r\n" * 2400 + b"\r\ncastle F7\r\n"),
    "attached message, 39k header lines": lambda: _lines(
        _HEAD + b"Content-Type: message/rfc822\r\n\r\n", b"X-A: b\r\n"),
    "Authentication-Results, 10 of junk": lambda: (
        b"From: a@example.org\r\n" + b"Authentication-Results: mx.pbem.test; " + b"spf=pass (" * 300 + b"\r\n"
        + b"Authentication-Results: mx.pbem.test; dmarc=pass header.from=example.org\r\n" * 9
        + b"\r\ncastle F7\r\n"),
    "Authentication-Results, 3 of nested comments": lambda: (
        b"From: a@example.org\r\n"
        + (b"Authentication-Results: mx.pbem.test; spf=pass (" + b"a (b) " * 190 + b")\r\n") * 3
        + b"\r\ncastle F7\r\n"),
    "2 MiB, base64 attachment": _attachment,
    "text in punycode, 1000 lines": lambda: _fill(
        _HEAD + b"Content-Type: text/plain; charset=punycode\r\n\r\ncastle F7\r\n\r\na-",
        b"ba" * 1000 + b"\r\n", b""),
    "text, 2 MiB in 1000 lines": lambda: _fill(_HEAD + b"\r\n", b"castle F7 " * 209 + b"\r\n", b""),
    "HTML only, 2 MiB": lambda: _fill(_HEAD + b"Content-Type: text/html\r\n\r\n", b"<p>castle F7</p>\r\n", b""),
    "HTML only, 2 MiB of <div>": lambda: _fill(_HEAD + b"Content-Type: text/html\r\n\r\n", b"<div>", b""),
    "multipart text, 39k lines of '--'": lambda: _lines(
        _HEAD + b"Content-Type: multipart/mixed; boundary=q\r\n\r\n--q\r\n\r\n", b"--x\r\n"),
    "text, format=flowed, 39k lines": lambda: _lines(
        _HEAD + b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n\r\n",
        b"castle F7 castle F7 castle F7 castle \r\n", suffix=b""),
    "text, 39k lines": lambda: _lines(_HEAD + b"\r\n", b"castle F7 " * 3 + b"\r\n", suffix=b""),
}


def build(name: str) -> bytes:
    raw = CASES[name]()
    assert len(raw) <= MAX, (name, len(raw))
    return raw


def _once(raw: bytes) -> str:
    try:
        mail = parse_inbound(raw, own_addresses=("pbem@pbem.test", "play@pbem.test"))
    except InboundRejected as err:
        return f"refused ({err.reason})"
    sender_authenticated(mail.auth_results, mail.from_address, ["mx.pbem.test"])
    return "read"


def measure(name: str, repeat: int = 5) -> tuple[int, list[float], str]:
    """``(bytes, CPU ms of each run, outcome)`` for one case."""
    raw = build(name)
    times, outcome = [], ""
    for _ in range(repeat):
        start = time.process_time()
        outcome = _once(raw)
        times.append((time.process_time() - start) * 1000)
    return len(raw), times, outcome


@click.command("inbound")
@click.option("--repeat", type=int, default=5, show_default=True, help="parses of each message")
@click.option("--case", "only", multiple=True, help="run only this case (repeatable)")
def inbound(repeat: int, only: tuple[str, ...]) -> None:
    """CPU ms to read or refuse each hostile inbound message (median and
    worst of REPEAT parses). The last line is the slowest case's worst time
    against the 100 ms goal."""
    worst = (0.0, "")
    for name in only or CASES:
        if name not in CASES:
            raise click.BadParameter(f"unknown case; known: {', '.join(CASES)}", param_hint="--case")
        size, times, outcome = measure(name, repeat)
        click.echo(f"{name:40s} {size:>9,d} B  median {statistics.median(times):7.2f} ms  "
                   f"max {max(times):7.2f} ms  {outcome}")
        worst = max(worst, (max(times), name))
    verdict = "met" if worst[0] < 100 else "NOT met"
    click.echo(f"slowest: {worst[0]:.2f} ms CPU ({worst[1]}); goal under 100 ms: {verdict}")
