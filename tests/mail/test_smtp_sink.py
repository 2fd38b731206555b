"""Real SMTP on localhost: the sink stores and routes mail, and send_raw
types failures as temporary or permanent."""
from __future__ import annotations

import threading
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from pbem.mail import sink as sink_mod
from pbem.mail.sink import MailSink, free_port, list_messages, read_message
from pbem.mail.smtp import PermanentFailure, TemporaryFailure, send_message, send_raw

INBOUND = "play@pbem.test"


def _msg(to="alice@example.org", subject="hello", body="pass\n", frm="pbem <pbem@pbem.test>"):
    m = EmailMessage()
    m["From"] = frm
    m["To"] = to
    m["Subject"] = subject
    m["Message-ID"] = f"<{subject.replace(' ', '.')}@example.org>"
    m.set_content(body)
    return m


@pytest.fixture
def sink(tmp_path):
    got: list[bytes] = []
    s = MailSink(tmp_path / "mail", port=0, inbound_address=INBOUND, on_inbound=got.append)
    with s:
        s.received = got
        yield s


def test_sink_stores_and_lists_newest_first(sink):
    send_message(_msg(subject="first"), host="127.0.0.1", port=sink.port)
    send_message(_msg(subject="second", to="Bob <bob@example.org>"), host="127.0.0.1", port=sink.port)
    msgs = list_messages(sink.directory)
    assert [m.subject for m in msgs] == ["second", "first"]
    assert msgs[0].rcpt_to == ["bob@example.org"] and msgs[0].mail_from == "pbem@pbem.test"
    assert [m.subject for m in list_messages(sink.directory, recipient="ALICE@example.org")] == ["first"]
    raw = read_message(sink.directory, msgs[1].id)
    assert b"Subject: first" in raw
    assert sink_mod.recipients(sink.directory)[0][:2] == ("bob@example.org", 1)
    assert sink.received == []  # nothing was for the inbound address


def test_sink_hands_inbound_mail_to_callback(sink):
    m = _msg(to="play+12-3-abcdefghijklmnop@pbem.test", frm="Alice <alice@example.org>", subject="orders")
    send_message(m, host="127.0.0.1", port=sink.port)
    assert len(sink.received) == 1
    raw = sink.received[0]
    assert raw.startswith(b"Return-Path: <alice@example.org>\r\nDelivered-To: play+12-3-abcdefghijklmnop@pbem.test\r\n")
    assert b"Subject: orders" in raw
    assert list_messages(sink.directory)[0].inbound is True


def test_callback_failure_answers_451(tmp_path):
    def boom(raw):
        raise RuntimeError("database down")

    with MailSink(tmp_path, port=0, inbound_address=INBOUND, on_inbound=boom) as s:
        with pytest.raises(TemporaryFailure) as info:
            send_message(_msg(to=INBOUND), host="127.0.0.1", port=s.port)
        assert info.value.code == 451
        assert len(list_messages(tmp_path)) == 1  # still stored for the page


def test_read_message_refuses_bad_ids(tmp_path):
    for bad in ["../secret", "", "20260101T000000-000001-zzzzzzzz", "20260101T000000-000001-0123abcd"]:
        with pytest.raises(KeyError):
            read_message(tmp_path, bad)
    assert list_messages(tmp_path / "missing") == []


def test_damaged_index_line_skipped(sink):
    send_message(_msg(subject="ok"), host="127.0.0.1", port=sink.port)
    with open(sink.directory / sink_mod.INDEX, "a") as fh:
        fh.write("{not json\n")
    assert [m.subject for m in list_messages(sink.directory)] == ["ok"]


def test_is_inbound_address():
    assert sink_mod.is_inbound_address("PLAY+1-2-x@PBEM.test", INBOUND)
    assert sink_mod.is_inbound_address("<play@pbem.test>", INBOUND)
    assert not sink_mod.is_inbound_address("player@pbem.test", INBOUND)
    assert not sink_mod.is_inbound_address("play@other.test", INBOUND)


# --- failures from a real server ---------------------------------------------

class _Refusing:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("gone@"):
            return "550 5.1.1 No such user"
        if address.startswith("busy@"):
            return "451 4.7.1 Greylisted, try again"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if b"REJECT-ME" in envelope.original_content:
            return "554 5.6.0 Message content rejected"
        return "250 OK"


