"""The long-game features (issues 25, 26) attacked by a player at the
table and by a stranger holding one mail of the game: iCalendar injection
through a game's title, revoked calendar and spectator links, caching of
pages whose URL is a secret, a running game's record, an ``away`` line or
a message mailed from a forwarded address, a ``to:`` line naming a player
of another game, a message answering another game's message notice."""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import re

import icalendar
import pytest
from sqlalchemy import select

from pbem.service.accounts.calendar_link import calendar_path, set_calendar
from pbem.service.core.absence_rows import Absence
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.core.talk_models import TalkMessage
from pbem.service.inbound import handle_inbound
from pbem.service.play import spectators, talk
from pbem.service.play.lifecycle import create_game, join_game
from tests.service.helpers import body_text, compose_pending, game, new_tally, outbox
from tests.service.test_inbound import reply_to_notice
from tests.webapp import PLAYERS, sign_in
from tests.security.tally_app import app, tally_game  # noqa: F401  (fixtures)

T0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
M = dt.timedelta(minutes=1)
INJECTED = "Tally\r\nBEGIN:VEVENT\r\nSUMMARY:pwned\rDESCRIPTION:x\nUID:evil;X=1,2\\"


def _player(email: str) -> Player:
    return db.session.execute(select(Player).where(Player.email == email)).scalar_one()


def _tally(title: str = "", players=PLAYERS[:3], seed: int = 7) -> int:
    gid = create_game("tally", players[0][1], players, seed=seed, now=T0, title=title).id
    for i in range(1, len(players)):
        join_game(gid, i, now=T0)
    return gid


# -- the calendar feed ---------------------------------------------------------------------------------------


def test_a_title_with_line_breaks_makes_no_second_event_in_the_feed(app):
    """The host's title ends up in SUMMARY and DESCRIPTION: CR, LF and
    CRLF in it must not end the content line (a lone CR is a line break
    to some calendar parsers)."""
    gid = _tally(INJECTED)
    set_calendar(_player("ada@example.org").id, "on")
    resp = app.test_client().get(calendar_path(_player("ada@example.org")))
    assert resp.status_code == 200
    data = resp.get_data()
    # every line break is CRLF, and none comes from the title
    assert re.search(rb"\r(?!\n)|(?<!\r)\n", data) is None
    lines = data.split(b"\r\n")
    assert sum(line == b"BEGIN:VEVENT" for line in lines) == 1
    assert not any(line.startswith((b"SUMMARY:pwned", b"UID:evil")) for line in lines)
    cal = icalendar.Calendar.from_ical(data)
    events = cal.walk("VEVENT")
    assert len(events) == 1 and str(events[0]["uid"]).startswith(f"pbem-{gid}-")
    assert "pwned" in str(events[0]["summary"])   # the title is there, as text


def test_revoked_feed_and_spectator_links_answer_404_and_nothing_is_cached(app):
    gid = _tally()
    ada = _player("ada@example.org")
    client = app.test_client()
    set_calendar(ada.id, "on")
    feed = calendar_path(ada)
    watch = spectators.spectator_path(spectators.set_watchable(gid, "on", by_player_id=ada.id))
    for path in (feed, watch):
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert resp.headers["Cache-Control"] == "no-store" and resp.headers["Referrer-Policy"] == "no-referrer"
    set_calendar(ada.id, "renew")
    spectators.set_watchable(gid, "renew", by_player_id=ada.id)
    assert client.get(feed).status_code == 404 and client.get(watch).status_code == 404
    fresh_feed, fresh_watch = calendar_path(_player("ada@example.org")), spectators.spectator_path(game(gid))
    assert client.get(fresh_feed).status_code == 200 and client.get(fresh_watch).status_code == 200
    set_calendar(ada.id, "off")
    spectators.set_watchable(gid, "off", by_player_id=ada.id)
    assert client.get(fresh_feed).status_code == 404 and client.get(fresh_watch).status_code == 404
    # a spectator cannot switch the game: only its host
    with pytest.raises(Exception):
        spectators.set_watchable(gid, "on", by_player_id=_player("bo@example.org").id)
    assert game(gid).spectator_nonce is None


