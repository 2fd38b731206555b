"""Acceptance (issue 5): a four-seat Medina game played to final scores
through the service on the embedded defaults.

Each turn's two pieces arrive together: as one post of the order form (two
lines, signed in from the emailed link) or as one RFC 5322 email with two
order lines answering the turn notice, sent over SMTP to the local sink.
Deadlines expire on the way (injected clock): the seat's whole turn — both
pieces — is defaulted. Then: the final scores are the engine's, every seat
got each notice it should (the host pauses and resumes once on the way),
every notice carries the board PNG, and no seat's
mail, picture or page ever shows the pieces behind another seat's screen.
"""
from __future__ import annotations

import datetime as dt
import json
import random
import re

import pytest
from sqlalchemy import select

from pbem.engine import get_game
from pbem.service.core.db import db
from pbem.service.core.models import Game, Move, OutboxMessage, utcnow
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import SeatSpec, create_game, pause_game, resume_game
from pbem.service.play.replay import state_at, verify
from pbem.service.post import pictures
from tests.playthrough import (  # noqa: F401  (live is a fixture)
    WebPlayer, email_order, live, mails_to, tag_of, text_of,
)

pytestmark = pytest.mark.slow

PEOPLE = [("Alice", "alice@example.com", "Europe/Helsinki"),
          ("Bruno", "bruno@example.com", "Europe/Rome"),
          ("Carla", "carla@example.com", "America/New_York"),
          ("Dario", "dario@example.com", "Asia/Tokyo")]
SEAT_OF = {address: seat for seat, (_n, address, _tz) in enumerate(PEOPLE)}
#: turns (counted from 1, the start merchant) whose deadline passes with no orders
EXPIRE = {4, 23}
SCREEN = re.compile(r"Behind your screen: [^\r\n]*")
#: the turn before which the host pauses and resumes the game
PAUSE = 9
NOTICES = ("turn", "reminder", "missed", "over", "paused", "resumed")


def _screen_line(view: dict, seat: int) -> str:
    """The "Behind your screen" line of ``seat``'s own view text."""
    return SCREEN.search(get_game("medina").view_text(view)).group(0)


@pytest.fixture
def pictures_drawn(monkeypatch):
    """Every board picture drawn at delivery: (recipient, the view it was
    drawn from), read from the placeholder before the PNG replaces it."""
    drawn: list[tuple[str, dict]] = []
    original = pictures.materialize

    def spy(raw: bytes) -> bytes:
        from email import message_from_bytes, policy

        msg = message_from_bytes(raw, policy=policy.default)
        to = msg["To"].addresses[0].addr_spec
        for part in msg.walk():
            if part.get_content_type() == "image/png":
                data = part.get_payload(decode=True) or b""
                if data.startswith(pictures.MARK):
                    drawn.append((to, json.loads(data[len(pictures.MARK):])))
        return original(raw)

    monkeypatch.setattr(pictures, "materialize", spy)
    return drawn


def _turn_orders(state, seat: int, rng: random.Random) -> list[str]:
    """Random legal orders for every decision of ``seat``'s turn (two
    pieces; one for the start merchant or a short turn)."""
    trial, turn, out = state.copy(), state.turn_key(), []
    while seat in trial.current_seats() and trial.turn_key() == turn:
        action = rng.choice(trial.legal_actions(seat))
        out.append(action.to_text())
        trial.apply(seat, action)
    return out


