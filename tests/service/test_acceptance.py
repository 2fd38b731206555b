"""Acceptance (issue 3): a complete three-seat La Città game on the embedded
defaults, from creation to final scores.

Every order arrives either as an HTTP form post to the order page (signed in
from the emailed link) or as an RFC 5322 email answering the turn notice,
sent over SMTP to the local sink, which hands it to the inbound pipeline.
One deadline expires on the way (injected clock). Then: the final scores
are the engine's, every seat got each notice it should and no other, no
email carries another seat's private events, and the notices carry the
board picture.
"""
from __future__ import annotations

import random
import re

import pytest
from sqlalchemy import select

from pbem.engine import get_game
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, Move, OutboxMessage
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import SeatSpec, create_game
from pbem.service.play.replay import state_at, verify
from tests.playthrough import (  # noqa: F401  (live is a fixture; shared with the Medina acceptance test)
    WebPlayer, email_order, live, mails_to, tag_of, text_of,
)

pytestmark = pytest.mark.slow

PEOPLE = [("Alice", "alice@example.com", "Europe/Helsinki"),
          ("Bruno", "bruno@example.com", "Europe/Rome"),
          ("Carla", "carla@example.com", "America/New_York")]


def test_three_seat_la_citta_by_web_and_email_with_a_missed_deadline(live):
    app, sink = live
    box = app.config["MAIL_SINK_DIR"]
    engine = get_game("lacitta")
    with app.app_context():
        gid = create_game("lacitta", PEOPLE[0][1], [SeatSpec(e, n, tz) for n, e, tz in PEOPLE],
                          seed=2026).id
    # Bruno and Carla sign in from their invitation emails and join on the page
    browsers = {0: WebPlayer(app), 1: WebPlayer(app), 2: WebPlayer(app)}
    for seat in (1, 2):
        invite = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "invite"]
        assert len(invite) == 1
        link = re.search(r"https?://\S+/signin/\S+", text_of(invite[0]))[0]
        browsers[seat].join(browsers[seat].sign_in(link))

    def current():
        with app.app_context():
            g = db.session.get(Game, gid)
            db.session.expunge(g)
            return g

    assert current().status == "active"
    rng = random.Random(7)
    decisions = web_orders = mail_orders = 0
    expired_step = None
    while (g := current()).status != "finished":
        state = engine.state_from_json(g.state)
        decisions += 1
        assert decisions < 2000, "the game does not end"
        if expired_step is None and decisions == 6:
            expired_step = g.step
            with app.app_context():
                assert scan(now=g.deadline_at).expired == [gid]
            continue
        for seat in state.current_seats():
            action = rng.choice(state.legal_actions(seat))
            if decisions % 2 == 0:
                if not browsers[seat].signed_in:
                    notice = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "turn"][-1]
                    browsers[seat].sign_in(re.search(r"https?://\S+/signin/\S+", text_of(notice))[0])
                browsers[seat].order(gid, seat, action.to_text())
                web_orders += 1
            else:
                notices = [m for m in mails_to(box, PEOPLE[seat][1])
                           if tag_of(m) and tag_of(m)[3] == "turn" and tag_of(m)[2] == g.step]
                assert len(notices) == 1, (f"seat {seat + 1} has no turn notice for step {g.step}", [tag_of(m) for m in mails_to(box, PEOPLE[seat][1])])
                email_order(sink, notices[0], PEOPLE[seat][1], action.to_text())
                mail_orders += 1
        # every order the state waited for is in: the turn resolved at once
        assert current().step > g.step, f"decision at step {g.step} did not resolve"

    print(f"{decisions} decisions: {web_orders} orders by web, {mail_orders} by email")
    assert web_orders > 10 and mail_orders > 10 and expired_step is not None
    with app.app_context():
        check_outcome(app, gid, engine, mail_orders)


def check_outcome(app, gid, engine, mail_orders):
    box = app.config["MAIL_SINK_DIR"]
    g = db.session.get(Game, gid)
    final = state_at(gid)
    assert final.is_terminal() and verify(gid)

    # what each seat should have been told: a turn notice at every decision it owed
    expected_turns = set()
    views = {}  # (step, seat) -> the seat's private view as text at that turn
    replay = engine.new_state(3, g.seed, **g.options)
    moves = db.session.execute(select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars().all()
    i = 0
    while not replay.is_terminal():
        current = replay.current_seats()
        for seat in current:
            expected_turns.add((replay.step, seat))
            views[(replay.step, seat)] = engine.view_text(replay.view(seat))
        for _ in current:
            m = moves[i]
            i += 1
            action = (replay.default_action(m.seat_index) if m.source == "deadline"
                      else engine.parse_action(replay, m.seat_index, m.text))
            replay.apply(m.seat_index, action)
    assert i == len(moves)
    assert any(m.source == "web" for m in moves) and any(m.source == "email" for m in moves)
    assert any(m.source == "deadline" for m in moves)

    private = db.session.execute(select(GameEvent).where(GameEvent.game_id == gid,
                                                         GameEvent.seat_index.is_not(None))).scalars().all()
    scores = {s.seat: s for s in final.scores()}
    for seat, (name, address, _tz) in enumerate(PEOPLE):
        got = mails_to(box, address)
        assert all(m["To"].addresses[0].addr_spec == address for m in got)
        tags = [tag_of(m) for m in got]
        turns = {(t[2], t[1]) for t in tags if t and t[3] == "turn"}
        assert turns == {x for x in expected_turns if x[1] == seat}
        # each turn notice carries the seat's own view of that moment
        for m, t in zip(got, tags):
            if t and t[3] == "turn":
                text = text_of(m)
                for line in views[(t[2], t[1])].splitlines():
                    assert line.strip() in text, (name, t, line)
        assert all(t[1] == seat for t in tags if t and t[0] == gid)
        # the missed deadline: everyone was told
        assert [t for t in tags if t and t[3] == "missed"], f"{name} was not told of the missed turn"
        over = [m for m, t in zip(got, tags) if t and t[3] == "over"]
        assert len(over) == 1
        body = text_of(over[0])
        for s, sc in scores.items():
            assert f"{PEOPLE[s][0]} (seat {s + 1})" in body and str(sc.points) in body
        # the board picture travels inline with every turn notice and the final scores
        for m, t in zip(got, tags):
            if t and t[3] in ("turn", "over"):
                pngs = [p for p in m.walk() if p.get_content_type() == "image/png"]
                # the board, and on a turn with legal sites the close-up for phones under it
                assert [p.get_filename() for p in pngs][:1] == ["board.png"] and len(pngs) <= 2
                assert all(p.get_content()[:4] == b"\x89PNG" for p in pngs)
                assert len(pngs) == 1 or t[3] == "turn"
        # no other seat's private events
        own = {e.text for e in private if e.seat_index == seat}
        others = {e.text for e in private if e.seat_index != seat} - own
        for m in got:
            text = text_of(m)
            for line in others:
                assert line not in text, f"{name} saw another seat's private event {line!r}"
    # every emailed order was answered once; every mail went out
    answers = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.kind.in_(["confirmation", "refusal"]))).scalars().all()
    assert len(answers) == mail_orders
    assert all(a.status == "sent" for a in db.session.execute(select(OutboxMessage)).scalars())
    assert sum(s.missed_turns for s in g.seats) >= 1