# -- the record of a running game ----------------------------------------------------------------------------


def test_a_running_games_record_is_refused_to_others_and_a_seats_record_holds_no_seed(app):
    gid = _tally(seed=918273645)
    from pbem.service.play.orders import submit_orders

    submit_orders(gid, 0, "add 2", expected_step=0, source="web", now=T0 + M)
    seed = str(game(gid).seed)
    visitor = app.test_client()
    for path in (f"/games/{gid}/record.json", f"/games/{gid}/record.txt"):
        assert visitor.get(path).status_code == 403
    bo = app.test_client()
    sign_in(bo, _player("bo@example.org").id)
    for fmt in ("json", "txt"):
        assert bo.get(f"/games/{gid}/seat/1/record.{fmt}").status_code in (403, 404)   # Ada's seat
        own = bo.get(f"/games/{gid}/seat/2/record.{fmt}")
        assert own.status_code == 200 and "no-store" in own.headers["Cache-Control"]
        text = own.get_data(as_text=True)
        assert seed not in text and "final_state" not in text and "add 2" not in text.lower()
    rec = bo.get(f"/games/{gid}/seat/2/record.json").json
    assert "seed" not in rec
    assert rec["moves"] == [] and rec["complete"] is False       # Ada's order is not Bo's to read


# -- mail from a stranger holding a forwarded mail ----------------------------------------------------------


def test_an_away_line_from_a_forwarded_address_records_nothing(app):
    gid = _tally()
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    before = game(gid).deadline_at
    handle_inbound(reply_to_notice(notice, "away 2026-11-21 to 2026-12-20", sender="mallory@example.net"),
                   now=T0 + M)
    assert db.session.execute(select(Absence)).scalars().all() == []
    assert game(gid).deadline_at == before
    assert outbox(recipient="mallory@example.net") == []


def test_a_message_from_a_forged_from_is_not_posted(app):
    gid = _tally()
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    for sender in ("mallory@example.net", "Ada <mallory@example.net>", "bo@example.org"):
        handle_inbound(reply_to_notice(notice, f"to: all\nAda concedes, says {sender}", sender=sender),
                       now=T0 + M)
    assert db.session.execute(select(TalkMessage)).scalars().all() == []


def test_a_to_line_naming_a_player_of_another_game_is_refused(app):
    """Dee plays only in another game with Ada; a ``to: Dee`` in Ada's
    mail to this game reaches nobody and is answered with the reason."""
    gid = _tally()
    other = _tally(players=[PLAYERS[0], ("Dee", "dee@example.org")])
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org", game_id=gid)[0]
    res = handle_inbound(reply_to_notice(notice, "to: Dee, seat 4\nmeet me in the other game"), now=T0 + M)
    assert db.session.execute(select(TalkMessage)).scalars().all() == []
    answer = outbox(kind="talk_answer", recipient="ada@example.org")
    assert len(answer) == 1 and "meet me in the other game" in body_text(answer[0]) and res is not None
    assert outbox(recipient="dee@example.org", kind="talk") == [] and game(other).step == 0


