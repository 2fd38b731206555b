"""Every order a bot makes is marked as the bot's: in the game log, the
turn mail's "what happened" part, and the seat names (issue 27 section 3, item 4)."""
from __future__ import annotations

from sqlalchemy import select

from pbem.i18n import BOT_KEY, event_text
from pbem.i18n.bot_names import holder_name
from pbem.service.core.db import db
from pbem.service.core.models import GameEvent
from pbem.service.play.lifecycle import SeatSpec, create_game
from pbem.service.play.orders import submit_orders

from .helpers import body_text, outbox

ADA = "ada@example.org"


def _played(t0) -> int:
    gid = create_game("tally", ADA, [SeatSpec(ADA, "Ada"), SeatSpec(bot="random"), SeatSpec(bot="greedy")],
                      seed=7, now=t0).id
    assert submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0).resolved
    return gid


def test_the_log_line_of_a_bots_order_is_marked_and_a_persons_is_not(app, t0):
    gid = _played(t0)
    db.session.commit()
    adds = db.session.execute(select(GameEvent).where(GameEvent.game_id == gid, GameEvent.kind == "add")
                              .order_by(GameEvent.id)).scalars().all()
    assert [bool(e.data.get(BOT_KEY)) for e in adds] == [False, True, True]
    assert event_text(adds[1].text, adds[1].data, "en").endswith("(bot's order)")
    assert not event_text(adds[0].text, adds[0].data, "en").endswith("(bot's order)")


def test_the_turn_mail_tells_the_bots_orders_as_theirs(app, t0):
    gid = _played(t0)
    notices = [r for r in outbox(kind="turn", game_id=gid) if r.recipient == ADA and r.step and r.step > 0]
    assert notices
    body = body_text(notices[-1])
    assert "Random bot adds" in body and "(bot's order)" in body


def test_a_bots_seat_is_named_in_the_readers_language():
    assert holder_name("Ada", "standard", False, "en") == "Standard bot"
    assert holder_name("Ada", None, True, "en") == "Ada (played by a bot for now)"
    assert holder_name("Ada", None, False, "en") == "Ada"
    for lang in ("fi", "cs", "ca", "de"):
        assert holder_name("Ada", "greedy", False, lang) != "Greedy bot"
        assert "Ada" in holder_name("Ada", None, True, lang) != "Ada (played by a bot for now)"


def test_the_turn_mail_of_a_game_at_the_persons_pace_says_it_waits(app, t0):
    gid = _played(t0)
    notices = [r for r in outbox(kind="turn", game_id=gid) if r.recipient == ADA]
    body = body_text(notices[-1])
    assert "none: the game waits for you" in body and "paused" not in body
