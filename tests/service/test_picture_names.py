"""Mailed board pictures name the players as the pages do, in the
recipient's language (issue #14 leftovers, issue #16 "Board pictures")."""
from __future__ import annotations

import json
import re
from email import message_from_bytes, policy

import pytest
from sqlalchemy import select

from pbem.boards import picture_key, render_svg
from pbem.engine import get_game
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.play.lifecycle import create_game, join_game, pause_game
from pbem.service.post import pictures

from .helpers import PLAYERS, game, outbox, parsed, raw_of

SEAT_WORD = re.compile(r"\bseat \d", re.I)


def _start(kind: str, t0, options=None) -> int:
    gid = create_game(kind, PLAYERS[0][1], PLAYERS, seed=3, now=t0, options=options or {}).id
    db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one().language = "cs"
    db.session.commit()
    for i in (1, 2):
        join_game(gid, i, now=t0)
    return gid


def _specs(row) -> list[dict]:
    """The board placeholders of a queued notice, as JSON."""
    msg = message_from_bytes(raw_of(row), policy=policy.default)
    return [json.loads(p.get_payload(decode=True)[len(pictures.MARK):]) for p in msg.walk()
            if p.get_content_type() == "image/png" and p.get_payload(decode=True).startswith(pictures.MARK)]


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


@pytest.mark.parametrize("kind, options", [("lacitta", {"setup": "beginner"}), ("medina", {}), ("diestadt", {})])
def test_the_turn_notice_picture_names_the_players_not_seat_numbers(app, t0, kind, options):
    gid = _start(kind, t0, options)
    state = get_game(kind).state_from_json(game(gid).state)
    [seat] = state.current_seats()[:1]
    row = [r for r in outbox(kind="turn") if r.seat_index == seat][-1]
    specs = _specs(row)
    assert specs, "the turn notice carries a board picture"
    for spec in specs:
        drawn = " | ".join(_texts(render_svg(spec["game"], spec["view"], highlight=spec["highlight"],
                                             lang=spec["lang"])))
        if "closeup" in spec:
            continue
        for name, _ in PLAYERS:
            assert name in drawn, f"{name} missing from the {kind} picture: {drawn[:300]}"
        assert not SEAT_WORD.search(drawn), drawn
    images = [p for p in parsed(row).walk() if p.get_content_type() == "image/png"]
    assert images and all(p.get_content()[:8] == b"\x89PNG\r\n\x1a\n" for p in images)


def test_each_recipient_gets_the_picture_in_their_language_and_the_cache_tells_them_apart(app, t0):
    gid = _start("medina", t0)
    state = get_game("medina").state_from_json(game(gid).state)
    # a host notice goes to every seat: each placeholder says its reader's language
    pause_game(gid, now=t0)
    langs = {r.recipient: {s["lang"] for s in _specs(r)} for r in outbox(kind="paused")}
    assert langs == {"ada@example.org": {"en"}, "bo@example.org": {"cs"}, "cy@example.org": {"en"}}
    view = state.view(0)
    assert picture_key("medina", view, lang="en") != picture_key("medina", view, lang="cs")
    named = dict(view, players=[dict(p, name=f"P{p['seat']}") for p in view["players"]])
    assert picture_key("medina", view) != picture_key("medina", named)


def test_a_placeholder_written_before_languages_draws_english(app):
    state = get_game("medina").new_state(3, 1)
    data = pictures.placeholder("medina", state.view(0))
    spec = json.loads(data[len(pictures.MARK):])
    del spec["lang"]
    old = pictures.MARK + json.dumps(spec).encode()
    assert pictures.draw(old) == pictures.draw(data)
