"""`pbem mail ingest` (an MTA pipes one message to it) and `pbem demo`."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner

from pbem.cli import main

from .test_inbound import reply_to_notice


@pytest.fixture
def env(tmp_path, monkeypatch):
    values = {
        "PBEM_INSTANCE_PATH": str(tmp_path / "inst"),
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite'}",
        "PBEM_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
        "PBEM_SECRET_KEY": "cli-secret",
        "PBEM_INBOUND_ADDRESS": "play@pbem.test",
        "PBEM_MAIL_FROM": "pbem <pbem@pbem.test>",
        "PBEM_CELERY_EAGER": "1",
        "PBEM_SMTP_PORT": "1",
    }
    for k, v in values.items():
        monkeypatch.setenv(k, v)
    return values


def test_mail_ingest_applies_an_emailed_order_once(env, t0):
    from pbem.service.core.db import db
    from pbem.service.core.migrate import upgrade
    from pbem.web import create_app

    from .helpers import game, new_tally, outbox

    upgrade(env["PBEM_DATABASE_URL"])
    app = create_app()
    with app.app_context():
        gid = new_tally(t0)
        raw = reply_to_notice(outbox(kind="turn")[0], "add 3")
        db.session.remove()
    runner = CliRunner()
    first = runner.invoke(main, ["mail", "ingest"], input=raw)
    assert first.exit_code == 0, first.output
    assert first.output.startswith("stored game 1 seat 1")
    second = runner.invoke(main, ["mail", "ingest"], input=raw)
    assert second.exit_code == 0 and second.output.startswith("duplicate")
    with app.app_context():
        assert game(gid).step == 1


def test_mail_ingest_asks_the_mta_to_retry_when_the_database_is_down(env, monkeypatch):
    monkeypatch.setenv("PBEM_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    raw = (b"From: ada@example.org\r\nTo: play+1-0-aaaaaaaaaaaaaaaa@pbem.test\r\n"
           b"Message-ID: <x1@example.org>\r\nSubject: orders\r\n\r\nadd 1\r\n")
    result = CliRunner().invoke(main, ["mail", "ingest"], input=raw)
    assert result.exit_code == 75
    assert "temporary failure" in result.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_demo_serves_the_app_seeds_a_table_and_takes_mail(tmp_path):
    """`pbem demo` as a newcomer runs it: web app, sink, worker, a seeded game."""
    port, smtp_port = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from pbem.cli import main; main()", "demo", "--port", str(port),
         "--smtp-port", str(smtp_port), "--instance", str(tmp_path / "instance")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=tmp_path)
    try:
        out = b""
        deadline = time.monotonic() + 120
        while b"seat 3" not in out and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            out += line
        text = out.decode()
        assert "La Citt\u00e0 (demo)" in text, text
        links = re.findall(r"seat (\d) \w+ <[^>]+>: (http://localhost:\d+/signin/\S+)", text)
        assert [n for n, _ in links] == ["1", "2", "3"]
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/dev/mail/", timeout=5) as resp:
                    page = resp.read().decode()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the web app did not answer")
        # the first seat's turn notice reaches the sink through the worker (and the
        # host's spectator link, issue 25: Alice hosts the demo game)
        from pbem.mail import sink

        box = tmp_path / "instance" / "mail"
        for _ in range(150):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/dev/mail/", timeout=5) as resp:
                page = resp.read().decode()
            if "alice@example.com" in page and any(
                    "your move" in m.subject for m in sink.list_messages(box, recipient="alice@example.com")):
                break
            time.sleep(0.2)
        assert "alice@example.com" in page
        # Alice answers her turn notice with any SMTP client: the sink hands it to the
        # inbound pipeline, and the confirmation comes back to her
        from email import message_from_bytes, policy
        from email.message import EmailMessage

        turn = next(m for m in sink.list_messages(box, recipient="alice@example.com") if "your move" in m.subject)
        notice = message_from_bytes(sink.read_message(box, turn.id), policy=policy.default)  # the host has the spectator link's mail too
        reply = EmailMessage()
        reply["From"], reply["To"] = "alice@example.com", notice["Reply-To"]
        reply["Subject"], reply["In-Reply-To"] = "Re: " + notice["Subject"], notice["Message-ID"]
        reply["Message-ID"] = "<demo-reply-1@example.com>"
        reply.set_content("gold\n")
        import smtplib

        with smtplib.SMTP("127.0.0.1", smtp_port) as client:
            client.send_message(reply)
        subjects = []
        for _ in range(150):
            subjects = [m.subject for m in sink.list_messages(box, recipient="alice@example.com")]
            if any("orders accepted" in s for s in subjects):
                break
            time.sleep(0.2)
        assert any("orders accepted" in s for s in subjects), subjects
        # the worker resolves the turn: Bruno, next in turn, is told
        for _ in range(150):
            if any("your move" in m.subject for m in sink.list_messages(box, recipient="bruno@example.com")):
                break
            time.sleep(0.2)
        else:
            pytest.fail("the next seat was not told")
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_operator_commands_create_list_scan_and_deliver(env, t0, monkeypatch):
    from pbem.service.core.migrate import upgrade

    # the invitation's first attempt (right after the commit) finds no server; retry at once
    monkeypatch.setenv("PBEM_OUTBOX_BACKOFF", "0")
    from .smtpserver import SMTPServer

    upgrade(env["PBEM_DATABASE_URL"])
    runner = CliRunner()
    bad = runner.invoke(main, ["service", "new-game", "--game", "tally", "--host", "ada@example.org",
                               "--seat", "Ada <ada@example.org>"])
    assert bad.exit_code != 0 and "2-4 seats" in bad.output
    made = runner.invoke(main, ["service", "new-game", "--game", "tally", "--host", "ada@example.org",
                                "--seat", "Ada <ada@example.org>", "--seat", "Bo <bo@example.org>",
                                "--option", "length=long", "--deadline-hours", "24"])
    assert made.exit_code == 0, made.output
    assert "Tally #1 (invited)" in made.output
    listed = runner.invoke(main, ["service", "games"])
    assert "#1\ttally\tinvited\tstep 0" in listed.output and "bo@example.org" in listed.output
    assert runner.invoke(main, ["service", "scan"]).output.startswith("deadlines passed: 0")
    with SMTPServer() as smtp:
        monkeypatch.setenv("PBEM_SMTP_PORT", str(smtp.port))
        sent = runner.invoke(main, ["service", "deliver"])
        assert sent.output.strip() == "sent 1, failed (will retry) 0, given up 0, superseded 0"
        counts = runner.invoke(main, ["service", "outbox", "--failed"])
        assert counts.exit_code == 0 and counts.output.startswith("sent\t1\tinvite 1"), counts.output
        assert "requeued 0" in runner.invoke(main, ["service", "outbox", "--retry", "1"]).output
        assert [r for r, _ in smtp.handler.messages] == [["bo@example.org"]]
