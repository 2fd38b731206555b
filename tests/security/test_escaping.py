"""Everything user-written is escaped in pages and emails: player names,
game titles, order text echoed back (web form and email)."""
from __future__ import annotations

import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage
from pbem.service.inbound import handle_inbound

from .conftest import PLAYERS, csrf_token, player_id, sign_in
from pbem.service.post.outbox import render

XSS = '<script>alert("pwn")</script><img src=x onerror=alert(1)>'
RAW_MARKERS = ("<script>alert", "<img src=x")


def _hostile_game() -> int:
    from pbem.service.play.lifecycle import create_game, join_game

    players = [(f"{XSS} {name}", email) for name, email in PLAYERS]
    game = create_game("lacitta", players[0][1], players, options={"setup": "beginner"}, seed=3,
                       title=f"Game {XSS}")
    for i in (1, 2):
        join_game(game.id, i)
    return game.id


def _assert_escaped(where: str, html: str) -> None:
    for marker in RAW_MARKERS:
        assert marker not in html, f"{where}: unescaped {marker!r}"
    assert "&lt;script&gt;" in html or "&lt;script" in html, f"{where}: the text is not shown at all"


def test_names_and_titles_are_escaped_on_every_page(app, client):
    gid = _hostile_game()
    sign_in(client, player_id(PLAYERS[0][1]))
    for path in ("/", f"/games/{gid}", f"/games/{gid}/seat/1", "/account"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        _assert_escaped(path, resp.get_data(as_text=True))


def test_names_and_titles_are_escaped_in_every_email(app):
    _hostile_game()
    db.session.rollback()
    rows = db.session.execute(select(OutboxMessage)).scalars().all()
    assert rows
    for row in rows:
        if render(row) is None:
            continue  # a stale turn notice: never sent
        msg = message_from_bytes(render(row), policy=policy.default)
        html = msg.get_body(("html",))
        if html is None:
            continue
        _assert_escaped(f"{row.kind} email to {row.recipient}", html.get_content())
        # headers carry the name encoded, never as a raw header injection
        assert "\n" not in str(msg["To"]) and "\r" not in str(msg["Subject"])


def test_order_text_is_escaped_when_echoed_on_the_order_page(app, client):
    gid = _hostile_game()
    sign_in(client, player_id(PLAYERS[0][1]))
    token = csrf_token(client, f"/games/{gid}/seat/1")
    step = db.session.get(Game, gid).step
    for url in (f"/games/{gid}/seat/1/review", f"/games/{gid}/seat/1"):
        resp = client.post(url, data={"csrf_token": token, "orders": XSS, "step": str(step)})
        html = resp.get_data(as_text=True)
        for marker in RAW_MARKERS:
            assert marker not in html, url
        assert "&lt;img src=x" in html or "&lt;script&gt;" in html, url


def test_order_text_is_escaped_in_the_emailed_refusal(app):
    gid = _hostile_game()
    row = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.game_id == gid, OutboxMessage.kind == "turn")).scalars().all()[-1]
    notice = message_from_bytes(render(row), policy=policy.default)
    msg = EmailMessage()
    msg["From"] = str(notice["To"])
    msg["To"] = str(notice["Reply-To"])
    msg["Subject"] = "Re: " + str(notice["Subject"])
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = str(notice["Message-ID"])
    msg.set_content(XSS + "\n")
    res = handle_inbound(msg.as_bytes())
    assert res.result == "refused"
    db.session.rollback()
    answer = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "refusal")).scalar_one()
    html = message_from_bytes(answer.raw, policy=policy.default).get_body(("html",)).get_content()
    for marker in RAW_MARKERS:
        assert marker not in html
    assert re.search(r"&lt;(script|img)", html)
