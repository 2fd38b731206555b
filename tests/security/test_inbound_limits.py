"""Hostile message shapes are refused, or capped, before the costly parsers
see them (the CPU figures are `pbem bench inbound`'s, in
docs/performance.md; these tests check which limit answers, not timings).
The messages are the benchmark's own (pbem/benchmarks/inbound.py)."""
from __future__ import annotations

import pytest

from pbem_dev.bench.inbound import build
from pbem.mail.inbound import (
    MAX_DECODED_HEADER_CHARS, MAX_STRIPPED_CHARS, InboundRejected, MalformedMail, TooComplex, TooManyLines,
    parse_inbound,
)
from pbem.mail.inbound_limits import Limits, check_raw

OWN = ("pbem@pbem.test", "play@pbem.test")

#: bench case -> the refusal that answers it
REFUSED = {
    "folded To, 80k addresses": TooManyLines,
    "To, 120k addresses, one line": TooComplex,
    "folded To, 39k lines": TooComplex,
    "Subject, one 2 MiB encoded word": TooComplex,
    "header fields, CR line ends": TooManyLines,    # a lone CR ends a line, as for the parser
    "header fields, 39k lines": TooComplex,
    "MIME parts, as many as fit": TooManyLines,
    "MIME parts, 13k (39k lines)": TooComplex,
    "MIME nesting, as deep as fits": TooManyLines,
    "MIME nesting, 13k deep (39k lines)": TooComplex,
    "Content-Type, 300k parameters": TooComplex,
    "part Content-Type, 3k parameters": TooComplex,
    "From, 2 MiB of quotes": TooComplex,
    "parts, each a 16 KiB Content-Type": TooComplex,
    "To, 7 fields of 32 KiB of commas": TooComplex,
    "one field of 1990 folded lines": TooComplex,
    "From, 250 fields of 990 quotes": MalformedMail,
    "parts, each a 4 KiB Content-Type": TooComplex,
    "15 parts, each a 4 KiB Content-Type": TooComplex,
    "Content-Type, 32 KiB of parameters": TooComplex,
    "attached message, 200k header lines": TooManyLines,
    "attached message, 39k header lines": TooComplex,
}

#: bench cases at (just under) a limit: read
READ = ["a normal reply", "To, 100 addresses (the limit)", "Subject, 990-char encoded word",
        "300 header fields (the limit)", "MIME parts, 199 (the limit)", "2 MiB, base64 attachment",
        "Content-Type, 64 long parameters (the limit)", "To, 16 KiB of commas (the limit)",
        "HTML only, 2 MiB of <div>"]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_hostile_shapes_are_refused_by_their_limit(case):
    with pytest.raises(REFUSED[case]):
        parse_inbound(build(case), own_addresses=OWN)


@pytest.mark.parametrize("case", READ)
def test_messages_at_the_limits_are_read(case):
    mail = parse_inbound(build(case), own_addresses=OWN)
    assert mail.from_address


def _mail(headers: str, body: str = "castle F7\r\n") -> bytes:
    return (headers + "\r\n" + body).encode()


def test_recipients_are_counted_before_they_are_parsed():
    ok = ", ".join(f"u{i}@example.org" for i in range(100))
    assert len(parse_inbound(_mail(f"From: a@example.org\r\nTo: {ok}\r\n")).recipients) == 100
    over = ok + ", one@more.example"
    with pytest.raises(TooComplex, match="recipient"):
        parse_inbound(_mail(f"From: a@example.org\r\nTo: {over}\r\n"))
    # Cc and the envelope fields count too
    with pytest.raises(TooComplex, match="recipient"):
        parse_inbound(_mail(f"From: a@example.org\r\nTo: {ok}\r\nCc: c@example.org\r\n"))


def test_recipients_keep_their_order_without_duplicates():
    mail = parse_inbound(_mail("From: a@example.org\r\nDelivered-To: play+1-0-x@pbem.test\r\n"
                               "To: B@Example.org, play+1-0-x@PBEM.test, b@example.org\r\nCc: c@example.org\r\n"))
    assert mail.recipients == ("play+1-0-x@pbem.test", "b@example.org", "c@example.org")


def test_header_count_and_size_are_limited():
    limits = Limits()
    many = "".join(f"X-N{i}: v\r\n" for i in range(limits.header_fields))
    with pytest.raises(TooComplex, match="header fields"):
        parse_inbound(_mail("From: a@example.org\r\n" + many))
    big = "X-Big: " + "v" * limits.field_bytes + "\r\n"
    with pytest.raises(TooComplex, match="x-big"):
        parse_inbound(_mail("From: a@example.org\r\n" + big))
    long_from = "From: " + "A" * limits.sender_field_bytes + " <a@example.org>\r\n"
    with pytest.raises(TooComplex, match="from"):
        parse_inbound(_mail(long_from))


