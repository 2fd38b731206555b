"""Hostile text in the long-game features (issues 25, 26, 28) reaches no
page or mail as markup: player names and a title on the spectator page,
a message's text on the seat page and in the message mail, an ``away``
line quoted back in the absence answer, a webhook's address and the error
a hostile server made in the "webhook switched off" mail; the records are
plain text or JSON downloads, never read as a page."""
from __future__ import annotations

import datetime as dt
from email import message_from_bytes, policy

from sqlalchemy import select

from pbem.service.core.api_models import ApiToken, ApiWebhook
from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage, utcnow
from pbem.service.inbound import handle_inbound
from pbem.service.play import spectators, talk, talk_mail
from pbem.service.play.lifecycle import cancel_game
from pbem.service.post import webhook_notice
from pbem.service.post.outbox import render
from tests.service.test_inbound import reply_to_notice

from .conftest import PLAYERS, player_id, sign_in
from .test_escaping import XSS, _assert_escaped, _hostile_game


def _html_of(kind: str, recipient: str | None = None) -> list[str]:
    db.session.rollback()
    query = select(OutboxMessage).where(OutboxMessage.kind == kind)
    if recipient:
        query = query.where(OutboxMessage.recipient == recipient)
    out = []
    for row in db.session.execute(query.order_by(OutboxMessage.id)).scalars():
        raw = render(row)
        if raw is not None:
            out.append(message_from_bytes(raw, policy=policy.default).get_body(("html",)).get_content())
    return out


def test_the_spectator_page_escapes_names_and_title(app, client):
    gid = _hostile_game()
    game = spectators.set_watchable(gid, "on", by_player_id=player_id(PLAYERS[0][1]))
    resp = client.get(spectators.spectator_path(game))
    assert resp.status_code == 200
    _assert_escaped("/watch", resp.get_data(as_text=True))
    for html in _html_of("watchable"):
        _assert_escaped("the watchable mail", html)


def test_a_message_with_markup_is_text_on_the_page_and_in_the_mail(app, client):
    gid = _hostile_game()
    now = utcnow()
    talk.post_message(gid, 1, player_id(PLAYERS[1][1]), f"hello {XSS} https://example.org/\"><script>x</script>",
                      now=now)
    sign_in(client, player_id(PLAYERS[0][1]))
    page = client.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    _assert_escaped("the seat page", page)
    assert '"><script>x' not in page
    talk_mail.send_due(now=now + dt.timedelta(hours=1))
    mails = _html_of("talk", PLAYERS[2][1])   # Cy: Ada read it on the page, so is not mailed it
    assert mails
    for html in mails:
        _assert_escaped("the message mail", html)
        assert '"><script>x' not in html


def test_an_away_line_with_markup_is_quoted_back_as_text(app):
    _hostile_game()
    db.session.rollback()
    notice = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.kind == "turn").order_by(OutboxMessage.id)).scalars().first()
    handle_inbound(reply_to_notice(notice, f"away {XSS} 2026-12-20 to 2026-12-27"))
    mails = _html_of("absence")
    assert mails
    for html in mails:
        _assert_escaped("the absence answer", html)


def test_a_hostile_servers_error_and_address_are_text_in_the_webhook_mail(app):
    gid = _hostile_game()
    from pbem.service.accounts.tokens import create_token

    row, _secret = create_token(player_id(PLAYERS[0][1]), "t", "read")
    hook = ApiWebhook(token_id=row.id, url=f"https://93.184.216.34/{XSS}", secret="whsec_x", created_at=utcnow(),
                      failures=10, last_error=f"SSLCertVerificationError: hostname mismatch, certificate is not "
                                              f"valid for '{XSS}'")
    db.session.add(hook)
    db.session.commit()
    webhook_notice.hook_disabled(hook, db.session.get(ApiToken, row.id).player, db.session.get(Game, gid),
                                 now=utcnow())
    db.session.commit()
    mails = _html_of("webhook_off")
    assert len(mails) == 1
    _assert_escaped("the webhook mail", mails[0])


def test_records_are_downloads_never_pages(app, client):
    gid = _hostile_game()
    cancel_game(gid, by_player_id=player_id(PLAYERS[0][1]))
    for path, mimetype in ((f"/games/{gid}/record.txt", "text/plain"),
                           (f"/games/{gid}/record.json", "application/json")):
        resp = client.get(path)
        assert resp.status_code == 200 and resp.mimetype == mimetype, path
        assert resp.headers["Content-Disposition"].startswith("attachment;")
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert "<script>" in resp.get_data(as_text=True)   # the names as written: it is text, not a page
