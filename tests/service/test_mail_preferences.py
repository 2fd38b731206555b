"""What pbem sends, and to whom (issue 13, "What pbem sends"): List-Id,
one-click List-Unsubscribe, a stable thread per game and seat, the player's
mail preferences (every move, my turn only, a daily digest, none), "never
invite me again", VERP envelope senders and hard bounces."""
from __future__ import annotations

import datetime as dt
from email.utils import getaddresses

import pytest

from pbem.mail.flowed import plain_text
from pbem.service.core.db import db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player
from pbem.service.play.lifecycle import create_game
from pbem.service.play.orders import submit_orders
from pbem.service.play.replacement import replace_player
from pbem.service.post.delivery import deliver_due

from .helpers import PLAYERS, compose_pending, new_tally, outbox, parsed
from .smtpserver import SMTPServer

H = dt.timedelta(hours=1)


def _player(email: str) -> Player:
    return db.session.query(Player).filter_by(email=email).one()


def _set(email: str, **values) -> None:
    p = _player(email)
    for k, v in values.items():
        setattr(p, k, v)
    db.session.commit()


def test_every_game_mail_carries_list_id_one_click_unsubscribe_and_the_seat_thread(app, t0):
    gid = new_tally(t0)
    compose_pending()
    submit_orders(gid, 0, "add 1", expected_step=None, source="email", now=t0 + H)
    compose_pending()
    ada = [parsed(r) for r in outbox() if r.recipient == "ada@example.org" and r.raw]
    bo = [parsed(r) for r in outbox() if r.recipient == "bo@example.org" and r.raw]
    assert ada and len(bo) >= 2
    domain = app.config["INBOUND_ADDRESS"].rpartition("@")[2]
    for m in ada + bo:
        assert m["List-Id"] == f'"Tally #{gid}" <game-{gid}.{domain}>'
        unsub = m["List-Unsubscribe"].strip()
        assert unsub.startswith("<http") and "/mail/unsubscribe/" in unsub and unsub.endswith(">")
        assert m["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert "/mail/preferences/" in plain_text(m)
    roots = {m["References"].split()[0] for m in bo}
    assert roots == {f"<pbem.game-{gid}.seat-2@{domain}>"}          # one conversation per seat
    assert {m["References"].split()[0] for m in ada} == {f"<pbem.game-{gid}.seat-1@{domain}>"}


def test_one_click_unsubscribe_works_without_a_cookie_and_a_get_changes_nothing(app, t0):
    new_tally(t0)
    row = next(r for r in outbox() if r.recipient == "bo@example.org")
    url = parsed(row)["List-Unsubscribe"].strip("<>")
    path = url.split("://", 1)[1].split("/", 1)[1]
    client = app.test_client()
    assert client.get("/" + path).status_code == 302                  # a link scanner's GET
    assert _player("bo@example.org").notify_mode == "every"
    res = client.post("/" + path, data={"List-Unsubscribe": "One-Click"})  # RFC 8058, no cookie, no CSRF
    assert res.status_code == 200 and b"unsubscribed" in res.data
    db.session.expire_all()
    # no more news and no invitations; the seats Bo holds still hear of their turns (issue 29)
    assert (_player("bo@example.org").notify_mode, _player("bo@example.org").no_invites) == ("my_turn", True)
    assert client.post("/mail/unsubscribe/forged-token").status_code == 404


def test_none_sends_no_game_mail_but_answers_still_come(app, t0):
    gid = new_tally(t0)
    _set("bo@example.org", notify_mode="none")
    before = len(outbox(recipient="bo@example.org"))
    submit_orders(gid, 0, "add 1", expected_step=None, source="email", now=t0 + H)   # Bo's move now
    assert len(outbox(recipient="bo@example.org")) == before                        # no turn notice


def test_my_turn_only_drops_news_of_other_seats_missed_turns(app, t0):
    from pbem.service.play.deadlines import scan

    gid = new_tally(t0)
    _set("bo@example.org", notify_mode="my_turn")
    scan(now=t0 + 60 * H)                       # Ada misses her turn
    kinds_bo = [r.kind for r in outbox(recipient="bo@example.org")]
    kinds_cy = [r.kind for r in outbox(recipient="cy@example.org")]
    assert "missed" in kinds_cy and "missed" not in kinds_bo
    assert "turn" in kinds_bo                   # it is Bo's move now: that still comes
    assert gid


def test_a_digest_player_gets_one_mail_at_their_hour_with_the_notices_of_the_day(app, t0):
    from pbem.service.play.deadlines import scan

    gid = new_tally(t0)
    _set("cy@example.org", notify_mode="digest", digest_hour=20, timezone="Europe/Helsinki")
    scan(now=t0 + 60 * H)                       # Ada misses her turn: news for Cy's digest
    held = outbox(recipient="cy@example.org", status="held")
    assert [r.kind for r in held] == ["missed"]
    # 20:00 in Helsinki on 23 November is 18:00 UTC
    assert held[0].next_attempt_at == dt.datetime(2026, 11, 23, 18, 0, tzinfo=dt.timezone.utc)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        deliver_due(now=t0 + 61 * H)
        to_cy = [raw for r, raw in smtp.handler.messages if r == ["cy@example.org"]]
        assert len(to_cy) == 1 and b"invites you" in to_cy[0]       # invitations do not wait
        report = deliver_due(now=dt.datetime(2026, 11, 23, 18, 1, tzinfo=dt.timezone.utc))
        assert report.digests == 1
        to_cy = [raw for r, raw in smtp.handler.messages if r == ["cy@example.org"]]
    assert len(to_cy) == 2 and b"daily digest" in to_cy[1]
    assert [r.status for r in outbox(recipient="cy@example.org", kind="missed")] == ["digested"]
    assert gid


def test_the_digest_never_holds_back_your_move(app, t0):
    """Issue 29: "your move", reminders and the game's end go at once for
    a digest player; only an explicit "none" turns them off."""
    gid = new_tally(t0)
    _set("bo@example.org", notify_mode="digest", digest_hour=20, timezone="Europe/Helsinki")
    submit_orders(gid, 0, "add 1", expected_step=None, source="email", now=t0 + H)   # Bo's move
    turn = outbox(recipient="bo@example.org", kind="turn")
    assert [r.status for r in turn] == ["pending"] and turn[0].next_attempt_at < t0 + 2 * H


def test_one_click_unsubscribe_stops_invitations_but_not_your_move(app, t0):
    """Hole 6 and issue 29: after a one-click unsubscribe no new game can
    seat the address and no invitation is resent, but the turns of the
    games the player sits in still come, and the host sees nothing amiss."""
    from pbem.service.play.replacement import resend_invitation

    gid = create_game("tally", PLAYERS[0][1], PLAYERS, seed=1, now=t0).id
    row = next(r for r in outbox() if r.recipient == "bo@example.org")
    path = parsed(row)["List-Unsubscribe"].strip("<>").split("://", 1)[1].split("/", 1)[1]
    assert app.test_client().post("/" + path, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    db.session.expire_all()
    ada = _player("ada@example.org")
    with pytest.raises(ServiceError, match="asked not to be invited"):
        resend_invitation(gid, 1, by_player_id=ada.id, now=t0 + H)
    with pytest.raises(ServiceError, match="asked not to be invited"):
        create_game("tally", PLAYERS[0][1], PLAYERS, seed=2, now=t0)
    assert len(outbox(kind="invite", recipient="bo@example.org")) == 1
    from pbem.service.play.lifecycle import start_game

    start_game(gid, by_player_id=ada.id, now=t0 + H)
    submit_orders(gid, 0, "add 1", expected_step=None, source="email", now=t0 + 2 * H)   # Bo's move
    assert [r.kind for r in outbox(recipient="bo@example.org", kind="turn")] == ["turn"]


def test_never_invite_me_again_stops_resent_invitations(app, t0):
    from pbem.service.play.replacement import resend_invitation

    gid = create_game("tally", PLAYERS[0][1], PLAYERS, seed=1, now=t0).id
    _set("cy@example.org", no_invites=True)
    for minutes in (0, 11, 22):
        with pytest.raises(ServiceError, match="asked not to be invited"):
            resend_invitation(gid, 2, by_player_id=_player("ada@example.org").id, now=t0 + minutes * 60 * H / 60)
    assert len(outbox(kind="invite", recipient="cy@example.org")) == 1


def test_the_preferences_page_is_not_cached_and_leaks_no_referrer(app, t0):
    from pbem.service.core import links

    new_tally(t0)
    url = links.preferences_url(_player("bo@example.org").id)
    path = "/" + url.split("://", 1)[1].split("/", 1)[1]
    client = app.test_client()
    for resp in (client.get(path), client.get(path.replace("/preferences/", "/unsubscribe/")),
                 client.get(path + "?unsubscribe=1")):
        assert resp.headers["Cache-Control"] == "no-store"
        assert resp.headers["Referrer-Policy"] == "no-referrer"
    page = client.get(path + "?unsubscribe=1").get_data(as_text=True)
    # the unsubscribe page offers "only my turns" first, and explains "none"
    assert page.index('id="only-my-turns"') < page.index('id="unsubscribe"')
    assert page.index('value="my_turn"') < page.index('value="none"')
    assert "not even my turns" in page


def test_an_address_that_said_never_invite_me_cannot_be_seated(app, t0):
    new_tally(t0)
    _set("cy@example.org", no_invites=True)
    with pytest.raises(ServiceError, match="cy@example.org asked not to be invited"):
        create_game("tally", PLAYERS[0][1], PLAYERS, seed=1, now=t0)
    gid = new_tally(t0, seats=2)
    with pytest.raises(ServiceError, match="asked not to be invited"):
        replace_player(gid, 1, "cy@example.org", by_player_id=_player("ada@example.org").id, now=t0)


def _dsn(to: str, recipient: str, status: str = "5.1.1", action: str = "failed") -> bytes:
    return (
        f"From: MAILER-DAEMON@mx.example.org\r\nTo: {to}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        "Message-ID: <dsn.1@mx.example.org>\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example.org\r\n\r\n"
        f"Final-Recipient: rfc822; {recipient}\r\nAction: {action}\r\nStatus: {status}\r\n"
        f"Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected: User unknown\r\n"
        "--B--\r\n").encode()


def test_verp_sender_and_a_hard_bounce_stop_mail_to_the_address_and_tell_the_host(app, t0):
    from pbem.service.inbound import handle_inbound

    gid = new_tally(t0)
    with SMTPServer() as smtp:
        app.config["SMTP_PORT"] = smtp.port
        deliver_due(now=t0)
        senders = dict(zip((r[0] for r, _ in smtp.handler.messages), smtp.handler.senders))
    bo_row = next(r for r in outbox() if r.recipient == "bo@example.org")
    base, _, domain = app.config["INBOUND_ADDRESS"].partition("@")
    assert senders["bo@example.org"].startswith(f"{base}+bounce-{bo_row.id}-")   # VERP: one per mail
    forged = senders["bo@example.org"].split("@")[0][:-4] + "aaaa@" + domain
    assert handle_inbound(_dsn(forged, "bo@example.org")).result != "bounce"
    assert handle_inbound(_dsn(senders["bo@example.org"], "bo@example.org", "4.2.2", "delayed")).result \
        == "bounce-soft"
    db.session.expire_all()
    assert _player("bo@example.org").bounced_at is None
    res = handle_inbound(_dsn(senders["bo@example.org"], "bo@example.org").replace(b"dsn.1", b"dsn.2"), now=t0)
    assert res.result == "bounce"
    db.session.expire_all()
    bo = _player("bo@example.org")
    assert bo.bounced_at is not None and "User unknown" in bo.bounce_reason
    told = outbox(kind="bounce")
    assert [getaddresses([r.recipient])[0][1] for r in told] == ["ada@example.org"]
    assert "bounces" in told[0].subject
    before = len(outbox(recipient="bo@example.org"))
    submit_orders(gid, 0, "add 1", expected_step=None, source="email", now=t0 + H)   # Bo's move
    assert len(outbox(recipient="bo@example.org")) == before                        # nothing more to Bo


def test_the_preferences_page_from_a_mail_footer_saves_every_choice(app, t0):
    from pbem.service.core import links
    from tests.webapp import csrf_token

    new_tally(t0)
    bo = _player("bo@example.org")
    path = links.preferences_url(bo.id).split("://", 1)[1].split("/", 1)[1]
    client = app.test_client()
    page = client.get("/" + path)
    assert page.status_code == 200 and b"Never invite me" in page.data
    token = csrf_token(client, "/" + path)
    res = client.post("/" + path, data={"csrf_token": token, "notify_mode": "digest", "digest_hour": "7",
                                        "no_invites": "on"})
    assert res.status_code == 302
    db.session.expire_all()
    bo = _player("bo@example.org")
    assert (bo.notify_mode, bo.digest_hour, bo.no_invites) == ("digest", 7, True)
    bad = client.post("/" + path, data={"csrf_token": token, "notify_mode": "often", "digest_hour": "7"})
    assert bad.status_code == 400 and b"Please choose" in bad.data


def test_a_held_notice_whose_turn_passed_is_left_out_of_the_digest(app, t0):
    from pbem.service.post import digest

    gid = new_tally(t0)
    _set("bo@example.org", notify_mode="digest", digest_hour=20, timezone="Europe/Helsinki")
    submit_orders(gid, 0, "add 1", expected_step=None, source="email", now=t0 + H)   # Bo's move, held
    submit_orders(gid, 1, "add 1", expected_step=None, source="web", now=t0 + 2 * H)  # Bo moves on the web
    assert digest.send_due(now=dt.datetime(2026, 11, 20, 18, 1, tzinfo=dt.timezone.utc)) == 0
    assert outbox(kind="digest") == []


def test_the_games_end_by_cancelling_reaches_a_my_turn_player_and_not_a_none_one(app, t0):
    """Issue 29: the game's own end is turn mail: "my turn only" and the
    digest get it at once; only "none" goes without."""
    from pbem.service.play.lifecycle import cancel_game

    app.config["HOST_NOTICE_DELAY_SECONDS"] = 0
    gid = new_tally(t0)
    _set("bo@example.org", notify_mode="my_turn")
    _set("cy@example.org", notify_mode="none")
    cancel_game(gid, now=t0 + H)
    assert [r.status for r in outbox(kind="cancelled", recipient="bo@example.org")] == ["pending"]
    assert outbox(kind="cancelled", recipient="cy@example.org") == []


def test_a_player_whose_seat_is_given_away_is_told_once_even_with_no_game_mail(app, t0):
    gid = new_tally(t0)
    _set("bo@example.org", notify_mode="none")
    replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=_player("ada@example.org").id, now=t0 + H)
    assert len(outbox(kind="seat_given", recipient="bo@example.org")) == 1
    _set("cy@example.org", bounced_at=t0)
    replace_player(gid, 2, "eve@example.org", "Eve", by_player_id=_player("ada@example.org").id, now=t0 + H)
    assert outbox(kind="seat_given", recipient="cy@example.org") == []   # a bounced address gets nothing
