"""Issue 25 end to end on the embedded defaults (real SMTP sink, mail
delivered after each commit, inbound mail through the pipeline): while
seats order by email replies and on the web, and a deadline passes, each
player's calendar feed (fetched over HTTP, read with recurring-ical-events)
always lists exactly the decisions they owe, the spectator page follows
the game, and a seat's record holds its own orders, by web and by mail."""
from __future__ import annotations

import json
import random
import re

import icalendar
import recurring_ical_events

from pbem.engine import get_game
from pbem.service.accounts.calendar_link import calendar_path, set_calendar
from pbem.service.core.db import db
from pbem.service.core.models import Game, PendingOrder, Player
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import SeatSpec, create_game
from pbem.service.play.spectators import set_watchable, spectator_path
from tests.playthrough import WebPlayer, email_order, live, mails_to, tag_of, text_of  # noqa: F401

PEOPLE = [("Alice", "alice@example.com", "Europe/Helsinki"), ("Bruno", "bruno@example.com", "Europe/Prague"),
          ("Carla", "carla@example.com", "America/New_York")]


def _uids(client, path: str) -> set[str]:
    resp = client.get(path)
    assert resp.status_code == 200
    cal = icalendar.Calendar.from_ical(resp.data)
    return {str(e["UID"]) for e in recurring_ical_events.of(cal).between((2000, 1, 1), (2100, 1, 1))}


def test_feeds_spectators_and_records_follow_a_game_played_by_mail_and_web(live):
    app, sink = live
    box = app.config["MAIL_SINK_DIR"]
    engine = get_game("lacitta")
    with app.app_context():
        gid = create_game("lacitta", PEOPLE[0][1], [SeatSpec(e, n, tz) for n, e, tz in PEOPLE], seed=25).id
    browsers = [WebPlayer(app) for _ in PEOPLE]
    for seat in (1, 2):
        invite = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "invite"][0]
        browsers[seat].join(browsers[seat].sign_in(re.search(r"https?://\S+/signin/\S+", text_of(invite))[0]))
    with app.app_context():
        feeds = [calendar_path(set_calendar(db.session.execute(db.select(Player.id).where(
            Player.email == e)).scalar_one(), "on")) for _n, e, _tz in PEOPLE]
        watch = spectator_path(set_watchable(gid, "on"))
    outsider = app.test_client()
    rng = random.Random(25)
    mine = {0: [], 1: [], 2: []}
    for decision in range(10):
        with app.app_context():
            g = db.session.get(Game, gid)
            state = engine.state_from_json(g.state)
            sent = set(db.session.execute(db.select(PendingOrder.seat_index).where(
                PendingOrder.game_id == gid, PendingOrder.step == g.step)).scalars())
            step = g.step
            deadline = g.deadline_at
        owing = [s for s in state.current_seats() if s not in sent]
        for seat in range(3):                              # the feeds list exactly what each owes
            want = {f"pbem-{gid}-{step}-{seat + 1}@pbem.test"} if seat in owing else set()
            assert _uids(outsider, feeds[seat]) == want, (decision, seat)
        page = outsider.get(watch).get_data(as_text=True)
        assert 'id="spectating"' in page and f"/games/{gid}/seat/" not in page
        if decision == 4:                                  # nobody orders: the deadline passes
            with app.app_context():
                assert scan(now=deadline).expired == [gid]
            continue
        for seat in owing:
            action = rng.choice(state.legal_actions(seat))
            if decision % 2:
                notice = [m for m in mails_to(box, PEOPLE[seat][1])
                          if tag_of(m) and tag_of(m)[3] == "turn" and tag_of(m)[2] == step][0]
                email_order(sink, notice, PEOPLE[seat][1], action.to_text())
            else:
                if not browsers[seat].signed_in:
                    notice = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "turn"][-1]
                    browsers[seat].sign_in(re.search(r"https?://\S+/signin/\S+", text_of(notice))[0])
                browsers[seat].order(gid, seat, action.to_text())
            mine[seat].append(action.to_text())
        with app.app_context():
            assert db.session.get(Game, gid).step > step, f"decision {decision} did not resolve"
    for seat, b in enumerate(browsers):
        if not b.signed_in:
            continue
        rec = json.loads(b.client.get(f"/games/{gid}/seat/{seat + 1}/record.json").data)
        orders = [m["order"] for m in rec["moves"] if m["source"] != "deadline"]
        assert orders == mine[seat] and "seed" not in rec
        assert {m["source"] for m in rec["moves"]} <= {"web", "email", "deadline"}
    assert any(mine.values())
