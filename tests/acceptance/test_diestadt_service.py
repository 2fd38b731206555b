"""Acceptance (issue 15): a three-seat Carcassonne: Die Stadt game played to
final scores through the service on the embedded defaults.

Orders arrive as posts of the order form (signed in from the emailed link)
or as RFC 5322 emails answering a notice, sent over SMTP to the local sink.
From pile 2 on, seats that wait send their next wall piece ahead by email
(``wall cw guard``, ``muuri vasta`` ...), answering whatever mail of the
game they got last; the placer sometimes adds a wall line under its tile.
The service holds those lines and applies each when its wall decision
comes due, without asking. Then: the final scores are the engine's replay
of the log, every held line was applied when due (or dropped at the end),
the seats were asked only for the decisions they had not answered ahead,
and every notice carries the board picture.
"""
from __future__ import annotations

import random
import re

import pytest
from sqlalchemy import select

from pbem.engine import get_game
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent, HeldOrder, Move, OutboxMessage
from pbem.service.play.lifecycle import SeatSpec, create_game
from pbem.service.play.replay import state_at, verify
from tests.playthrough import (  # noqa: F401  (live is a fixture)
    WebPlayer, email_order, live, mails_to, tag_of, text_of,
)

pytestmark = pytest.mark.slow

PEOPLE = [("Alice", "alice@example.com", "Europe/Helsinki"),
          ("Bruno", "bruno@example.com", "Europe/Berlin"),
          ("Carla", "carla@example.com", "America/New_York")]
#: what a waiting seat sends ahead (all read as wall orders, any language)
AHEAD = ["wall cw guard", "wall ccw", "muuri vasta vartija", "Mauer Uhrzeigersinn", "wall cw"]
NOTICES = ("turn", "missed", "over")


def _latest_with_reply_to(box, address: str):
    """The seat's newest mail of the game that can be answered."""
    return [m for m in mails_to(box, address) if m["Reply-To"] and tag_of(m)][-1]


def test_three_seat_die_stadt_by_web_and_email_with_wall_orders_sent_ahead(live):
    app, sink = live
    box = app.config["MAIL_SINK_DIR"]
    engine = get_game("diestadt")
    with app.app_context():
        gid = create_game("diestadt", PEOPLE[0][1], [SeatSpec(e, n, tz) for n, e, tz in PEOPLE],
                          seed=1515).id
    browsers = {seat: WebPlayer(app) for seat in range(3)}
    for seat in (1, 2):
        invite = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "invite"]
        link = re.search(r"https?://\S+/signin/\S+", text_of(invite[0]))[0]
        browsers[seat].join(browsers[seat].sign_in(link))

    def current() -> Game:
        with app.app_context():
            g = db.session.get(Game, gid)
            db.session.expunge(g)
            return g

    def holding() -> dict[int, list[str]]:
        with app.app_context():
            return {r.seat_index: r.text.split("\n") for r in db.session.execute(
                select(HeldOrder).where(HeldOrder.game_id == gid)).scalars()}

    rng = random.Random(15)
    decisions = web_orders = mail_orders = sent_ahead = 0
    ahead_lines: list[tuple[int, str]] = []      # (seat, canonical line) sent ahead
    page_checked = False
    while (g := current()).status != "finished":
        state = engine.state_from_json(g.state)
        decisions += 1
        assert decisions < 600, "the game does not end"
        [seat] = state.current_seats()
        held_now = holding()
        if state.decision == "tile" and state.pile >= 2:
            # the seats that wait send their next wall piece ahead, by email
            sent_now = set()
            for other in range(3):
                if other != seat and other not in held_now and rng.random() < 0.7:
                    line = rng.choice(AHEAD)
                    email_order(sink, _latest_with_reply_to(box, PEOPLE[other][1]), PEOPLE[other][1], line)
                    ahead_lines.append((other, engine.hold_order(line)))
                    sent_ahead += 1
                    sent_now.add(other)
            assert set(holding()) >= sent_now and current().step == g.step   # held, nothing applied
            if not page_checked and holding():
                other = next(iter(holding()))
                _check_order_page(browsers[other], box, gid, other, holding()[other])
                page_checked = True
        action = rng.choice(state.legal_actions(seat))
        text = action.to_text()
        if state.decision == "tile" and state.pile >= 2 and seat not in held_now and rng.random() < 0.3:
            extra = rng.choice(AHEAD)
            text += "\n" + extra           # the placer's own next piece, under its tile
            ahead_lines.append((seat, engine.hold_order(extra)))
        if decisions % 2 == 0:
            player = browsers[seat]
            if not player.signed_in:
                notice = [m for m in mails_to(box, PEOPLE[seat][1]) if (tag_of(m) or (0,))[-1] == "turn"][-1]
                player.sign_in(re.search(r"https?://\S+/signin/\S+", text_of(notice))[0])
            player.order(gid, seat, text)
            web_orders += 1
        else:
            notices = [m for m in mails_to(box, PEOPLE[seat][1])
                       if tag_of(m) and tag_of(m)[3] == "turn" and tag_of(m)[2] == g.step]
            assert len(notices) == 1, f"seat {seat + 1} has no turn notice for step {g.step}"
            email_order(sink, notices[0], PEOPLE[seat][1], text)
            mail_orders += 1
        assert current().step > g.step, f"decision at step {g.step} did not resolve"

    print(f"{decisions} decisions asked: {web_orders} by web, {mail_orders} by email; "
          f"{sent_ahead} wall orders sent ahead by email, {len(ahead_lines)} lines held in all")
    assert web_orders > 20 and mail_orders > 20 and sent_ahead > 10
    with app.app_context():
        _check_outcome(app, gid, engine, ahead_lines)


