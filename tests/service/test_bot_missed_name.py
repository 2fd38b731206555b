"""A bot's seat that misses a deadline (its run lost) is named in each
reader's words in the log line ("Perusbotti" in Finnish), not by its
player row's English name (issue 27)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from pbem.i18n import event_text, translate
from pbem.i18n.bot_names import BOT_WORDS
from pbem.service.core.db import db
from pbem.service.core.models import GameEvent
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders

from .helpers import game as game_row
from .test_bot_seats import new_bot_game, no_bot_task  # noqa: F401  (a fixture)


def test_a_bots_missed_deadline_names_it_in_each_readers_words(app, t0, no_bot_task):  # noqa: F811
    gid = new_bot_game(t0, bots=("standard", "random"), deadline_seconds=3600)
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)
    assert scan(now=game_row(gid).deadline_at + dt.timedelta(seconds=1)).expired == [gid]
    line = db.session.execute(select(GameEvent).where(GameEvent.game_id == gid,
                                                      GameEvent.kind == "missed")).scalars().first()
    for lang in ("en", "fi", "cs", "ca", "de"):
        name = translate(BOT_WORDS["standard"], lang)
        said = event_text(line.text, line.data, lang)
        assert said.startswith(name), (lang, said)
    assert translate(BOT_WORDS["standard"], "fi") != translate(BOT_WORDS["standard"], "en")
