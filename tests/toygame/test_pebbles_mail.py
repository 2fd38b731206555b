"""Pebbles by mail, through the service: the seat to move gets a turn
notice with the position, the legal orders and the order help (laid out in
rows), in the frame of the reader's language and, lacking translations,
the game's own English; a reply with an order is applied."""
from __future__ import annotations

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.inbound import handle_inbound
from pbem.service.play.lifecycle import create_game, join_game
from tests.service.helpers import body_text, game, outbox, parsed
from tests.service.test_inbound import reply_to_notice

PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org")]


def _new_pebbles() -> int:
    gid = create_game("pebbles", PLAYERS[0][1], PLAYERS, seed=5).id
    join_game(gid, 1)
    return gid


def test_the_seat_to_move_gets_a_turn_notice_and_a_reply_plays_it(app):
    gid = _new_pebbles()
    (notice,) = outbox(kind="turn")
    assert notice.recipient == "ada@example.org"
    text = body_text(notice)
    assert "12 pebbles left in the heap." in text
    assert all(f"take {n}" in text for n in (1, 2, 3))
    assert "  take 2    the top two pebbles" in text                # the help as written
    html = parsed(notice).get_body(("html",)).get_content()
    assert "the top two pebbles" in html
    result = handle_inbound(reply_to_notice(notice, "take 2"))
    assert result.result == "stored" and game(gid).step == 1
    assert [r.recipient for r in outbox(kind="turn")] == ["ada@example.org", "bo@example.org"]


def test_a_finnish_reader_gets_the_frame_in_finnish_and_pebbles_in_english(app):
    gid = _new_pebbles()
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    bo.language = "fi"
    db.session.commit()
    handle_inbound(reply_to_notice(outbox(kind="turn")[0], "take 3"))
    assert game(gid).step == 1
    notice = outbox(kind="turn", recipient="bo@example.org")[-1]
    text = body_text(notice)
    assert "Näin kirjoitat käskyt" in text                         # the mail's own words: Finnish
    assert "9 pebbles left in the heap." in text and "take 1" in text   # the game's: English
