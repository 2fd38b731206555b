"""Table talk and the group's channel end to end with the real service
(issue 26): the Celery worker in-process (no eager mode), mail through a
real SMTP server (the sink), replies through the inbound task, in all five
languages. The mail is read back with the standard library's compat32
parser (not the policy pbem writes with); the channel's stand-in is a
real HTTP server that Apprise's JSON service posts to (the address check
is waived for it alone: it listens on 127.0.0.1)."""
from __future__ import annotations

import base64
import contextlib
import json
import threading
import time
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.utils import make_msgid
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from sqlalchemy import select

from pbem.mail.flowed import decode_flowed
from pbem.service.core.db import begin_write, db
from pbem.service.core.models import InboundMessage, Player
from pbem.service.embedded import EmbeddedWorker
from pbem.service.play import channel, talk
from pbem.service.play.orders import submit_orders
from pbem.service.play.talk_read import messages_for
from pbem.service.post import channel_delivery, channel_url
from tests.webapp import new_lacitta

from .helpers import game
from .smtpserver import SMTPServer

#: per language: a word of the message mail's subject, of the answer's text
WORDS = {"en": ("new message at the table", "Your message is sent to Ada."),
         "fi": ("uusi viesti pöytäkeskustelussa", "Viestisi on lähetetty. Vastaanottajat: Ada."),
         "cs": ("nová zpráva od hráčů", "Tvoje zpráva je odeslaná (komu: Ada)."),
         "ca": ("missatge nou a la taula", "El teu missatge s'ha enviat a Ada."),
         "de": ("neue Nachricht am Tisch", "Deine Nachricht wurde an Ada gesendet.")}


def wait_for(predicate, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        db.session.rollback()
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _pid(email):
    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def _subject(msg) -> str:
    return str(make_header(decode_header(msg["Subject"])))


def _plain(msg) -> str:
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            text = part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
            return decode_flowed(text) if part.get_param("format") == "flowed" else text
    return ""


def _reply(to_msg, text: str) -> bytes:
    """Bo's mail client answers ``to_msg``: the text on top, the mail quoted."""
    r = EmailMessage()
    r["From"] = "bo@example.org"
    r["To"] = to_msg["Reply-To"]
    r["Subject"] = "Re: " + _subject(to_msg)
    r["Message-ID"] = make_msgid(domain="example.org")
    r["In-Reply-To"] = to_msg["Message-ID"]
    r["References"] = to_msg["Message-ID"]
    quoted = "\n".join("> " + line for line in _plain(to_msg).splitlines())
    r.set_content(f"{text}\n\nOn Sun, 29 Nov 2026 at 10:00, pbem <pbem@pbem.test> wrote:\n{quoted}\n")
    return r.as_bytes()


@pytest.fixture
def live(app):
    app.config.update(TALK_MAIL_GRACE_SECONDS=0, TALK_MAIL_SECONDS=0, INBOUND_ADDRESS="play@pbem.test",
                      RATELIMIT_ENABLED=False, DELIVER_AFTER_COMMIT=True)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        with EmbeddedWorker(app, beat=False):
            yield app.extensions["celery"], smtp


def _mails_to(smtp, address: str, subject_has: str):
    return [message_from_bytes(raw) for rcpt, raw in list(smtp.handler.messages)
            if address in rcpt and subject_has in _subject(message_from_bytes(raw))]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_a_message_by_the_page_is_mailed_and_the_reply_is_a_message(app, live, lang):
    celery, smtp = live
    gid = new_lacitta()
    begin_write()   # the live worker writes too: take SQLite's write lock before reading
    db.session.get(Player, _pid("bo@example.org")).language = lang
    db.session.commit()
    talk.post_message(gid, 0, _pid("ada@example.org"), "Bo: the market for your road? https://example.org/x", to=[1])
    celery.send_task("pbem.talk_mail")
    subject_word, answer_word = WORDS[lang]
    assert wait_for(lambda: _mails_to(smtp, "bo@example.org", subject_word)), "no message mail in " + lang
    [notice] = _mails_to(smtp, "bo@example.org", subject_word)
    assert "the market for your road?" in _plain(notice)
    assert not any("market for your road" in _plain(m) for m in _mails_to(smtp, "cy@example.org", ""))  # private
    raw = _reply(notice, "Deal, if you leave me the hill.\nBo")
    celery.send_task("pbem.inbound", [base64.b64encode(raw).decode()])
    assert wait_for(lambda: db.session.execute(select(InboundMessage.result)).scalars().all() == ["message"])
    bodies = [m.body for m in messages_for(game(gid), 0, _pid("ada@example.org"))]
    assert bodies[-1] == "Deal, if you leave me the hill.\nBo"  # the quote removed
    assert wait_for(lambda: any(answer_word in _plain(m) for m in _mails_to(smtp, "bo@example.org", "")))
    assert messages_for(game(gid), 2, _pid("cy@example.org")) == []


class _Hook(BaseHTTPRequestHandler):
    got: list = []

    def do_POST(self):  # noqa: N802
        n = int(self.headers.get("Content-Length", 0))
        type(self).got.append(json.loads(self.rfile.read(n) or b"{}"))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *a):
        pass


@pytest.mark.parametrize("lang,now_word", [("en", "Now:"), ("fi", "Nyt:"), ("cs", "Teď:"), ("ca", "Ara:"),
                                           ("de", "Jetzt:")])
def test_the_channel_hears_a_turn_with_the_public_picture_in_its_language(app, live, monkeypatch, lang, now_word):
    celery, smtp = live
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    _Hook.got = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"json://127.0.0.1:{server.server_address[1]}/hook"
        real = channel_url.check
        monkeypatch.setattr(channel_url, "check", lambda u: "JSON" if u == url else real(u))  # the stand-in alone
        monkeypatch.setattr(channel_delivery, "public_only", contextlib.nullcontext)   # and the check as it connects
        gid = new_lacitta()
        channel.connect(gid, url, by_player_id=_pid("ada@example.org"), lang=lang)
        talk.post_message(gid, 0, _pid("ada@example.org"), "SECRET-TALK", to=talk.ALL)
        g = game(gid)
        from pbem.service.core.snapshot import engine_state

        state = engine_state(g)
        seat = state.current_seats()[0]
        assert submit_orders(gid, seat, state.legal_actions(seat)[0].to_text(), expected_step=g.step,
                             source="web").accepted
        assert wait_for(lambda: any(now_word in p.get("message", "") for p in _Hook.got)), _Hook.got
        post = next(p for p in _Hook.got if now_word in p.get("message", ""))
        assert post.get("attachments") and post["attachments"][0].get("mimetype", "").startswith("image/png")
        assert not any("SECRET-TALK" in json.dumps(p) for p in _Hook.got)
    finally:
        server.shutdown()
