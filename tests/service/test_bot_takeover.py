"""Taking over (issue 27 section 3, item 5): a seat that missed two
deadlines in a row gets a bot stand-in, until its person comes back by the
signed link in the mail, the game page's button, or an order of their own."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed
from pbem.service.core.models import GameEvent, Move
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders
from pbem.service.play.standin import come_back, seat_of_back_token

from tests.webapp import csrf_token

from .helpers import body_text, game, new_tally, outbox

H = dt.timedelta(hours=1)


@pytest.fixture(autouse=True)
def quick_bots(app):
    app.config["BOT_SECONDS"] = 0.05


def _miss_twice(t0, **kw) -> int:
    """Ada (seat 1) misses the deadline of her add, then of the bidding (Bo and Cy play)."""
    gid = new_tally(t0, **kw)
    assert scan(now=t0 + 49 * H).expired == [gid]            # Ada's add: the default
    for seat in (1, 2):
        g = game(gid)
        assert submit_orders(gid, seat, "add 1", expected_step=g.step, source="web", now=t0 + 50 * H).status == "stored"
    for seat in (1, 2):
        submit_orders(gid, seat, "bid 0", expected_step=game(gid).step, source="web", now=t0 + 51 * H)
    assert game(gid).phase == "Bidding"
    assert scan(now=t0 + 100 * H).expired == [gid]           # Ada's bid: the default, the second in a row
    return gid


def _moves(gid: int) -> list[tuple[int, str]]:
    db.session.commit()
    return [(m.seat_index, m.source) for m in db.session.execute(
        select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars()]


def test_two_missed_deadlines_in_a_row_bring_a_bot_that_plays_on(app, t0):
    gid = _miss_twice(t0)
    g = game(gid)
    assert g.seat(0).bot_standin and g.seat(0).bot is None
    # the bot made Ada's next decision (the add after the bidding) at once
    assert _moves(gid)[-1] == (0, "bot")
    kinds = [e.kind for e in db.session.execute(select(GameEvent).where(GameEvent.game_id == gid)).scalars()]
    assert "standin" in kinds


def test_one_miss_then_a_move_is_not_in_a_row(app, t0):
    gid = new_tally(t0)
    scan(now=t0 + 49 * H)
    for seat in (1, 2):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=t0 + 50 * H)
    submit_orders(gid, 0, "bid 0", expected_step=game(gid).step, source="web", now=t0 + 50 * H)
    submit_orders(gid, 1, "bid 0", expected_step=game(gid).step, source="web", now=t0 + 50 * H)
    scan(now=t0 + 100 * H)   # Cy's first miss; Ada's miss before was not followed by another
    g = game(gid)
    assert not any(s.bot_standin for s in g.seats)


def test_no_take_over_when_the_host_said_no(app, t0):
    gid = _miss_twice(t0, bot_takeover=False)
    assert not game(gid).seat(0).bot_standin
    assert (0, "bot") not in _moves(gid)


def test_the_mail_link_brings_the_person_back(app, t0):
    gid = _miss_twice(t0)
    missed = [r for r in outbox(kind="missed", game_id=gid) if r.recipient == "ada@example.org"]
    body = body_text(missed[-1])
    assert "A bot plays for you from now on" in body
    url = re.search(r"http://pbem\.test(/back/\S+)", body).group(1)
    token = url.rsplit("/", 1)[1]
    assert seat_of_back_token(token).index == 0
    assert seat_of_back_token(token[:-2] + "xx") is None
    client = app.test_client()
    page = client.get(url)
    assert page.status_code == 200 and 'id="back"' in page.get_data(as_text=True)
    assert game(gid).seat(0).bot_standin                     # opening the link changed nothing
    assert client.post(url).status_code == 400                # no form token: refused
    assert client.post(url, data={"csrf_token": csrf_token(client, url)}).status_code == 302
    assert not game(gid).seat(0).bot_standin
    kinds = [e.kind for e in db.session.execute(select(GameEvent).where(GameEvent.game_id == gid)).scalars()]
    assert kinds[-1] == "back" or "back" in kinds


def test_coming_back_is_the_seats_own_and_harmless_twice(app, t0):
    gid = _miss_twice(t0)
    bo = game(gid).seat(1).player_id
    with pytest.raises(NotAllowed):
        come_back(gid, 0, player_id=bo)
    ada = game(gid).seat(0).player_id
    assert come_back(gid, 0, player_id=ada) is True
    assert come_back(gid, 0, player_id=ada) is False


def test_an_order_of_the_persons_own_ends_the_stand_in(app, t0, monkeypatch):
    from pbem.service.core import queue

    real = queue.enqueue
    monkeypatch.setattr(queue, "enqueue", lambda name, *a: None if name == queue.BOTS else real(name, *a))
    gid = _miss_twice(t0)
    g = game(gid)
    assert g.seat(0).bot_standin and g.phase == "Seat 1 to add"
    assert submit_orders(gid, 0, "add 2", expected_step=g.step, source="email", now=t0 + 101 * H).status == "stored"
    assert not game(gid).seat(0).bot_standin


def test_away_past_the_cap_with_a_bot_chosen_brings_the_bot_at_the_first_miss(app, t0):
    from pbem.service.play.absences import declare

    gid = new_tally(t0, absence_cap_days=0, bot_takeover=False)
    ada = game(gid).seat(0).player_id
    declare(ada, t0 + 1 * H, t0 + 24 * 10 * H, bot_after_cap=True, now=t0)
    assert game(gid).deadline_at == t0 + 48 * H          # the cap (0 days) moved nothing
    assert scan(now=t0 + 49 * H).expired == [gid]
    g = game(gid)
    assert g.seat(0).bot_standin
    lines = [e.text for e in db.session.execute(select(GameEvent).where(GameEvent.game_id == gid,
                                                                         GameEvent.kind == "standin")).scalars()]
    assert lines and "away past the game's absence limit" in lines[0]


def test_away_without_the_bot_chosen_gets_the_default_order(app, t0):
    from pbem.service.play.absences import declare

    gid = new_tally(t0, absence_cap_days=0, bot_takeover=False)
    declare(game(gid).seat(0).player_id, t0 + 1 * H, t0 + 24 * 10 * H, now=t0)
    scan(now=t0 + 49 * H)
    assert not game(gid).seat(0).bot_standin and _moves(gid)[0] == (0, "deadline")


def test_a_bots_order_after_its_person_came_back_is_refused(app, t0, monkeypatch):
    from pbem.service.core import queue

    real = queue.enqueue
    monkeypatch.setattr(queue, "enqueue", lambda name, *a: None if name == queue.BOTS else real(name, *a))
    gid = _miss_twice(t0)
    g = game(gid)
    step, ada = g.step, g.seat(0).player_id
    assert come_back(gid, 0, player_id=ada)
    late = submit_orders(gid, 0, "add 1", expected_step=step, source="bot", now=t0 + 101 * H)
    assert late.status == "refused" and game(gid).step == step


def test_a_seat_a_bot_plays_for_its_person_is_sent_no_turn_notice(app, t0):
    gid = _miss_twice(t0)
    since = db.session.execute(select(GameEvent.step).where(GameEvent.game_id == gid,
                                                            GameEvent.kind == "standin")).scalar_one()
    bot_moves = [step for seat, step in db.session.execute(select(Move.seat_index, Move.step).where(
        Move.game_id == gid, Move.source == "bot"))]
    assert bot_moves   # the bot made a decision of Ada's: one she was not asked for
    asked = [r.step for r in outbox(kind="turn", game_id=gid) if r.recipient == "ada@example.org"]
    assert asked and max(asked) < since
