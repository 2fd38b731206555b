"""Issue 12's probe: a La Città seat owing the year's last political card
sends that card and a second line (``wish L4 culture``, ``starve L4 1``,
``demolish L5``). That line belongs to the year end, which turns up the
face-down Voice of the People: any answer about it (the people's wishes,
the citizen counts after migration, even whether the seat owes anything
then) would tell the seat what its view hides. The answer on the order
page's review, next.json and by email is instead "your turn ends with
line 1", word for word the same whatever the hidden cards are.

The position: seed 34, three seats, the orders of ``SCRIPT``; seat 3 owes
the last card of year 1 and, in a year whose wishes are education and
health, then owes the wish of its city at L4 (asserted, so a change of the
engine that moves the position fails here instead of passing emptily).
"""
from __future__ import annotations

import json
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.links import reply_address
from pbem.service.core.models import Game, OutboxMessage
from pbem.service.core.snapshot import engine_state
from pbem.service.inbound import handle_inbound
from pbem.service.play.orders import submit_orders

from .answers import email_text, order_answers
from .conftest import player_id, sign_in
from .hidden import PEOPLE, new_game

#: year 1 of seed 34 with three seats, up to seat 3's last political card
SCRIPT = [(0, "found F16 from F6"), (1, "found P10 from E9"), (2, "build statue M5"), (0, "build farm G16"),
          (1, "hospital K11"), (2, "build statue N5"), (0, "master builder farm P1"), (1, "build quarry L13"),
          (2, "build school M6"), (0, "build statue E16"), (1, "build statue L11"),
          (2, "master builder market L6"), (0, "citizens 2"), (1, "golden age P10 x1")]
SEAT = 2
#: lines that belong to the year end after the last card
PROBES = ["wish L4 culture", "wish L4 education", "starve L4 1", "demolish L5", "wish D14 health\nstarve L4 1"]


def _year_of(state_json: str) -> list[str]:
    """This year's wishes once the Voice of the People is turned up."""
    from pbem.engine import get_game

    state = get_game("lacitta").state_from_json(state_json)
    state.apply(SEAT, state.legal_actions(SEAT)[0])
    return list(state.wishes)


def _one_wish_variant(state_json: str) -> str:
    """The same position with seat 3's three face-down Voice cards (it has
    looked at none) exchanged with cards of the Voice deck so that the year
    has one wish: what seat 3 sees is unchanged."""
    d = json.loads(state_json)
    assert d["peeked"][SEAT] == [] and not d["revealed"]
    for card in ("culture", "education", "health"):
        if d["voice_deck"].count(card) >= 3:
            old = d["voice"][1:]
            for i in range(1, 4):
                d["voice"][i] = card
            for _ in range(3):
                d["voice_deck"].remove(card)
            d["voice_deck"] = old + d["voice_deck"]
            variant = json.dumps(d)
            if len(_year_of(variant)) == 1:
                return variant
            d = json.loads(state_json)
    raise AssertionError("no one-wish exchange in the Voice deck")


@pytest.fixture
def probe(app):
    """Game id, seat 3's last card, and the game's state and its one-wish variant."""
    gid = new_game(3, 34)
    for seat, order in SCRIPT:
        step = db.session.get(Game, gid).step
        assert submit_orders(gid, seat, order, expected_step=step, source="web").status == "stored"
        db.session.rollback()
    game = db.session.get(Game, gid)
    state = engine_state(game)
    assert state.current_seats() == [SEAT] and state.phase() == "Year 1, political round 5"
    card = state.legal_actions(SEAT)[0].to_text()
    after = state.copy()
    after.apply(SEAT, state.legal_actions(SEAT)[0])
    # the position: after the card seat 3 owes the wish of L4, in an education-and-health year
    assert after.phase_name == "migration" and after.current_seats() == [SEAT]
    assert after.wish_choice.get("L4", "") is None and after.wishes == ["education", "health"]
    original = game.state
    variant = _one_wish_variant(original)
    db.session.rollback()
    return gid, card, original, variant


def _set_state(gid: int, state_json: str) -> None:
    db.session.execute(Game.__table__.update().where(Game.id == gid).values(state=state_json))
    db.session.commit()


def _both_years(gid: int, original: str, variant: str, ask) -> tuple[dict, dict]:
    """``ask()`` in the game as it is and with the one-wish Voice cards."""
    first = ask()
    _set_state(gid, variant)
    try:
        second = ask()
    finally:
        _set_state(gid, original)
    return first, second


def _signed_in(app):
    client = app.test_client()
    sign_in(client, player_id(PEOPLE[SEAT][1]))
    return client


@pytest.mark.parametrize("path", ["review", "next.json"])
def test_the_order_page_answers_the_line_after_the_last_card_without_reading_it(app, probe, path):
    gid, card, original, variant = probe
    client = _signed_in(app)

    def ask():
        return {line: order_answers(client, gid, SEAT, f"{card}\n{line}")[path] for line in PROBES}

    mine, other = _both_years(gid, original, variant, ask)
    for line in PROBES:
        answer = mine[line]
        assert answer.startswith("422" if path == "review" else "200"), answer[:200]
        assert "your turn ends with line 1" in answer
        assert "people wish" not in answer and "must be demolished" not in answer
        assert "citizens must leave" not in answer
        # word for word the same in an education-and-health year and a one-wish year
        assert answer == other[line], line
    if path == "next.json":
        data = json.loads(mine[PROBES[0]].split("\n", 1)[1])
        assert data["status"] == "refused" and data["legal"] == [] and data["svg"] is None
        assert data["lines"][0] == {"text": card, "order": card, "error": None, "why": None,
                                     "held": False}
        assert "Past the end of your turn" in data["lines"][1]["error"]
        # the reason a click is told (order.js) says no more than the refusal
        assert data["lines"][1]["why"] in data["lines"][1]["error"]


def _mail(gid: int, text: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = PEOPLE[SEAT][1]
    msg["To"] = reply_address(gid, SEAT)
    msg["Subject"] = "Re: your turn"
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(text + "\n")
    return msg.as_bytes()


def test_the_email_answer_to_the_line_after_the_last_card_tells_nothing(app, probe, monkeypatch):
    """Through the real inbound pipeline: the mail is refused, the game
    unchanged, and the refusal is the same whatever the hidden cards."""
    gid, card, original, variant = probe
    # ten mails from one sender here; the per-sender limit is tested elsewhere
    monkeypatch.setitem(app.config, "INBOUND_RATE_LIMIT", "")

    def ask():
        answers = {}
        for line in PROBES:
            res = handle_inbound(_mail(gid, f"{card}\n{line}"))
            assert res.result == "refused", res
            db.session.rollback()
            row = db.session.execute(select(OutboxMessage).where(
                OutboxMessage.kind == "refusal").order_by(OutboxMessage.id.desc())).scalars().first()
            answers[line] = email_text(row.raw)
        return answers

    mine, other = _both_years(gid, original, variant, ask)
    for line in PROBES:
        answer = mine[line]
        assert "your turn ends with line 1" in answer and line.splitlines()[0] in answer
        assert "people wish" not in answer and "must be demolished" not in answer
        assert "citizens must leave" not in answer
        assert answer == other[line], line
    assert db.session.get(Game, gid).state == original


def test_the_last_card_alone_is_still_taken(app, probe):
    gid, card, original, variant = probe
    res = submit_orders(gid, SEAT, card, expected_step=db.session.get(Game, gid).step, source="email")
    assert res.status == "stored" and res.resolved
