"""Table talk by mail (issue 26): a reply to a message notice is a message
to the same people, its quote removed; a ``to:`` line in a reply to a turn
notice sends the rest as a message, the orders above it are applied, and
each gets its own answer; the ``to:`` word in every language; refusals are
answered with the text kept."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from pbem.mail.talk_reply import split
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.inbound import handle_inbound
from pbem.service.play import talk, talk_mail, talk_moderation
from pbem.service.play.talk_read import messages_for

from .helpers import body_text, compose_pending, game, new_tally, outbox
from .test_inbound import reply_to_notice

M = dt.timedelta(minutes=1)


def _pid(email: str) -> int:
    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def _bodies(gid, seat, email):
    return [m.body for m in messages_for(game(gid), seat, _pid(email))]


def _talk_notice(gid, t0, to_email):
    talk_mail.send_due(now=t0 + 5 * M)
    return outbox(kind="talk", recipient=to_email)[-1]


def test_a_reply_to_a_message_notice_is_a_message_to_the_same_people(app, t0):
    gid = new_tally(t0)
    talk.post_message(gid, 0, _pid("ada@example.org"), "Bo, shall we share the river?", to=[1], now=t0)
    notice = _talk_notice(gid, t0, "bo@example.org")
    res = handle_inbound(reply_to_notice(notice, "Yes, the river is ours.\nSee you there."))
    assert res.result == "message"
    assert _bodies(gid, 0, "ada@example.org")[-1] == "Yes, the river is ours.\nSee you there."
    assert _bodies(gid, 2, "cy@example.org") == []  # a reply to a private message stays private
    [ans] = outbox(kind="talk_answer", recipient="bo@example.org")
    assert "Your message is sent to Ada." in body_text(ans)
    assert outbox(kind="confirmation") == [] and outbox(kind="refusal") == []


def test_a_reply_to_a_public_message_goes_to_everyone(app, t0):
    gid = new_tally(t0)
    talk.post_message(gid, 0, _pid("ada@example.org"), "Hello table", to=talk.ALL, now=t0)
    notice = _talk_notice(gid, t0, "cy@example.org")
    assert handle_inbound(reply_to_notice(notice, "Hello Ada")).result == "message"
    assert _bodies(gid, 1, "bo@example.org") == ["Hello table", "Hello Ada"]


@pytest.mark.parametrize("line", ["to: Bo", "TO: bo", "kenelle: Bo", "komu: Bo", "per a: Bo", "an: Bo",
                                  "to: seat 2", "to: 2"])
def test_a_to_line_in_a_reply_to_a_turn_notice_sends_the_rest_as_a_message(app, t0, line):
    gid = new_tally(t0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    res = handle_inbound(reply_to_notice(notice, f"Add 2\n{line}\nI added two, your move.\nCheers"))
    assert res.result == "stored"  # the orders above the to: line, applied
    assert game(gid).step == 1
    assert _bodies(gid, 1, "bo@example.org") == ["I added two, your move.\nCheers"]
    assert _bodies(gid, 2, "cy@example.org") == []
    assert len(outbox(kind="confirmation", recipient="ada@example.org")) == 1
    assert len(outbox(kind="talk_answer", recipient="ada@example.org")) == 1


@pytest.mark.parametrize("word", ["all", "kaikki", "všichni", "tots", "alle", "everyone"])
def test_to_all_in_every_language(app, t0, word):
    gid = new_tally(t0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    assert handle_inbound(reply_to_notice(notice, f"to: {word}\nHi all")).result == "message"
    assert _bodies(gid, 2, "cy@example.org") == ["Hi all"]
    assert game(gid).step == 0


def test_an_unknown_name_or_a_refused_message_is_answered_with_the_text(app, t0):
    gid = new_tally(t0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    assert handle_inbound(reply_to_notice(notice, "to: Bruno\nSecret plan")).result == "message"
    [ans] = outbox(kind="talk_answer", recipient="ada@example.org")
    text = body_text(ans)
    assert "No player of this game is called Bruno; the others are Bo, Cy." in text and "Secret plan" in text
    talk_moderation.set_talk(gid, "public", by_player_id=_pid("ada@example.org"))
    handle_inbound(reply_to_notice(notice, "to: Bo\nPsst"))
    assert "whole table only" in body_text(outbox(kind="talk_answer", recipient="ada@example.org")[-1])
    assert _bodies(gid, 1, "bo@example.org") == []


def test_a_replaced_player_cannot_answer_a_message_notice(app, t0):
    from pbem.service.play.replacement import replace_player

    gid = new_tally(t0)
    talk.post_message(gid, 0, _pid("ada@example.org"), "Bo?", to=[1], now=t0)
    notice = _talk_notice(gid, t0, "bo@example.org")
    replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=_pid("ada@example.org"), now=t0 + 6 * M)
    assert handle_inbound(reply_to_notice(notice, "I am still here")).result == "replaced"
    assert _bodies(gid, 0, "ada@example.org") == ["Bo?"]


def test_split_reads_the_first_to_line_only():
    t = split(["build farm F7", "", "to: Bruno and Carla", "Deal?", "to: not a second line"])
    assert t.before == ["build farm F7", ""] and t.names == ["Bruno", "Carla"] and not t.everyone
    assert t.message == "Deal?\nto: not a second line"
    assert split(["no line here", "tomorrow: maybe"]) is None
