"""The log line of a missed deadline quotes the default orders in each
reader's words and quotation marks (the German and Czech native reads:
„…“, Finnish ”…”), not in pbem's canonical English command language."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.engine import get_game
from pbem.i18n import event_text
from pbem.service.core.db import db
from pbem.service.core.models import GameEvent
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import create_game, join_game

from .helpers import PLAYERS, game

MARKS = {"en": ("\u201c", "\u201d"), "fi": ("\u201d", "\u201d"), "cs": ("\u201e", "\u201c"),
         "de": ("\u201e", "\u201c"), "ca": ("\u201c", "\u201d")}


@pytest.mark.parametrize("kind", ["lacitta", "medina"])
def test_the_missed_line_quotes_the_default_in_each_readers_words(app, t0, kind):
    engine = get_game(kind)
    gid = create_game(kind, PLAYERS[0][1], PLAYERS[:3], seed=5, now=t0).id
    for i in (1, 2):
        join_game(gid, i, now=t0)
    before = engine.state_from_json(game(gid).state)
    seat = before.current_seats()[0]
    default = before.default_action(seat)
    assert scan(now=game(gid).deadline_at).expired == [gid]
    line = db.session.execute(select(GameEvent).where(GameEvent.game_id == gid,
                                                      GameEvent.kind == "missed")).scalars().one()
    for lang, (left, right) in MARKS.items():
        said = event_text(line.text, line.data, lang)
        assert f"{left}{engine.order_text(default, lang)}{right}" in said, (lang, said)
    # the stored data keeps the canonical order for the machine (records, replays)
    assert line.data["orders"][0] == default.to_text()


def test_an_order_word_differs_in_some_language_so_the_test_can_fail():
    """At least one game's first default order is written differently in
    some language, so the test above checks the words, not only the marks."""
    differs = False
    for kind in ("lacitta", "medina"):
        engine = get_game(kind)
        state = engine.new_state(3, 5)
        action = state.default_action(state.current_seats()[0])
        differs |= any(engine.order_text(action, lang) != action.to_text() for lang in ("fi", "cs", "ca", "de"))
    assert differs