def test_four_seat_medina_by_web_and_email_with_missed_deadlines(live, pictures_drawn):
    app, sink = live
    box = app.config["MAIL_SINK_DIR"]
    engine = get_game("medina")
    with app.app_context():
        gid = create_game("medina", PEOPLE[0][1], [SeatSpec(e, n, tz) for n, e, tz in PEOPLE],
                          seed=5150).id
    browsers = {seat: WebPlayer(app) for seat in range(4)}
    for seat in (1, 2, 3):
        invite = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "invite"]
        assert len(invite) == 1
        link = re.search(r"https?://\S+/signin/\S+", text_of(invite[0]))[0]
        browsers[seat].join(browsers[seat].sign_in(link))

    def current() -> Game:
        with app.app_context():
            g = db.session.get(Game, gid)
            db.session.expunge(g)
            return g

    assert current().status == "active"
    rng = random.Random(11)
    turns = web_orders = mail_orders = 0
    expected_turns: set[tuple[int, int]] = set()     # (step, seat) of every turn notice owed
    screens: dict[tuple[int, int], str] = {}         # (step, seat) -> that seat's own screen line
    expired: list[tuple[int, int]] = []              # (step, seat) of the turns defaulted
    page_checks = 0
    while (g := current()).status != "finished":
        state = engine.state_from_json(g.state)
        turns += 1
        assert turns < 400, "the game does not end"
        [seat] = state.current_seats()
        expected_turns.add((g.step, seat))
        screens[(g.step, seat)] = _screen_line(state.view(seat), seat)
        if turns == PAUSE:   # the host pauses and resumes: everyone is told once, with the board
            with app.app_context():
                pause_game(gid)
                resume_game(gid)
                # the coalesced notice waits HOST_NOTICE_DELAY_SECONDS for more host actions
                from pbem.service.post.delivery import deliver_due

                deliver_due(now=utcnow() + dt.timedelta(seconds=app.config.get("HOST_NOTICE_DELAY_SECONDS", 60) + 1))
            g = current()
        if turns in EXPIRE:
            expired.append((g.step, seat))
            with app.app_context():
                assert scan(now=g.deadline_at).expired == [gid]
            after = engine.state_from_json(current().state)
            # the whole turn was defaulted: the seat owes nothing more of it
            assert seat not in after.current_seats() or after.turn_key() != state.turn_key()
            continue
        lines = _turn_orders(state, seat, rng)
        text = "\n".join(lines)
        if turns % 2 == 0:
            player = browsers[seat]
            if not player.signed_in:
                notice = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "turn"][-1]
                player.sign_in(re.search(r"https?://\S+/signin/\S+", text_of(notice))[0])
            player.order(gid, seat, text)
            web_orders += 1
            if page_checks < 12:   # the seat's own pages show its own screen only
                page_checks += 1
                _check_pages(player, gid, seat)
        else:
            notices = [m for m in mails_to(box, PEOPLE[seat][1])
                       if tag_of(m) and tag_of(m)[3] == "turn" and tag_of(m)[2] == g.step]
            assert len(notices) == 1, f"seat {seat + 1} has no turn notice for step {g.step}"
            email_order(sink, notices[0], PEOPLE[seat][1], text)
            mail_orders += 1
        # both pieces arrived in one submission: the turn resolved at once, as one turn
        after = current()
        assert after.step == g.step + len(lines), f"turn at step {g.step} did not resolve"

    print(f"{turns} turns: {web_orders} by web (two orders a post), {mail_orders} by email, "
          f"{len(expired)} defaulted at the deadline")
    assert web_orders > 10 and mail_orders > 10 and len(expired) == len(EXPIRE)
    with app.app_context():
        _check_outcome(app, gid, engine, mail_orders, expected_turns, screens, expired, pictures_drawn)


def _check_pages(player: WebPlayer, gid: int, seat: int) -> None:
    """The seat's order page and view.json name its own pieces only."""
    data = player.client.get(f"/games/{gid}/seat/{seat + 1}/view.json").get_json()
    supplies = [p["supply"] for p in data["view"]["players"]]
    assert supplies[seat] is not None and all(s is None for i, s in enumerate(supplies) if i != seat)
    html = player.client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    assert html.count("Behind your screen") == 1 and f"You are seat {seat + 1} " in html
    # the public game page shows nobody's screen
    public = player.client.get(f"/games/{gid}").get_data(as_text=True)
    assert "Behind your screen" not in public