def _check_order_page(player: WebPlayer, box, gid: int, seat: int, lines: list[str]) -> None:
    """The waiting seat's order page lists what it holds, with the button to cancel."""
    if not player.signed_in:
        mail = _latest_with_reply_to(box, PEOPLE[seat][1])
        player.sign_in(re.search(r"https?://\S+/signin/\S+", text_of(mail))[0])
    html = player.client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    assert "Orders held for later" in html and 'id="cancel-held"' in html
    for line in lines:
        assert f'<code class="order">{line}</code>' in html


def _check_outcome(app, gid, engine, ahead_lines) -> None:
    box = app.config["MAIL_SINK_DIR"]
    g = db.session.get(Game, gid)
    final = state_at(gid)
    assert final.is_terminal() and verify(gid)
    # the final scores are the engine's, replaying the log from the seed
    replay = engine.new_state(3, g.seed)
    moves = db.session.execute(select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars().all()
    asked: set[tuple[int, int]] = set()
    for m in moves:
        asked.add((m.step, m.seat_index))
        replay.apply(m.seat_index, engine.parse_action(replay, m.seat_index, m.text))
    assert replay.is_terminal()
    assert [(s.seat, s.points, s.rank) for s in replay.scores()] == \
        [(s.seat, s.points, s.rank) for s in final.scores()]
    assert db.session.execute(select(HeldOrder)).first() is None      # none outlives the game

    notices = {}
    for seat, (name, address, _tz) in enumerate(PEOPLE):
        for m in mails_to(box, address):
            t = tag_of(m)
            if not t or t[0] != gid:
                continue
            assert t[1] == seat
            if t[3] == "turn":
                notices[(t[2], seat)] = m
            if t[3] in NOTICES:   # the board picture travels inline with every notice
                pngs = [p for p in m.walk() if p.get_content_type() == "image/png"]
                assert [p.get_filename() for p in pngs][:1] == ["board.png"] and len(pngs) <= 2, (name, t)
                assert all(p.get_content()[:4] == b"\x89PNG" for p in pngs), (name, t)
    # a seat was asked (a turn notice) for every decision it had not answered ahead, and only those
    from_held = sorted((step, seat) for step, seat in asked if (step, seat) not in notices)
    assert set(notices) <= asked
    held_moves = [m for m in moves if (m.step, m.seat_index) in set(from_held)]
    assert len(held_moves) >= 10
    walls = [m for m in moves if m.text.startswith("wall")]
    print(f"{len(walls)} wall pieces: {len(held_moves)} applied from orders sent ahead, "
          f"{len(walls) - len(held_moves)} asked for by a turn notice")
    assert all(m.text.startswith("wall") and m.source in ("email", "web") for m in held_moves)
    # each held move is one of the lines its seat sent ahead, applied in the order sent
    for seat in range(3):
        sent = [line for s, line in ahead_lines if s == seat]
        applied = [m.text for m in held_moves if m.seat_index == seat]
        # a guard no longer legal is left out, and the move records what was built (it replays)
        assert all(a in (line, line.removesuffix(" guard")) for a, line in zip(applied, sent)), seat
        assert len(applied) <= len(sent), seat
    # every email was confirmed, none refused; the lines sent ahead were confirmed as held
    answers = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.kind.in_(["confirmation", "refusal"]))).scalars().all()
    assert answers and all(a.kind == "confirmation" for a in answers)
    confirmed = [text_of(m) for _n, address, _tz in PEOPLE for m in mails_to(box, address)
                 if (tag_of(m) or (0,))[-1] == "answer"]
    assert len(confirmed) == len(answers)
    assert sum("(held for a later decision)" in text for text in confirmed) >= 10
    # guards sent ahead and no longer legal were left out, the piece still built
    dropped = db.session.execute(select(GameEvent).where(GameEvent.game_id == gid,
                                                         GameEvent.kind == "held-dropped")).scalars().all()
    assert dropped == []
