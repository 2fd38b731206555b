"""Bounces written by a stranger (issue 22, "Seven holes" 3 and 4).

Every mail pbem sends has its own signed bounce address (VERP), so anyone
who gets one mail (a sign-in link to their own address will do) holds one.
Mail to it meets the same size and structure limits as any inbound mail,
nothing in a report can make ``pbem mail ingest`` fail (the MTA would
retry it for days), and the host's bounce notice carries the status code
alone, never the report's words."""
from __future__ import annotations

import secrets
from email import message_from_bytes, policy

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from pbem.mail.tokens import make_bounce_address
from pbem.service.core.db import db
from pbem.service.core.models import InboundMessage, OutboxMessage, Player
from pbem.service.inbound import handle_inbound
from pbem.service.post.outbox import render

from .conftest import new_lacitta

PHISH = "Your pbem account is locked: sign in again at http://evil.example/login"


def _bounce_to(recipient: str) -> str:
    """The bounce address of the first mail to ``recipient``."""
    from flask import current_app

    row = db.session.execute(select(OutboxMessage).where(OutboxMessage.recipient == recipient)
                             .order_by(OutboxMessage.id)).scalars().first()
    cfg = current_app.config
    return make_bounce_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], row.id)


def _dsn(to: str, recipient: str, *, status: str = "5.1.1", diagnostic: str = "smtp; 550 5.1.1 User unknown",
         msgid: str = "<dsn.1@mx.example.org>") -> bytes:
    return (
        f"From: MAILER-DAEMON@mx.example.org\r\nTo: {to}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: {msgid}\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.org\r\n\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: {status}\r\n"
        f"Diagnostic-Code: {diagnostic}\r\n"
        "--B--\r\n").encode("utf-8", "surrogateescape")  # "\udcff" is the byte 0xff


def _nested(to: str, depth: int) -> bytes:
    head = (f"From: MAILER-DAEMON@mx.example.org\r\nTo: {to}\r\nMessage-ID: <deep@mx.example.org>\r\n"
            'Content-Type: multipart/mixed; boundary="b0"\r\n\r\n')
    return (head + "".join(f'--b{i}\r\nContent-Type: multipart/mixed; boundary="b{i + 1}"\r\n\r\n'
                           for i in range(depth))).encode()


def _host_notices() -> list[str]:
    db.session.rollback()
    rows = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "bounce")).scalars().all()
    out = []
    for row in rows:
        msg = message_from_bytes(render(row), policy=policy.default)
        out.append("\n".join(part.get_content() for part in msg.walk() if part.get_content_maintype() == "text"))
    return out


def _bo() -> Player:
    db.session.rollback()
    return db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()


@pytest.mark.parametrize("shape", ["multipart", "message/rfc822"])
def test_a_report_nested_1500_deep_is_dropped_not_retried(app, shape):
    new_lacitta()
    to = _bounce_to("bo@example.org")
    raw = _nested(to, 1500)
    if shape == "message/rfc822":
        raw = raw.replace(b'multipart/mixed; boundary="b0"', b"message/rfc822", 1).split(b"--b0", 1)[0]
        raw += b"Content-Type: message/rfc822\r\n\r\n" * 1500
    result = handle_inbound(raw)
    assert result.result in ("rejected", "bounce-unread")
    assert _bo().bounced_at is None


def test_an_oversized_mail_to_a_bounce_address_meets_the_inbound_limits(app):
    new_lacitta()
    to = _bounce_to("bo@example.org")
    raw = _dsn(to, "bo@example.org").replace(b"The mail could not be delivered.", b"x" * (3 * 1024 * 1024))
    assert handle_inbound(raw).result == "rejected"
    many = _dsn(to, "bo@example.org").replace(b"Subject:", b"".join(b"X-Junk-%d: 1\r\n" % i for i in range(400))
                                               + b"Subject:")
    assert handle_inbound(many).result == "rejected"
    assert _bo().bounced_at is None


def test_control_characters_in_a_report_are_never_written(app):
    """A NUL in Diagnostic-Code failed the write on PostgreSQL (and the
    ingest with it, so the MTA retried for days)."""
    new_lacitta()
    raw = _dsn(_bounce_to("bo@example.org"), "bo@example.org", diagnostic="smtp; 550\x00 gone\x1b[2J\x07 away")
    assert handle_inbound(raw).result == "bounce"
    bo = _bo()
    assert bo.bounced_at is not None
    row = db.session.execute(select(OutboxMessage).where(OutboxMessage.last_error.is_not(None))).scalars().one()
    for text in (bo.bounce_reason, row.last_error):
        assert not any(ord(c) < 32 or ord(c) == 127 for c in text), repr(text)


def test_a_report_is_recorded_once(app):
    new_lacitta()
    raw = _dsn(_bounce_to("bo@example.org"), "bo@example.org")
    assert handle_inbound(raw).result == "bounce"
    assert handle_inbound(raw).result == "duplicate"
    db.session.rollback()
    seen = db.session.execute(select(InboundMessage).where(
        InboundMessage.message_id == "<dsn.1@mx.example.org>")).scalars().all()
    assert [m.result for m in seen] == ["bounce"]


