"""Inbound parsing against raw .eml fixtures from real clients, RFC 3834
refusals, limits, and a fuzz test that only typed rejections escape."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.mail import inbound
from pbem.mail.inbound import (AutomaticMail, InboundRejected, MailLoop, MalformedMail, Oversized,
                               TooManyLines, parse_inbound)

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text("utf-8"))
OWN = ["pbem@pbem.example", "play@pbem.example"]
SECRET = "fixture-secret"
REPLY_TO = "play+12-3-s2xototohx7yio76@pbem.example"

ACCEPTED = sorted(n for n, e in EXPECTED.items() if "reject" not in e)
REJECTED = sorted(n for n, e in EXPECTED.items() if "reject" in e)


def test_every_fixture_has_an_expectation():
    assert sorted(p.name for p in FIXTURES.glob("*.eml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", ACCEPTED)
def test_fixture_order_text(name):
    mail = parse_inbound((FIXTURES / name).read_bytes(), own_addresses=OWN)
    assert mail.text == EXPECTED[name]["text"]
    assert mail.message_id.startswith("<") and mail.message_id.endswith(">")
    assert "@" in mail.from_address
    # every fixture was delivered to seat 3's signed reply address
    assert inbound.reply_target(mail, SECRET, "play@pbem.example") == (12, 3, REPLY_TO)


@pytest.mark.parametrize("name", REJECTED)
def test_fixture_rejected(name):
    exp = EXPECTED[name]
    with pytest.raises(InboundRejected) as info:
        parse_inbound((FIXTURES / name).read_bytes(), own_addresses=OWN)
    assert info.value.reason == exp["reject"]
    if "kind" in exp:
        assert info.value.kind == exp["kind"]


def test_headers_decoded():
    mail = parse_inbound((FIXTURES / "gmail_en.eml").read_bytes())
    assert mail.subject == "Re: [pbem] La Città #12 — your move (year 2, round 3)"
    assert mail.from_name == "Alice Example" and mail.from_address == "alice@gmail.com"
    assert mail.message_id == "<CAF=gmail-en-0001@mail.gmail.com>"
    assert mail.in_reply_to == "<notice-12-3-7@pbem.example>"
    assert mail.references == ("<notice-12-3-7@pbem.example>",)
    assert mail.date is not None and mail.date.utcoffset().total_seconds() == 7200
    assert mail.recipients[0] == REPLY_TO
    fi = parse_inbound((FIXTURES / "gmail_fi.eml").read_bytes())
    assert fi.from_name == "Matti Mäkelä"


def test_html_only_flagged():
    mail = parse_inbound((FIXTURES / "outlook_web_ca_html_only.eml").read_bytes())
    assert mail.from_html
    assert "It is your move" in mail.body and "It is your move" not in mail.text


def test_missing_message_id_is_stable_hash():
    raw = (FIXTURES / "unknown_charset_no_message_id.eml").read_bytes()
    a, b = parse_inbound(raw), parse_inbound(raw)
    assert a.message_id == b.message_id and a.message_id.endswith("@pbem.invalid>")
    assert parse_inbound(raw + b"\r\n").message_id != a.message_id


def _mail(body: str, extra: str = "") -> bytes:
    return (f"From: Bob <bob@example.org>\r\nTo: {REPLY_TO}\r\nSubject: orders\r\n"
            f"Message-ID: <m1@example.org>\r\n{extra}Content-Type: text/plain; charset=utf-8\r\n\r\n"
            + body).encode("utf-8")


def test_size_and_line_limits():
    with pytest.raises(Oversized):
        parse_inbound(_mail("x" * 5000), max_bytes=1000)
    with pytest.raises(TooManyLines):
        parse_inbound(_mail("pass\r\n" * 500), max_lines=100)
    with pytest.raises(TooManyLines):
        parse_inbound(_mail("pass\r\n" * 150))  # 150 order lines > 100
    with pytest.raises(TooManyLines):
        parse_inbound(_mail("p" * 1500))
    assert parse_inbound(_mail("pass\r\n" * 50)).text == "\n".join(["pass"] * 50)


@pytest.mark.parametrize("header,cls", [
    ("Auto-Submitted: auto-replied\r\n", AutomaticMail),
    ("Auto-Submitted: auto-generated (vacation)\r\n", AutomaticMail),
    ("Precedence: junk\r\n", AutomaticMail),
    ("List-Id: <x.example.org>\r\n", AutomaticMail),
    ("Return-Path: <>\r\n", AutomaticMail),
    ("X-PBEM-Loop: play@pbem.example\r\n", MailLoop),
    ("Received: x\r\n" * 45, MailLoop),
])
def test_rfc3834_and_loop_headers(header, cls):
    with pytest.raises(cls):
        parse_inbound(_mail("pass", header))


def test_auto_response_suppress_is_read_not_refused():
    # Exchange sets it on mail people write; refusing it loses real orders.
    mail = parse_inbound(_mail("pass", "X-Auto-Response-Suppress: DR, OOF, AutoReply\r\n"))
    assert mail.text == "pass"
    assert mail.suppress_auto_response == {"DR", "OOF", "AUTOREPLY"}
    assert parse_inbound(_mail("pass")).suppress_auto_response == frozenset()


def test_auto_submitted_no_is_a_person():
    assert parse_inbound(_mail("pass", "Auto-Submitted: no\r\n")).text == "pass"


def test_own_address_plus_variant_is_loop():
    raw = _mail("pass").replace(b"bob@example.org", b"play+9-9-zzzz@PBEM.example")
    with pytest.raises(MailLoop):
        parse_inbound(raw, own_addresses=OWN)


def test_empty_reply_gives_empty_text():
    assert parse_inbound(_mail("")).text == ""
    assert parse_inbound(_mail("\r\n> quoted only\r\n")).text == ""


def test_not_bytes_is_malformed():
    with pytest.raises(MalformedMail):
        parse_inbound("From: x@y\r\n\r\npass")  # type: ignore[arg-type]


# --- fuzzing -----------------------------------------------------------------

_header_names = st.sampled_from(["From", "To", "Subject", "Content-Type", "Content-Transfer-Encoding",
                                 "Message-ID", "Date", "Auto-Submitted", "Return-Path", "Delivered-To",
                                 "Content-Disposition", "MIME-Version", "References"])
_ctypes = st.sampled_from([
    "text/plain", "text/html", "multipart/alternative; boundary=b", "multipart/mixed; boundary=\"b\"",
    "multipart/mixed", "text/plain; charset=\"utf-7\"", "text/plain; charset=x-bogus", "text/plain; format=flowed; delsp=yes",
    "text/html; charset=iso-2022-jp", "message/rfc822", "multipart/report", "text/plain; charset=\"\"",
    "text/plain; charset=utf-16", "application/octet-stream",
])
_ctes = st.sampled_from(["base64", "quoted-printable", "8bit", "7bit", "x-uuencode", "binary", "bogus"])
_junk = st.one_of(st.binary(max_size=300),
                  st.text(max_size=300).map(lambda s: s.encode("utf-8", "surrogatepass")),
                  st.sampled_from([b"=?utf-8?B?////?=", b"=?bogus?Q?=FF=FE?=", b"--b\r\n", b"--b--\r\n",
                                   b"<html><blockquote>", b"\xff\xfe\x00", b"=\r\n", b"=ZZ", b"On x wrote:\r\n> q"]))


@st.composite
def _mime(draw):
    parts = [b"From: " + draw(st.sampled_from([b"a@b.c", b"<>", b"\"x\" <y@z>", b"=?utf-8?q?=FF?= <q@w.e>", b""]))]
    for _ in range(draw(st.integers(0, 6))):
        parts.append(draw(_header_names).encode() + b": " + draw(_junk).replace(b"\n", b" "))
    parts.append(b"Content-Type: " + draw(_ctypes).encode())
    parts.append(b"Content-Transfer-Encoding: " + draw(_ctes).encode())
    body = b"\r\n".join(draw(st.lists(_junk, max_size=8)))
    if draw(st.booleans()):
        nested = b"\r\n".join([b"--b", b"Content-Type: " + draw(_ctypes).encode(),
                               b"Content-Transfer-Encoding: " + draw(_ctes).encode(), b"", draw(_junk), b"--b--"])
        body = nested * draw(st.integers(1, 3)) + body
    return b"\r\n".join(parts) + b"\r\n\r\n" + body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mime())
def test_fuzz_structured_mime_only_typed_rejections(raw):
    try:
        mail = parse_inbound(raw)
    except InboundRejected:
        return
    assert isinstance(mail.text, str) and "\r" not in mail.text


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_raw_bytes_only_typed_rejections(raw):
    try:
        parse_inbound(raw)
    except InboundRejected:
        pass


def test_huge_empty_and_deep_parts_are_refused_or_read():
    deep = b"From: a@b.c\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n"
    for i in range(1, 400):
        deep += f"--b{i-1}\r\nContent-Type: multipart/mixed; boundary=b{i}\r\n\r\n".encode()
    try:
        parse_inbound(deep)
    except InboundRejected:
        pass
    big = _mail("pass\r\n" + "x" * 400 + "\r\n")
    huge_html = (b"From: a@b.c\r\nContent-Type: text/html\r\n\r\n" + b"<div>" * 20000 + b"pass")
    parse_inbound(huge_html)
    assert parse_inbound(big).text.startswith("pass")
    empty_parts = (b"From: a@b.c\r\nContent-Type: multipart/alternative; boundary=q\r\n\r\n"
                   b"--q\r\n\r\n--q\r\nContent-Type: text/html\r\n\r\n--q--\r\n")
    assert parse_inbound(empty_parts).text == ""


def test_atheris_fuzz_run(tmp_path):
    """A short coverage-guided run seeded with the client fixtures."""
    pytest.importorskip("atheris", reason="atheris is optional (dev extra); not installed here")
    import shutil
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for eml in FIXTURES.glob("*.eml"):
        shutil.copy(eml, corpus / eml.name)
    proc = subprocess.run([sys.executable, str(Path(__file__).with_name("fuzz_inbound.py")), str(corpus),
                           "-runs=800", "-max_len=4096", "-seed=1", "-timeout=20"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_pathological_quotes_are_read():
    deep = b"From: a@b.c\r\nContent-Type: text/plain\r\n\r\npass\r\n" + (b">" * 1999 + b"\r\n") * 900
    assert parse_inbound(deep).text == "pass"
    one_line = b"From: a@b.c\r\nContent-Type: text/plain\r\n\r\npass\r\n" + b"> " * 500_000
    assert parse_inbound(one_line).text == "pass"
