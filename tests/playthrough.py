"""Playing a whole game through the service on the embedded defaults, as
players do: the app wired to a real local SMTP sink (mail delivered after
each commit, tasks in-process), browsers that sign in from emailed links and
post the order form, and email answers sent over SMTP to the sink, which
hands them to the inbound pipeline. Shared by the acceptance tests of every
game (tests/service/test_acceptance.py for La Città,
tests/acceptance/test_medina_service.py for Medina)."""
from __future__ import annotations

import re
import smtplib
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from pbem.mail import sink as mailsink
from pbem.mail.flowed import plain_text
from pbem.service.core.db import db
from pbem.service.inbound import handle_inbound

#: Message-ID of our mail: game, seat, step (absent for some kinds), kind
TAG = re.compile(r"<pbem\.(\d+)\.(\d+)\.(?:(\d+)\.)?([a-z]+)[.@]")


@pytest.fixture
def live(tmp_path):
    """The app wired to a real local SMTP sink, mail delivered after each
    commit, tasks in-process. No app context is held open: each page request
    gets its own, as in a server (a shared one would share ``g``)."""
    from pbem.web import create_app
    from pbem.web.extensions import limiter

    # RATELIMIT_ENABLED=False below switches off the process-wide limiter
    # object (flask-limiter keeps it for the next app); it is put back after
    was_enabled = limiter.enabled
    app = create_app({
        "INSTANCE_PATH": str(tmp_path / "instance"), "TESTING": True, "SECRET_KEY": "acceptance",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'pbem.sqlite'}",
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}", "CELERY_EAGER": True,
        "INBOUND_ADDRESS": "play@pbem.test", "MAIL_FROM": "pbem <pbem@pbem.test>",
        "BASE_URL": "http://pbem.test", "MAIL_SINK_DIR": str(tmp_path / "mail"),
        "RATELIMIT_ENABLED": False,
        # every turn notice is read as it is written; the live-play grace has
        # its own tests (tests/service/test_live_play.py)
        "NOTICE_GRACE_SECONDS": 0,
    })
    app.extensions["celery"].conf.task_always_eager = True
    with app.app_context():
        db.create_all()

    def on_inbound(raw: bytes) -> None:
        with app.app_context():
            try:
                handle_inbound(raw)
            finally:
                db.session.remove()

    with mailsink.MailSink(tmp_path / "mail", port=0, inbound_address=app.config["INBOUND_ADDRESS"],
                           on_inbound=on_inbound) as sink:
        app.config["SMTP_PORT"] = sink.port
        yield app, sink
    with app.app_context():
        db.engine.dispose()
    limiter.enabled = was_enabled


_parsed: dict[str, object] = {}


def mails_to(box, address: str) -> list:
    """Parsed messages the sink stored for ``address``, oldest first."""
    out = []
    for rec in reversed(mailsink.list_messages(box, recipient=address)):
        key = f"{box}/{rec.id}"
        if key not in _parsed:
            _parsed[key] = message_from_bytes(mailsink.read_message(box, rec.id), policy=policy.default)
        out.append(_parsed[key])
    return out


def tag_of(msg):
    m = TAG.search(msg["Message-ID"] or "")
    return (int(m[1]), int(m[2]), int(m[3]) if m[3] else None, m[4]) if m else None


def text_of(msg) -> str:
    return plain_text(msg)


CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
STEP = re.compile(r'name="step"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="step"')


def _first(rx, html: str) -> str:
    m = rx.search(html)
    assert m, f"no {rx.pattern} in the page"
    return m[1] or m[2]


class WebPlayer:
    """One browser: signs in from the link in an email, joins, posts orders."""

    def __init__(self, app):
        self.client = app.test_client()
        self.signed_in = False

    def post_form(self, path: str, **fields) -> "object":
        html = self.client.get(path).get_data(as_text=True)
        return self.client.post(path, data={"csrf_token": _first(CSRF, html), **fields})

    def sign_in(self, link: str) -> str:
        """Follow the emailed link and confirm; returns where it leads."""
        path = re.sub(r"^https?://[^/]+", "", link)
        resp = self.post_form(path)
        assert resp.status_code in (302, 303), resp.status_code
        self.signed_in = True
        return resp.headers["Location"]

    def join(self, path: str) -> None:
        resp = self.post_form(path)
        assert resp.status_code in (302, 303), resp.status_code

    def order(self, game_id: int, seat: int, text: str) -> None:
        path = f"/games/{game_id}/seat/{seat + 1}"
        html = self.client.get(path).get_data(as_text=True)
        resp = self.client.post(path, data={"csrf_token": _first(CSRF, html), "step": _first(STEP, html),
                                            "orders": text})
        assert resp.status_code in (200, 302, 303), resp.status_code


def email_order(sink, notice, sender: str, text: str) -> None:
    """Answer ``notice`` like a mail client: orders on top, the notice quoted."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = notice["Reply-To"]
    msg["Subject"] = "Re: " + notice["Subject"]
    msg["Message-ID"] = make_msgid(domain="example.com")
    msg["In-Reply-To"] = notice["Message-ID"]
    msg["References"] = notice["Message-ID"]
    quoted = "\n".join("> " + line for line in text_of(notice).splitlines())
    msg.set_content(f"{text}\n\nOn Mon, 23 Nov 2026, pbem wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", sink.port) as smtp:
        smtp.send_message(msg, from_addr=sender, to_addrs=[notice["Reply-To"]])