def test_ingest_of_any_report_exits_0(app, tmp_path, monkeypatch, service_database_url):
    """``pbem mail ingest`` in its own process, on the same database."""
    from pbem.cli import main

    new_lacitta()
    db.session.commit()
    to = _bounce_to("bo@example.org")
    for key, value in {"PBEM_INSTANCE_PATH": str(tmp_path / "cli"), "PBEM_DATABASE_URL": service_database_url,
                       "PBEM_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
                       "PBEM_SECRET_KEY": app.config["SECRET_KEY"], "PBEM_INBOUND_ADDRESS": "play@pbem.test",
                       "PBEM_MAIL_FROM": "pbem <pbem@pbem.test>", "PBEM_CELERY_EAGER": "1",
                       "PBEM_SMTP_PORT": "1"}.items():
        monkeypatch.setenv(key, value)
    for raw in (_nested(to, 1500), _dsn(to, "bo@example.org", diagnostic="smtp; 550 \x00\udcff",
                                        msgid="<nul@mx.example.org>")):
        result = CliRunner().invoke(main, ["mail", "ingest"], input=raw)
        assert result.exit_code == 0, result.output


# --- 4: the host hears the status code, never the reporter's words ----------

def test_the_host_notice_carries_the_status_code_only(app):
    new_lacitta()
    raw = _dsn(_bounce_to("bo@example.org"), "bo@example.org", status="5.1.1", diagnostic=f"smtp; 550 {PHISH}")
    assert handle_inbound(raw).result == "bounce"
    [text] = _host_notices()
    assert "5.1.1" in text
    assert "evil.example" not in text and "locked" not in text


@pytest.mark.parametrize("status", ["5.1.1 http://evil.example/login", "5<b>.1.1", "5", "5.1.1.1", "4.2.2"])
def test_a_status_that_is_not_5_x_y_tells_the_host_nothing(app, status):
    new_lacitta()
    raw = _dsn(_bounce_to("bo@example.org"), "bo@example.org", status=status, diagnostic=f"smtp; 550 {PHISH}")
    assert handle_inbound(raw).result != "bounce"
    assert _host_notices() == []
    assert _bo().bounced_at is None


# --- anything to a bounce address: recorded or dropped, never a crash --------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(status=st.one_of(st.just("5.1.1"), st.text(max_size=12)), diagnostic=st.binary(max_size=120),
       depth=st.sampled_from([0, 0, 12, 1500]), junk=st.binary(max_size=200))
def test_a_mangled_report_never_fails_the_ingest(app, status, diagnostic, depth, junk):
    app.config["INBOUND_RATE_LIMIT"] = ""  # hundreds of reports from one sender here
    db.session.rollback()
    if db.session.execute(select(Player.id).where(Player.email == "bo@example.org")).first() is None:
        new_lacitta()
    for player in db.session.execute(select(Player)).scalars():
        player.bounced_at = None  # every example may mark Bo again
    db.session.commit()
    to = _bounce_to("bo@example.org")
    raw = _dsn(to, "bo@example.org", status=status.replace("\r", "").replace("\n", ""),
               msgid=f"<{secrets.token_hex(8)}@mx.example.org>")
    raw = raw.replace(b"Diagnostic-Code: smtp; 550 5.1.1 User unknown", b"Diagnostic-Code: smtp; 550 " + diagnostic)
    if depth:
        raw = raw.replace(b"--B--", b'--B\r\nContent-Type: multipart/mixed; boundary="b0"\r\n\r\n'
                          + _nested(to, depth).split(b"\r\n\r\n", 1)[1] + b"\r\n--B--")
    raw = raw.replace(b"The mail could not be delivered.", junk)
    result = handle_inbound(raw)  # raises = the MTA retries for days
    assert result.result in ("bounce", "bounce-soft", "bounce-unread", "rejected", "duplicate")


def test_a_real_bounce_carrying_the_whole_returned_mail_still_counts(app):
    """The limits that come first let a real report through: Postfix and
    Exchange return the mail that failed (here Ada's turn notice with its
    board picture, 35 kB) as a message/rfc822 part."""
    new_lacitta()
    row = db.session.execute(select(OutboxMessage).where(OutboxMessage.recipient == "ada@example.org",
                                                         OutboxMessage.kind == "turn")).scalars().one()
    raw = _dsn(_bounce_to("ada@example.org"), "ada@example.org").replace(
        b"--B--\r\n", b"--B\r\nContent-Type: message/rfc822\r\n\r\n" + render(row) + b"\r\n--B--\r\n")
    assert handle_inbound(raw).result == "bounce"
    db.session.rollback()
    ada = db.session.execute(select(Player).where(Player.email == "ada@example.org")).scalar_one()
    assert ada.bounced_at is not None