def test_parts_and_nesting_are_limited():
    limits = Limits()
    head = "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=q\r\n"
    flat = "".join("--q\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(limits.parts)) + "--q--\r\n"
    with pytest.raises(TooComplex, match="MIME parts"):
        parse_inbound(_mail(head, flat))
    deep = "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n" + "".join(
        f"--b{i}\r\nContent-Type: multipart/mixed; boundary=b{i + 1}\r\n\r\n" for i in range(limits.depth))
    with pytest.raises(TooComplex, match="nested"):
        parse_inbound(deep.encode())
    ok = "From: a@example.org\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n" + "".join(
        f"--b{i}\r\nContent-Type: multipart/mixed; boundary=b{i + 1}\r\n\r\n" for i in range(limits.depth - 2)
    ) + f"--b{limits.depth - 2}\r\nContent-Type: text/plain\r\n\r\ncastle F7\r\n"
    assert parse_inbound(ok.encode()).text == "castle F7"


def test_a_long_encoded_word_subject_is_cut_before_decoding():
    word = "=?utf-8?q?" + "a" * 20_000 + "?="
    mail = parse_inbound(_mail(f"From: a@example.org\r\nSubject: {word}\r\n"))
    assert len(mail.subject) <= MAX_DECODED_HEADER_CHARS
    words = " ".join(["=?utf-8?q?L=C3=A4hde?="] * 1000)
    mail = parse_inbound(_mail(f"From: a@example.org\r\nSubject: {words}\r\n"))
    assert mail.subject.startswith("LähdeLähde") and len(mail.subject) <= MAX_DECODED_HEADER_CHARS


def test_delivery_reports_are_refused_before_their_blocks_are_parsed():
    raw = _mail("From: Mail Delivery <mailer@mx.example.org>\r\nContent-Type: multipart/report; "
                "report-type=delivery-status; boundary=r\r\n",
                "--r\r\n\r\nfailed\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\n"
                + "Reporting-MTA: dns; mx\r\n\r\n" * 5000 + "--r--\r\n")
    with pytest.raises(InboundRejected) as info:
        parse_inbound(raw)
    assert info.value.reason == "automatic" and info.value.kind == "bounce"


@pytest.mark.parametrize("where", ["top", "bottom"])
def test_orders_survive_a_long_quote_above_or_below(where):
    """The quote stripper reads at most MAX_STRIPPED_CHARS: the first and
    last half of a longer body, so top- and bottom-posted orders stay."""
    quote = "On Monday pbem wrote:\r\n" + "> the board, row after row of it\r\n" * (MAX_STRIPPED_CHARS // 20)
    body = ("castle F7\r\n\r\n" + quote) if where == "top" else (quote + "\r\ncastle F7\r\n")
    mail = parse_inbound(_mail("From: a@example.org\r\n", body))
    assert mail.text == "castle F7"


def test_check_raw_returns_the_top_fields_folded():
    fields = check_raw(b"From: a@example.org\r\nTo: b@example.org,\r\n c@example.org\r\n\r\nbody")
    assert fields == [("from", b" a@example.org\r\n"), ("to", b" b@example.org,\r\n c@example.org\r\n")]


@pytest.mark.parametrize("charset", ["punycode", "idna", "unicode_escape", "raw-unicode-escape"])
def test_python_codecs_that_are_no_charset_read_as_utf8(charset):
    """punycode is quadratic (32 KB take 90 ms); no mail is written in it."""
    raw = _mail(f"From: a@example.org\r\nContent-Type: text/plain; charset={charset}\r\n",
                "castle F7\r\nmove-b\\x41\r\n")
    assert parse_inbound(raw).text == "castle F7\nmove-b\\x41"


def _flowed_by_lines(text: str, delsp: bool) -> str:
    """RFC 3676 §4.2/§4.4 line by line (the former implementation, as the spec)."""
    out, buf = [], ""
    for line in text.split("\n"):
        line = line[1:] if line.startswith(" ") else line
        if line.endswith(" ") and line != "-- ":
            buf += line[:-1] if delsp else line
        else:
            out.append(buf + line)
            buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=500)
@given(st.text(alphabet=" \n-a", max_size=60), st.booleans())
def test_format_flowed_is_undone_as_rfc_3676_says(text, delsp):
    """The linear flowed decoder reads unquoted text as the line loop did
    (which was quadratic in a run of soft breaks). Quoted text is joined
    only within one quote depth (RFC 3676 §4.5), which the loop did not do:
    tests/mail/test_quotes.py checks that."""
    from pbem.mail.inbound_body import flowed

    assert flowed(text, delsp).rstrip() == _flowed_by_lines(text, delsp).rstrip()  # the end: whitespace only
