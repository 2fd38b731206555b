"""Board pictures drawn at outbox delivery (pbem.service.post.pictures)."""
from __future__ import annotations

import json
from email import message_from_bytes, policy

import pytest

from pbem.boards import render_svg
from pbem.engine import get_game
from pbem.mail import compose
from pbem.mail.flowed import plain_text
from pbem.service.post import pictures


def _notice(board_png: bytes | None) -> bytes:
    env = compose.Envelope(sender="pbem <pbem@pbem.test>", to_name="Ada", to_address="ada@example.org",
                           inbound_address="play@pbem.test", timezone="UTC", msgid_tag="t")
    turn = compose.Turn(phase="round 1", seat="seat 1", deadline=None, order_url="http://pbem.test/x",
                        private_info="Gold: 5", since_last=[], legal_orders=["pass"], order_help="",
                        examples=["pass"], board_png=board_png, board_alt="The board")
    return compose.turn_notice(env, compose.GameRef("La Città", 1, "http://pbem.test/games/1"), turn).as_bytes()


def _lacitta_view():
    state = get_game("lacitta").new_state(3, 5)
    sites = sorted({a.site for a in state.legal_actions(0) if a.site})
    return state.view(0), sites


def test_placeholder_becomes_the_png_of_that_view_with_the_same_content_id():
    view, sites = _lacitta_view()
    raw = _notice(pictures.placeholder("lacitta", view, sites))
    assert pictures.has_placeholder(raw)
    sent = pictures.materialize(raw)
    assert not pictures.has_placeholder(sent)
    msg = message_from_bytes(sent, policy=policy.default)
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0].get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"cid:{images[0]['Content-ID'].strip('<>')}" in msg.get_body(("html",)).get_content()
    before = message_from_bytes(raw, policy=policy.default)
    assert plain_text(msg) == plain_text(before)
    assert msg["Message-ID"] == before["Message-ID"]


def test_crlf_line_ends_of_the_outbox_stay_crlf():
    view, sites = _lacitta_view()
    raw = _notice(pictures.placeholder("lacitta", view, sites)).replace(b"\n", b"\r\n")
    sent = pictures.materialize(raw)
    assert sent.count(b"\n") == sent.count(b"\r\n") > 100


def test_the_view_survives_the_json_round_trip_picture_for_picture():
    view, sites = _lacitta_view()
    data = pictures.placeholder("lacitta", view, sites)
    spec = json.loads(data[len(pictures.MARK):])
    assert render_svg(spec["game"], spec["view"], highlight=spec["highlight"]) == \
        render_svg("lacitta", view, highlight=sites)


def test_a_message_without_placeholder_is_left_byte_for_byte():
    raw = _notice(b"\x89PNG\r\n\x1a\nnot really")
    assert pictures.materialize(raw) is raw


def test_a_picture_that_cannot_be_drawn_is_dropped_and_the_mail_still_goes(caplog):
    raw = _notice(pictures.MARK + b'{"game": "lacitta", cut short')
    msg = message_from_bytes(pictures.materialize(raw), policy=policy.default)
    assert [p for p in msg.walk() if p.get_content_type() == "image/png"] == []
    assert "Gold: 5" in plain_text(msg)
    assert "could not be drawn" in caplog.text


def test_a_game_without_board_picture_gets_no_placeholder():
    with pytest.raises(KeyError):
        pictures.placeholder("no_such_game", {}, [])


def test_closeup_placeholder_becomes_the_phone_sized_closeup_beside_the_board():
    from pbem.boards import closeup
    from pbem.service.post import content

    state = get_game("medina").new_state(3, 5)
    for _ in range(6):
        seat = state.current_seats()[0]
        state.apply(seat, sorted(state.legal_actions(seat), key=lambda a: a.to_text())[0])
    seat = state.current_seats()[0]
    view = state.view(seat)
    sites = sorted({a.site for a in state.legal_actions(seat) if a.site})

    class G:                                   # what content.closeup_png reads of a game
        kind, id, seats = "medina", 1, ()
    near, alt = content.closeup_png(G, view, sites)
    assert near is not None and alt.startswith("Close-up of the board around your legal sites ")
    box, shown = closeup.window(render_svg("medina", view, highlight=sites), sites)
    assert alt.endswith(", ".join(shown))
    env = compose.Envelope(sender="pbem <pbem@pbem.test>", to_name="Ada", to_address="ada@example.org",
                           inbound_address="play@pbem.test", timezone="UTC", msgid_tag="t")
    turn = compose.Turn(phase="turn 4", seat="seat 1", deadline=None, order_url="http://pbem.test/x",
                        legal_orders=["pass"], board_png=pictures.placeholder("medina", view, sites),
                        board_alt="The board", closeup_png=near, closeup_alt=alt)
    raw = compose.turn_notice(env, compose.GameRef("Medina", 1, "http://pbem.test/games/1"), turn).as_bytes()
    msg = message_from_bytes(pictures.materialize(raw), policy=policy.default)
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert [p.get_filename() for p in images] == ["board.png", "closeup.png"]
    want = closeup.render_png("medina", view, box, highlight=sites)
    assert images[1].get_content() == want and images[0].get_content() != want


def test_no_closeup_when_there_are_no_legal_sites():
    from pbem.service.post import content

    class G:
        kind, id, seats = "medina", 1, ()
    assert content.closeup_png(G, _lacitta_view()[0], []) == (None, "")