@pytest.fixture
def refusing():
    port = free_port()
    c = Controller(_Refusing(), hostname="127.0.0.1", port=port)
    c.start()
    yield port
    c.stop()


def test_permanent_and_temporary_failures(refusing):
    raw = _msg().as_bytes()
    with pytest.raises(PermanentFailure) as info:
        send_raw(raw, mail_from="pbem@pbem.test", rcpt_to=["gone@example.org"], host="127.0.0.1", port=refusing)
    assert info.value.code == 550
    with pytest.raises(TemporaryFailure) as info:
        send_raw(raw, mail_from="pbem@pbem.test", rcpt_to=["busy@example.org"], host="127.0.0.1", port=refusing)
    assert info.value.code == 451
    with pytest.raises(PermanentFailure) as info:
        send_raw(_msg(body="REJECT-ME").as_bytes(), mail_from="pbem@pbem.test", rcpt_to=["ok@example.org"],
                 host="127.0.0.1", port=refusing)
    assert info.value.code == 554
    send_raw(raw, mail_from="pbem@pbem.test", rcpt_to=["ok@example.org"], host="127.0.0.1", port=refusing)


def test_server_down_is_temporary():
    port = free_port()
    with pytest.raises(TemporaryFailure):
        send_raw(b"x", mail_from="a@b.c", rcpt_to=["d@e.f"], host="127.0.0.1", port=port, timeout=3)


def test_server_that_hangs_up_is_temporary():
    import socket
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def hang_up():
        conn, _ = srv.accept()
        conn.sendall(b"220 hello\r\n")
        conn.recv(100)
        conn.close()

    t = threading.Thread(target=hang_up, daemon=True)
    t.start()
    try:
        with pytest.raises(TemporaryFailure):
            send_raw(b"x", mail_from="a@b.c", rcpt_to=["d@e.f"], host="127.0.0.1", port=port, timeout=3)
    finally:
        srv.close()


def test_starttls_unsupported_is_temporary(sink):
    with pytest.raises(TemporaryFailure):
        send_raw(b"x", mail_from="a@b.c", rcpt_to=["d@e.f"], host="127.0.0.1", port=sink.port, tls="starttls")
    with pytest.raises(ValueError):
        send_raw(b"x", mail_from="a@b.c", rcpt_to=["d@e.f"], host="127.0.0.1", port=sink.port, tls="bogus")


class _Sink:
    def __init__(self):
        self.got = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append((session.login_data, envelope.content))
        return "250 OK"


def test_login(tmp_path):
    from aiosmtpd.smtp import AuthResult

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == b"pbem" and auth_data.password == b"s3cret"
        return AuthResult(success=ok, handled=False)

    handler = _Sink()
    port = free_port()
    c = Controller(handler, hostname="127.0.0.1", port=port, authenticator=authenticator,
                   auth_require_tls=False)
    c.start()
    try:
        send_raw(_msg().as_bytes(), mail_from="pbem@pbem.test", rcpt_to=["a@example.org"], host="127.0.0.1",
                 port=port, user="pbem", password="s3cret")
        assert len(handler.got) == 1
        with pytest.raises(TemporaryFailure) as info:
            send_raw(_msg().as_bytes(), mail_from="pbem@pbem.test", rcpt_to=["a@example.org"],
                     host="127.0.0.1", port=port, user="pbem", password="wrong")
        assert info.value.code == 535
        assert len(handler.got) == 1
    finally:
        c.stop()


def test_large_lf_message_arrives_whole(sink):
    # EmailMessage serializes with bare LF; SMTP needs CRLF or a big message
    # arrives as one over-long line and is refused.
    body = "".join(f"line {i}: build castle F7\n" for i in range(400))
    raw = _msg(body=body, subject="big").as_bytes()
    assert b"\r\n" not in raw and len(raw) > 5000
    send_raw(raw, mail_from="pbem@pbem.test", rcpt_to=["alice@example.org"], host="127.0.0.1", port=sink.port)
    stored = read_message(sink.directory, list_messages(sink.directory)[0].id)
    assert stored.replace(b"\r\n", b"\n") == raw