def _check_outcome(app, gid, engine, mail_orders, expected_turns, screens, expired, drawn) -> None:
    box = app.config["MAIL_SINK_DIR"]
    g = db.session.get(Game, gid)
    final = state_at(gid)
    assert final.is_terminal() and verify(gid)

    # the final scores are the engine's, replaying the log from the seed
    replay = engine.new_state(4, g.seed)
    moves = db.session.execute(select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars().all()
    for m in moves:
        replay.apply(m.seat_index, engine.parse_action(replay, m.seat_index, m.text))
    assert replay.is_terminal()
    assert [(s.seat, s.points, s.rank) for s in replay.scores()] == \
        [(s.seat, s.points, s.rank) for s in final.scores()]
    assert {m.source for m in moves} == {"web", "email", "deadline"}
    # each expired turn: both pieces defaulted (a short turn excepted), one missed turn each
    for step, seat in expired:
        defaulted = [m for m in moves if m.source == "deadline" and m.seat_index == seat and m.step >= step]
        assert defaulted and defaulted[0].step == step
    assert sum(s.missed_turns for s in g.seats) == len(expired)
    assert any(sum(1 for m in moves if m.source == "deadline" and m.step in (st, st + 1)) == 2
               for st, _ in expired if st > 0)

    for seat, (name, address, _tz) in enumerate(PEOPLE):
        got = mails_to(box, address)
        assert all(m["To"].addresses[0].addr_spec == address for m in got)
        tags = [tag_of(m) for m in got]
        assert all(t[1] == seat for t in tags if t and t[0] == gid)
        # every turn notice it was owed, and no other
        turns = {(t[2], t[1]) for t in tags if t and t[3] == "turn"}
        assert turns == {x for x in expected_turns if x[1] == seat}
        # told of every missed deadline, once each; the final scores once
        assert len([t for t in tags if t and t[3] == "missed"]) == len(expired), name
        host = [m for m in got if (tag_of(m) or (0,))[-1] in ("paused", "resumed")]
        assert [tag_of(m)[3] for m in host] == ["resumed"], name  # one mail for both actions
        assert "The host paused the game." in text_of(host[0]), name
        over = [m for m, t in zip(got, tags) if t and t[3] == "over"]
        assert len(over) == 1
        body = text_of(over[0])
        for sc in final.scores():
            assert f"{PEOPLE[sc.seat][0]} (seat {sc.seat + 1})" in body and str(sc.points) in body
        for m, t in zip(got, tags):
            if not t or t[0] != gid:
                continue
            text = text_of(m)
            # the board picture travels inline with every notice
            if t[3] in NOTICES:
                pngs = [p for p in m.walk() if p.get_content_type() == "image/png"]
                # the board, and on a turn with legal sites the close-up for phones under it
                assert [p.get_filename() for p in pngs][:1] == ["board.png"] and len(pngs) <= 2, (name, t)
                assert all(p.get_content()[:4] == b"\x89PNG" for p in pngs), (name, t)
            # only the seat's own screen, and at a turn exactly what is behind it then
            found = SCREEN.findall(text)
            assert len(found) <= 1, (name, t)
            if t[3] == "turn":
                assert found == [screens[(t[2], seat)]], (name, t)
            if found:
                assert f"You are seat {seat + 1} " in text
    # every picture was drawn from its recipient's own view: other screens are not in it
    assert drawn
    for to, spec in drawn:
        seat = SEAT_OF[to]
        view = spec["view"]
        assert spec["game"] == "medina" and view["viewer"] == seat
        assert view["players"][seat]["supply"] is not None
        assert all(p["supply"] is None for p in view["players"] if p["seat"] != seat)
    # every emailed order was answered once (confirmation); every mail went out
    answers = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.kind.in_(["confirmation", "refusal"]))).scalars().all()
    assert len(answers) == mail_orders and all(a.kind == "confirmation" for a in answers)
    rows = db.session.execute(select(OutboxMessage)).scalars().all()  # the pauses were told with the resume
    assert [(a.kind, a.status) for a in rows if a.status != "sent"] == [("paused", "superseded")] * 4