def test_a_reply_naming_another_games_message_notice_is_no_message(app):
    """References forged to name a message notice of another game (where
    the sender also plays) do not make the text a message there, nor here."""
    gid = _tally()
    other = _tally(players=[PLAYERS[0], ("Dee", "dee@example.org")])
    talk.post_message(other, 1, _player("dee@example.org").id, "psst", to=[0], source="web", now=T0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org", game_id=gid)[0]
    forged = f"<pbem.{other}.0.1.talk@pbem.test>"
    msg = email.message_from_bytes(reply_to_notice(notice, "secret plans for Dee"), policy=email.policy.default)
    del msg["References"], msg["In-Reply-To"]
    msg["In-Reply-To"], msg["References"] = forged, forged
    handle_inbound(msg.as_bytes(), now=T0 + M)
    rows = db.session.execute(select(TalkMessage).order_by(TalkMessage.id)).scalars().all()
    assert [r.body for r in rows] == ["psst"]


# -- moderation and the feed across games ---------------------------------------------------------------------


def test_a_host_cannot_hide_or_read_a_message_of_a_game_they_do_not_host(app):
    from pbem.service.core.errors import ServiceError
    from pbem.service.play import talk_moderation

    mine = _tally()                                                            # Ada hosts
    theirs = create_game("tally", PLAYERS[1][1], [PLAYERS[1], PLAYERS[2]], seed=8, now=T0).id   # Bo hosts
    join_game(theirs, 1, now=T0)
    secret = talk.post_message(theirs, 1, _player("cy@example.org").id, "for Bo only", to=[0], now=T0)
    with pytest.raises(ServiceError):
        talk_moderation.hide_message(mine, secret.id, by_player_id=_player("ada@example.org").id)
    with pytest.raises(ServiceError):
        talk_moderation.hide_message(theirs, secret.id, by_player_id=_player("ada@example.org").id)
    db.session.rollback()
    assert db.session.get(TalkMessage, secret.id).hidden_at is None
    ada = app.test_client()
    sign_in(ada, _player("ada@example.org").id)
    assert ada.get(f"/games/{theirs}/seat/2/talk.json").status_code in (302, 403, 404)   # Cy's seat
    assert "for Bo only" not in ada.get(f"/games/{mine}/seat/1/talk.json").get_data(as_text=True)


def test_a_feed_holds_its_players_deadlines_only_and_no_sign_in_link(app):
    mine = _tally()
    others = create_game("tally", PLAYERS[1][1], [PLAYERS[1], PLAYERS[2]], seed=8, now=T0).id   # no Ada
    join_game(others, 1, now=T0)
    set_calendar(_player("ada@example.org").id, "on")
    data = app.test_client().get(calendar_path(_player("ada@example.org"))).get_data(as_text=True)
    uids = [str(e["uid"]) for e in icalendar.Calendar.from_ical(data).walk("VEVENT")]
    assert uids == [f"pbem-{mine}-0-1@pbem.test"]
    assert "/signin/" not in data and "token" not in data.lower() and "@example.org" not in data


# -- a stranger forging the player's own address ---------------------------------------------------------------


def test_with_sender_authentication_a_forged_from_declares_no_absence_and_posts_no_message(app):
    """The stranger copies the player's address from the forwarded mail's
    To into From: with ``INBOUND_REQUIRE_AUTH`` (docs/production.md) the
    away line and the message count no more than orders would; the same
    mail authenticated by our mail server is read."""
    app.config.update(INBOUND_REQUIRE_AUTH=True, INBOUND_AUTHSERV_IDS=["mx.pbem.test"])
    gid = _tally()
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    text = "away 2026-11-21 to 2026-12-20\nto: all\nI resign, says Ada"
    forged = b"Authentication-Results: mx.pbem.test; spf=fail smtp.mailfrom=example.org\r\n" + \
        reply_to_notice(notice, text)
    assert handle_inbound(forged, now=T0 + M).result == "unauthenticated"
    assert db.session.execute(select(Absence)).scalars().all() == []
    assert db.session.execute(select(TalkMessage)).scalars().all() == []
    real = b"Authentication-Results: mx.pbem.test; dmarc=pass header.from=example.org\r\n" + \
        reply_to_notice(notice, text)
    handle_inbound(real, now=T0 + 2 * M)
    db.session.rollback()
    assert len(db.session.execute(select(Absence)).scalars().all()) == 1
    assert [m.body for m in db.session.execute(select(TalkMessage)).scalars()] == ["I resign, says Ada"]
    assert game(gid).deadline_at > T0 + dt.timedelta(days=2)


# -- a player taking another player's name ----------------------------------------------------------------------


def _rename(email: str, name: str) -> None:
    from pbem.service.accounts.profile import set_account

    player = _player(email)
    set_account(player.id, name=name, timezone=player.timezone, language=player.language)


def test_a_player_taking_anothers_name_neither_receives_their_mail_nor_passes_for_them(app):
    """Cy renames himself "bó" (Bo, folded). Ada's ``to: Bo`` must not
    reach Cy: it is refused as naming two players, with the seat numbers
    to use; and Cy's message is mailed as from "bó (seat 3)", not as Bo's."""
    gid = _tally()
    _rename("cy@example.org", "bó")
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    handle_inbound(reply_to_notice(notice, "to: Bo\nmy secret plan"), now=T0 + M)
    db.session.rollback()
    assert db.session.execute(select(TalkMessage)).scalars().all() == []
    answer = body_text(outbox(kind="talk_answer", recipient="ada@example.org")[-1])
    assert "my secret plan" in answer and "2" in answer and "3" in answer
    handle_inbound(reply_to_notice(notice, "to: seat 2\nmy secret plan", msgid="<again@example.org>"),
                   now=T0 + 20 * M)
    db.session.rollback()
    [sent] = db.session.execute(select(TalkMessage)).scalars().all()
    assert [r.seat_index for r in sent.recipients] == [1]
    talk.post_message(gid, 2, _player("cy@example.org").id, "I am Bo, I concede", now=T0 + 30 * M)
    from pbem.service.play import talk_mail

    talk_mail.send_due(now=T0 + dt.timedelta(hours=2))
    mail = body_text(outbox(kind="talk", recipient="ada@example.org")[-1])
    assert "bó (seat 3)" in mail and "Bo (seat 2)" not in mail


def test_a_reply_naming_a_private_message_between_two_others_learns_and_reaches_nothing(app):
    """Bo writes privately to Cy; Ada forges her reply's References to name
    that message (with her own seat in the id, as her notices would): her
    text is not sent to Bo and Cy as a "reply all", and the answer names
    neither of them nor quotes Bo's text."""
    gid = _tally()
    private = talk.post_message(gid, 1, _player("bo@example.org").id, "Cy, let us gang up on Ada", to=[2], now=T0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    forged = f"<pbem.{gid}.0.{private.id}.talk@pbem.test>"
    msg = email.message_from_bytes(reply_to_notice(notice, "what are you two up to?"), policy=email.policy.default)
    del msg["References"], msg["In-Reply-To"]
    msg["In-Reply-To"], msg["References"] = forged, forged
    handle_inbound(msg.as_bytes(), now=T0 + M)
    db.session.rollback()
    assert [m.body for m in db.session.execute(select(TalkMessage)).scalars()] == ["Cy, let us gang up on Ada"]
    answers = outbox(kind="talk_answer", recipient="ada@example.org")
    assert len(answers) == 1
    text = body_text(answers[0])
    assert "gang up" not in text and "what are you two up to?" in text


def test_the_feed_link_in_a_forwarded_turn_mail_shows_deadlines_only_until_renewed(app):
    """A turn mail carries its player's feed link (issue 25): whoever holds
    the mail reads that player's open deadlines (titles, numbers, seats),
    nothing of any hand, and no longer once the player renews the link."""
    gid = _tally()
    ada = _player("ada@example.org")
    set_calendar(ada.id, "on")
    from pbem.service.play.orders import submit_orders

    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=T0 + M)   # Bo's turn mail now
    compose_pending()
    set_calendar(_player("bo@example.org").id, "on")
    submit_orders(gid, 1, "add 1", expected_step=1, source="web", now=T0 + 2 * M)
    submit_orders(gid, 2, "add 1", expected_step=2, source="web", now=T0 + 3 * M)
    compose_pending()
    turn = outbox(kind="turn", recipient="ada@example.org")[-1]
    text = body_text(turn)
    link = re.search(r"http://pbem\.test(/calendar/\S+\.ics)", text)
    assert link, "the turn mail carries the feed link"
    assert "secret number" in text.lower()       # the mail itself shows the hand...
    stranger = app.test_client()
    feed = stranger.get(link.group(1)).get_data(as_text=True)
    assert "BEGIN:VEVENT" in feed and "secret number" not in feed.lower()   # ...the feed does not
    set_calendar(ada.id, "renew")
    assert stranger.get(link.group(1)).status_code == 404
