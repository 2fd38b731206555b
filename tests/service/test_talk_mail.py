"""Message mail (issue 26): coalesced per seat (at most one per
TALK_MAIL_SECONDS holding every message since the last), what the player
saw on the page is not mailed, the player's talk_mail choice (every,
digest, none), and nothing private reaches another seat's mail."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.play import talk, talk_mail
from pbem.service.play.talk_read import mark_seen, messages_for

from .helpers import body_text, game, new_tally, outbox, parsed

M = dt.timedelta(minutes=1)


def _player(email: str) -> Player:
    return db.session.execute(select(Player).where(Player.email == email)).scalar_one()


def _talk_mail(to: str):
    return outbox(kind="talk", recipient=to)


def test_messages_are_coalesced_into_one_mail_per_quarter_hour(app, t0):
    gid = new_tally(t0)
    ada, bo = _player("ada@example.org").id, _player("bo@example.org").id
    talk.post_message(gid, 0, ada, "first", to=talk.ALL, now=t0)
    talk.post_message(gid, 0, ada, "second", to=talk.ALL, now=t0 + M)
    assert talk_mail.send_due(now=t0 + M) == 0  # within the grace: a player at the page reads it there
    talk_mail.send_due(now=t0 + 3 * M)
    [mail] = _talk_mail("bo@example.org")
    text = body_text(mail)
    assert "first" in text and "second" in text and "Ada → everyone" in text
    assert "2 new messages" in mail.subject
    assert _talk_mail("ada@example.org") == []  # never your own messages
    talk.post_message(gid, 0, ada, "third", to=talk.ALL, now=t0 + 4 * M)
    talk.post_message(gid, 0, ada, "fourth", to=[1], now=t0 + 5 * M)
    talk_mail.send_due(now=t0 + 10 * M)
    assert len(_talk_mail("bo@example.org")) == 1  # the quarter hour since the last is not over
    talk_mail.send_due(now=t0 + 18 * M + dt.timedelta(seconds=1))
    mails = _talk_mail("bo@example.org")
    assert len(mails) == 2
    second = body_text(mails[1])
    assert "third" in second and "fourth" in second and "first" not in second
    cy = _talk_mail("cy@example.org")
    assert all("fourth" not in body_text(m) for m in cy)  # private to Bo
    assert parsed(mails[1])["Reply-To"] and ".4.talk." in parsed(mails[1])["Message-ID"]
    del bo


def test_what_the_player_saw_on_the_page_is_not_mailed(app, t0):
    gid = new_tally(t0)
    ada, bo = _player("ada@example.org").id, _player("bo@example.org").id
    talk.post_message(gid, 0, ada, "seen on the page", to=talk.ALL, now=t0)
    lines = messages_for(game(gid), 1, bo)
    mark_seen(game(gid), 1, bo, lines[-1].id)
    talk_mail.send_due(now=t0 + 5 * M)
    assert _talk_mail("bo@example.org") == []
    assert len(_talk_mail("cy@example.org")) == 1


def test_the_talk_mail_choice_every_digest_none(app, t0):
    gid = new_tally(t0)
    ada = _player("ada@example.org").id
    _player("bo@example.org").talk_mail = "digest"
    _player("cy@example.org").talk_mail = "none"
    db.session.commit()
    talk.post_message(gid, 0, ada, "to the digest", to=talk.ALL, now=t0)
    talk_mail.send_due(now=t0 + 5 * M)
    [held] = _talk_mail("bo@example.org")
    assert held.status == "held"
    assert _talk_mail("cy@example.org") == []


def test_a_muted_seat_and_a_hidden_message_are_not_mailed(app, t0):
    from pbem.service.play import talk_moderation

    gid = new_tally(t0)
    ada, bo = _player("ada@example.org").id, _player("bo@example.org").id
    talk_moderation.mute(gid, 2, _player("cy@example.org").id, 1)
    talk.post_message(gid, 1, bo, "from Bo", to=talk.ALL, now=t0)
    m = talk.post_message(gid, 0, ada, "rude", to=talk.ALL, now=t0)
    talk_moderation.hide_message(gid, m.id, by_player_id=ada, now=t0)
    talk_mail.send_due(now=t0 + 5 * M)
    assert _talk_mail("cy@example.org") == []
    [to_ada] = _talk_mail("ada@example.org")
    assert "from Bo" in body_text(to_ada) and "rude" not in body_text(to_ada)


def test_the_message_mail_speaks_the_readers_language(app, t0):
    gid = new_tally(t0)
    for email, lang in (("bo@example.org", "fi"), ("cy@example.org", "de")):
        _player(email).language = lang
    db.session.commit()
    talk.post_message(gid, 0, _player("ada@example.org").id, "Hei!", to=talk.ALL, now=t0)
    talk_mail.send_due(now=t0 + 5 * M)
    assert "uusi viesti" in _talk_mail("bo@example.org")[0].subject
    assert "neue Nachricht" in _talk_mail("cy@example.org")[0].subject
