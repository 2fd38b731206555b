"""/dev/mail against a real sink: list, show, and a reply from the browser
that arrives over SMTP and parses back to exactly the orders typed."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from flask import Flask

from pbem.mail import compose, dev_page, tokens
from pbem.mail.inbound import parse_inbound, reply_target
from pbem.mail.sink import MailSink, list_messages
from pbem.mail.smtp import send_message

SECRET = "dev-secret"
INBOUND = "play@localhost"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x01" * 40


@pytest.fixture
def env(tmp_path):
    got: list[bytes] = []
    s = MailSink(tmp_path / "mail", port=0, inbound_address=INBOUND, on_inbound=got.append).start()
    app = Flask("t")
    app.config.update(SECRET_KEY="x", MAIL_SINK_DIR=str(s.directory), SMTP_HOST="127.0.0.1", SMTP_PORT=s.port,
                      DEV_MAIL=True)
    app.register_blueprint(dev_page.bp)
    yield app, s, got
    s.stop()


def _notice(port):
    reply_to = tokens.make_reply_address(SECRET, INBOUND, 7, 1)
    env = compose.Envelope(sender="pbem <pbem@localhost>", to_name="Ada <Lovelace>", to_address="ada@example.org",
                           reply_to=reply_to, inbound_address=INBOUND, msgid_tag="pbem.7.1.3.turn")
    turn = compose.Turn(phase="year 1, round 1", seat="seat 2",
                        deadline=datetime(2026, 11, 24, 16, 0, tzinfo=timezone.utc),
                        order_url="http://localhost:5000/games/7/seat/2", legal_orders=["pass"],
                        private_info="Gold: 5", board_png=PNG, board_alt="The board")
    msg = compose.turn_notice(env, compose.GameRef("La Città", 7), turn)
    send_message(msg, host="127.0.0.1", port=port)
    return msg, reply_to


def test_list_show_and_images(env):
    app, s, _ = env
    msg, _ = _notice(s.port)
    c = app.test_client()
    page = c.get("/dev/mail/")
    assert page.status_code == 200 and "ada@example.org" in page.text
    assert "La Città #7 — your move" in page.text
    assert "Content-Security-Policy" in page.headers
    per = c.get("/dev/mail/?to=ada@example.org")
    assert "your move" in per.text
    assert "your move" not in c.get("/dev/mail/?to=nobody@example.org").text
    mail_id = list_messages(s.directory)[0].id
    show = c.get(f"/dev/mail/{mail_id}")
    assert show.status_code == 200
    assert f'<iframe sandbox title="HTML part of the message" src="/dev/mail/{mail_id}/html"' in show.text
    frame = c.get(f"/dev/mail/{mail_id}/html")
    assert frame.headers["Content-Security-Policy"].startswith("sandbox;")
    assert "Ada &lt;Lovelace&gt;" in frame.text and "<Lovelace>" not in frame.text
    assert "<Lovelace>" not in show.text
    # the inline board is served from the message
    cid = msg.get_payload()[1].get_payload()[1]["Content-ID"].strip("<>")
    assert f"/dev/mail/{mail_id}/cid/{cid}" in frame.text
    assert f"/dev/mail/{mail_id}/cid/{cid}" in show.text  # listed under inline parts
    img = c.get(f"/dev/mail/{mail_id}/cid/{cid}")
    assert img.status_code == 200 and img.data == PNG and img.mimetype == "image/png"
    assert c.get(f"/dev/mail/{mail_id}/raw").data.startswith(b"From:") or b"Subject:" in c.get(f"/dev/mail/{mail_id}/raw").data
    assert c.get("/dev/mail/../../etc/passwd").status_code == 404
    assert c.get("/dev/mail/20260101T000000-000001-0123abcd").status_code == 404


def test_reply_from_browser_round_trip(env):
    app, s, got = env
    _, reply_to = _notice(s.port)
    c = app.test_client()
    mail_id = list_messages(s.directory)[0].id
    form = c.get(f"/dev/mail/{mail_id}/reply")
    assert form.status_code == 200
    assert reply_to in form.text and "ada@example.org" in form.text
    assert "&gt; It is your move" in form.text  # the original is quoted like a mail client does
    import html as _html
    import re
    prefilled = _html.unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", form.text, re.S)[1])
    assert "wrote:\n> Hello Ada <Lovelace>," in prefilled
    body = "build castle F7\npass\n" + prefilled  # typed above the quote, as in a mail client
    resp = c.post(f"/dev/mail/{mail_id}/reply", data={"from": "Ada <ada@example.org>", "to": reply_to,
                                                       "subject": "Re: your move", "body": body})
    assert resp.status_code == 302
    assert len(got) == 1
    mail = parse_inbound(got[0], own_addresses=["pbem@localhost", INBOUND])
    assert mail.text == "build castle F7\npass"
    assert mail.from_address == "ada@example.org"
    assert mail.in_reply_to and mail.in_reply_to.startswith("<pbem.7.1.3.turn.")
    assert reply_target(mail, SECRET, INBOUND)[:2] == (7, 1)


def test_page_hidden_unless_dev(tmp_path):
    app = Flask("t")
    app.config.update(SMTP_HOST="smtp.example.org", MAIL_SINK_DIR=str(tmp_path))
    app.register_blueprint(dev_page.bp)
    assert app.test_client().get("/dev/mail/").status_code == 404
    app.config["DEV_MAIL"] = True
    assert app.test_client().get("/dev/mail/").status_code == 200
