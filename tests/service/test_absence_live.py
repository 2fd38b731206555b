"""Absences and the grace end to end (issue 25): the embedded service with
mail delivered over real SMTP to the local sink, an ``away`` line mailed
over SMTP through the sink into the inbound pipeline, the answer read back
from the sink, the other seats' page and turn mail saying "away until …",
and a missed deadline's grace mailed once, nothing contradicting it."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from pbem.service.core.absence_rows import Absence
from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.core.snapshot import engine_state
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import SeatSpec, create_game, join_game
from tests.playthrough import WebPlayer, email_order, live, mails_to, tag_of, text_of  # noqa: F401

pytestmark = pytest.mark.slow

PEOPLE = [("Alice", "alice@example.com", "Europe/Helsinki"),
          ("Bruno", "bruno@example.com", "Europe/Rome"),
          ("Carla", "carla@example.com", "America/New_York")]
MIN = dt.timedelta(minutes=1)


def _game(app, gid):
    with app.app_context():
        g = db.session.get(Game, gid)
        current = engine_state(g).current_seats()
        db.session.expunge(g)
        return g, current


def test_an_away_mail_moves_the_deadline_others_are_told_and_the_grace_is_told_once(live):
    app, sink = live
    box = app.config["MAIL_SINK_DIR"]
    with app.app_context():
        gid = create_game("lacitta", PEOPLE[0][1], [SeatSpec(e, n, tz) for n, e, tz in PEOPLE],
                          options={"setup": "beginner"}, seed=2026, grace_hours=24, absence_cap_days=14).id
        for seat in (1, 2):
            join_game(gid, seat)
    game, current = _game(app, gid)
    before = game.deadline_at
    # the seat to move mails an away line, in Czech words, answering its turn mail
    away_seat = current[0]
    person = PEOPLE[away_seat]
    turn = [m for m in mails_to(box, person[1]) if (tag_of(m) or (0,))[-1] == "turn"][-1]
    today = dt.datetime.now(dt.timezone.utc).date()
    first, last = today - dt.timedelta(days=1), today + dt.timedelta(days=4)
    email_order(sink, turn, person[1], f"pryč {first:%d.%m.%Y} do {last:%d.%m.%Y}")
    answers = [m for m in mails_to(box, person[1]) if "absence is recorded" in str(m["Subject"])]
    assert len(answers) == 1, [str(m["Subject"]) for m in mails_to(box, person[1])]
    assert answers[0]["In-Reply-To"] and f"pryč {first:%d.%m.%Y} do {last:%d.%m.%Y}" in text_of(answers[0])
    with app.app_context():
        row = db.session.execute(select(Absence)).scalar_one()
        assert row.game_id is None
    game, _ = _game(app, gid)
    assert game.deadline_at > before and game.deadline_base_at == before
    # the other seats see "away until" on the game page (a browser signed in from its mail)
    other = next(i for i in range(3) if i != away_seat)
    invite_or_turn = mails_to(box, PEOPLE[other][1])[-1]
    link = re.search(r"https?://\S+/signin/\S+", text_of(invite_or_turn))[0]
    browser = WebPlayer(app)
    browser.sign_in(link)
    page = browser.client.get(f"/games/{gid}").get_data(as_text=True)
    assert f"{person[0]}" in page and "away until" in page
    # the moved deadline passes: the late seats' grace, told once, then nothing within minutes
    game, current = _game(app, gid)
    with app.app_context():
        scan(now=game.deadline_at)
        for minute in range(1, 16):
            scan(now=game.deadline_at + minute * MIN)
    game2, _ = _game(app, gid)
    assert game2.step == game.step and game2.deadline_at == game.deadline_at + dt.timedelta(hours=24)
    for seat in current:
        mails = mails_to(box, PEOPLE[seat][1])
        graces = [m for m in mails if "of grace" in str(m["Subject"])]
        assert len(graces) == 1, [str(m["Subject"]) for m in mails]
        assert not [m for m in mails if (tag_of(m) or (0,))[-1] == "missed"]


def test_the_away_answer_goes_out_through_the_real_worker(live):
    """Not eager: the inbound pipeline enqueues delivery on the broker and
    the Celery worker (in-process, SQLite broker) sends the answer over SMTP."""
    import time

    from pbem.service.embedded import EmbeddedWorker

    app, sink = live
    box = app.config["MAIL_SINK_DIR"]
    app.extensions["celery"].conf.task_always_eager = False
    with app.app_context():
        gid = create_game("lacitta", PEOPLE[0][1], [SeatSpec(e, n, tz) for n, e, tz in PEOPLE],
                          options={"setup": "beginner"}, seed=7).id
        for seat in (1, 2):
            join_game(gid, seat)
    _, current = _game(app, gid)
    who = PEOPLE[current[0]][1]

    def turn_mails():
        return [m for m in mails_to(box, who) if (tag_of(m) or (0,))[-1] == "turn"]

    with EmbeddedWorker(app, beat=False):
        end = time.monotonic() + 30
        while time.monotonic() < end and not turn_mails():
            time.sleep(0.2)
        email_order(sink, turn_mails()[-1], who, "abwesend 01.01.2099 bis 03.01.2099")
        end = time.monotonic() + 30
        while time.monotonic() < end and not [m for m in mails_to(box, who) if "absence" in str(m["Subject"])]:
            time.sleep(0.2)
    answers = [m for m in mails_to(box, who) if "absence" in str(m["Subject"])]
    assert len(answers) == 1 and "your absence is recorded" in str(answers[0]["Subject"])
    assert "abwesend 01.01.2099 bis 03.01.2099" in text_of(answers[0])
    with app.app_context():
        row = db.session.execute(select(Absence)).scalar_one()
        from zoneinfo import ZoneInfo

        local = row.starts_at.astimezone(ZoneInfo(PEOPLE[current[0]][2]))   # read in the player's own zone
        assert (local.date(), local.hour, row.game_id) == (dt.date(2099, 1, 1), 0, None)
