"""Table talk (issue 26): who may write what, who may read it, the host's
setting, mutes, hidden messages and the rate limit."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed, ServiceError, WrongStatus
from pbem.service.core.models import Player
from pbem.service.core.talk_models import MAX_BODY
from pbem.service.play import talk, talk_moderation
from pbem.service.play.lifecycle import cancel_game
from pbem.service.play.replacement import replace_player
from pbem.service.play.talk_read import messages_for

from .helpers import game, new_tally

M = dt.timedelta(minutes=1)


def _pid(email: str) -> int:
    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def _bodies(gid, seat, email):
    return [line.body for line in messages_for(game(gid), seat, _pid(email))]


def test_a_private_message_reaches_only_its_recipients_and_author(app, t0):
    gid = new_tally(t0)
    ada, bo = _pid("ada@example.org"), _pid("bo@example.org")
    talk.post_message(gid, 0, ada, "Bo, take the market?", to=[1], now=t0)
    talk.post_message(gid, 1, bo, "Hello table", to=talk.ALL, now=t0 + M)
    assert _bodies(gid, 0, "ada@example.org") == ["Bo, take the market?", "Hello table"]
    assert _bodies(gid, 1, "bo@example.org") == ["Bo, take the market?", "Hello table"]
    assert _bodies(gid, 2, "cy@example.org") == ["Hello table"]
    # a player reads only the seat they hold
    assert messages_for(game(gid), 1, _pid("cy@example.org")) == []
    line = messages_for(game(gid), 0, ada)[0]
    assert line.to == (1,) and not line.to_all and line.mine


def test_choosing_every_other_seat_is_a_message_to_all(app, t0):
    gid = new_tally(t0)
    m = talk.post_message(gid, 0, _pid("ada@example.org"), "all of you", to=[1, 2], now=t0)
    assert m.to_all


def test_the_host_setting_public_refuses_private_messages_and_none_refuses_all(app, t0):
    gid = new_tally(t0)
    ada = _pid("ada@example.org")
    talk_moderation.set_talk(gid, "public", by_player_id=ada)
    with pytest.raises(ServiceError, match="whole table only"):
        talk.post_message(gid, 0, ada, "psst", to=[1], now=t0)
    talk.post_message(gid, 0, ada, "hi all", to=talk.ALL, now=t0)
    talk_moderation.set_talk(gid, "none", by_player_id=ada)
    with pytest.raises(ServiceError, match="turned table talk off"):
        talk.post_message(gid, 0, ada, "hi all", to=talk.ALL, now=t0)
    with pytest.raises(NotAllowed):
        talk_moderation.set_talk(gid, "full", by_player_id=_pid("bo@example.org"))
    with pytest.raises(ServiceError):
        talk_moderation.set_talk(gid, "shouting", by_player_id=ada)
    assert game(gid).talk == "none"


def test_refusals_store_nothing(app, t0):
    gid = new_tally(t0)
    ada = _pid("ada@example.org")
    with pytest.raises(NotAllowed):
        talk.post_message(gid, 1, ada, "as Bo", to=talk.ALL, now=t0)
    with pytest.raises(ServiceError, match="empty"):
        talk.post_message(gid, 0, ada, " \n\u200b ", to=talk.ALL, now=t0)
    with pytest.raises(ServiceError, match="at most 4000"):
        talk.post_message(gid, 0, ada, "x" * (MAX_BODY + 1), to=talk.ALL, now=t0)
    with pytest.raises(ServiceError, match="no such seat"):
        talk.post_message(gid, 0, ada, "hi", to=[7], now=t0)
    with pytest.raises(ServiceError, match="who the message is for"):
        talk.post_message(gid, 0, ada, "hi", to=[0], now=t0)
    assert messages_for(game(gid), 0, ada) == []
    talk.post_message(gid, 0, ada, "x" * MAX_BODY, to=talk.ALL, now=t0)  # exactly the most is fine


def test_a_message_is_plain_text_without_control_characters(app, t0):
    gid = new_tally(t0)
    ada = _pid("ada@example.org")
    talk.post_message(gid, 0, ada, "\r\nsee https://example.org/a?b=1\u202e\x07 <b>x</b>\r\n\r\n", to=talk.ALL, now=t0)
    assert _bodies(gid, 0, "ada@example.org") == ["see https://example.org/a?b=1 <b>x</b>"]


def test_writing_too_fast_is_refused(app, t0):
    app.config["TALK_RATE_LIMIT"] = "3 per minute"
    gid = new_tally(t0)
    ada = _pid("ada@example.org")
    for i in range(3):
        talk.post_message(gid, 0, ada, f"m{i}", to=talk.ALL, now=t0)
    with pytest.raises(ServiceError, match="faster than the table"):
        talk.post_message(gid, 0, ada, "m3", to=talk.ALL, now=t0)
    talk.post_message(gid, 1, _pid("bo@example.org"), "bo is not limited by ada", to=talk.ALL, now=t0)
    talk.post_message(gid, 0, ada, "a minute later", to=talk.ALL, now=t0 + 2 * M)
    assert len(_bodies(gid, 2, "cy@example.org")) == 5


def test_a_player_who_mutes_a_seat_stops_seeing_its_messages(app, t0):
    gid = new_tally(t0)
    ada, bo = _pid("ada@example.org"), _pid("bo@example.org")
    talk.post_message(gid, 1, bo, "spam", to=talk.ALL, now=t0)
    talk_moderation.mute(gid, 0, ada, 1)
    assert _bodies(gid, 0, "ada@example.org") == []
    assert _bodies(gid, 2, "cy@example.org") == ["spam"]
    with pytest.raises(ServiceError):
        talk_moderation.mute(gid, 0, ada, 0)
    talk_moderation.mute(gid, 0, ada, 1, on=False)
    assert _bodies(gid, 0, "ada@example.org") == ["spam"]


def test_the_host_hides_a_message_from_everyone(app, t0):
    gid = new_tally(t0)
    ada, bo = _pid("ada@example.org"), _pid("bo@example.org")
    m = talk.post_message(gid, 1, bo, "rude words", to=talk.ALL, now=t0)
    with pytest.raises(NotAllowed):
        talk_moderation.hide_message(gid, m.id, by_player_id=bo)
    talk_moderation.hide_message(gid, m.id, by_player_id=ada, now=t0)
    for seat, email in ((0, "ada@example.org"), (1, "bo@example.org"), (2, "cy@example.org")):
        [line] = messages_for(game(gid), seat, _pid(email))
        assert line.hidden and line.body == ""


def test_a_replaced_player_loses_the_seats_messages_and_the_newcomer_reads_from_then_on(app, t0):
    gid = new_tally(t0)
    ada, bo = _pid("ada@example.org"), _pid("bo@example.org")
    talk.post_message(gid, 0, ada, "before: secret to Bo", to=[1], now=t0)
    talk.post_message(gid, 0, ada, "before: to all", to=talk.ALL, now=t0)
    replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=ada, now=t0 + M)
    dee = _pid("dee@example.org")
    talk.post_message(gid, 0, ada, "after: secret to seat 2", to=[1], now=t0 + 2 * M)
    assert messages_for(game(gid), 1, bo) == []  # Bo no longer holds the seat
    with pytest.raises(NotAllowed):
        talk.post_message(gid, 1, bo, "still here?", to=talk.ALL, now=t0 + 3 * M)
    assert _bodies(gid, 1, "dee@example.org") == ["before: to all", "after: secret to seat 2"]
    talk.post_message(gid, 1, dee, "hello, I am new", to=[0], now=t0 + 3 * M)


def test_no_talk_once_the_game_is_over(app, t0):
    gid = new_tally(t0)
    ada = _pid("ada@example.org")
    cancel_game(gid, by_player_id=ada, now=t0)
    with pytest.raises(WrongStatus):
        talk.post_message(gid, 0, ada, "gg", to=talk.ALL, now=t0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(st.tuples(st.integers(0, 2), st.sets(st.integers(0, 2)), st.booleans()), max_size=8))
def test_invariant_a_seat_reads_only_what_was_written_to_it_or_by_it(app, t0, messages):
    """Property: whatever is written, seat ``s`` reads exactly the messages
    to all, from ``s``, or naming ``s``."""
    gid = new_tally(t0, seed=len(messages) + 1)
    ids = [_pid(e) for e in ("ada@example.org", "bo@example.org", "cy@example.org")]
    expected = {0: [], 1: [], 2: []}
    for n, (author, to, to_all) in enumerate(messages):
        to = set(to) - {author}
        if not to_all and not to:
            continue
        m = talk.post_message(gid, author, ids[author], f"m{n}", to=talk.ALL if to_all else sorted(to), now=t0)
        for s in range(3):
            if m.to_all or s == author or s in to:
                expected[s].append(f"m{n}")
    for s in range(3):
        assert [line.body for line in messages_for(game(gid), s, ids[s])] == expected[s]
