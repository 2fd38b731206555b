"""Every page a seat sees, of every game, in every language (issue 22.1).

For each registered game, a seat to move and a seat waiting for others
open every page their seat has (game page, a replay step, the rules, the
order page, ``view.json``, ``next.json``, the review of a legal order and
of an unreadable one, a refused send, and the order page with orders
filled in) in en, fi, cs, ca and de. Every answer is the one expected
(200, or 422 for a refusal) and no text says ``None`` (a ``None`` put
into a sentence: "every None seconds", or a plural with no count, which
Babel refuses with an error page).
"""
from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from pbem.engine import GAMES
from pbem.i18n import LANGUAGE_NAMES, translations
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.web import tour
from tests.webapp import CSRF_RE, game_state, signed_in

LANGS = sorted(LANGUAGE_NAMES)


def _speak(lang: str) -> None:
    db.session.rollback()
    for player in db.session.execute(select(Player)).scalars():
        player.language = lang
    db.session.commit()


def _visible(html: str, lang: str) -> str:
    """The page's text without tags, minus the held-orders card's "None."
    (a word of the page, not a missing value)."""
    text = re.sub(r"<[^>]+>", " ", html)
    return text.replace(translations(lang).gettext("None."), " ")


def _pages(client, game_id: int, kind: str, number: int, order: str | None):
    """``(what, expected status, response)`` for every page of seat ``number``."""
    seat = f"/games/{game_id}/seat/{number}"
    page = client.get(seat)
    yield "order page", 200, page
    token = CSRF_RE.search(page.get_data(as_text=True)).group(1)
    step = re.search(r'name="step" value="(\d+)"', page.get_data(as_text=True))
    step = step.group(1) if step else "0"
    yield "game page", 200, client.get(f"/games/{game_id}")
    yield "replay", 200, client.get(f"/games/{game_id}?step=1")
    yield "rules", 200, client.get(f"/rules/{kind}")
    yield "dashboard", 200, client.get("/")
    yield "view.json", 200, client.get(f"{seat}/view.json")
    yield "next.json", 200, client.get(f"{seat}/next.json", query_string={"orders": order or "", "step": step})
    yield "order page with text", 200, client.get(seat, query_string={"orders": "xyzzy"})
    yield "refused review", 422, client.post(f"{seat}/review", data={
        "csrf_token": token, "step": step, "orders": "xyzzy"})
    yield "refused send", 422, client.post(seat, data={"csrf_token": token, "step": step, "orders": "xyzzy"})
    if order:
        yield "review", 200, client.post(f"{seat}/review", data={
            "csrf_token": token, "step": step, "orders": order})


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_page_of_a_seat_to_move_and_a_waiting_seat_answers_in_every_language(app, kind):
    game_id = tour.new_game(kind, 3)
    state = game_state(game_id)
    moving = state.current_seats()[0]
    waiting = next(s for s in range(state.seats) if s not in state.current_seats())
    order = state.legal_actions(moving)[0].to_text()
    clients = {s: signed_in(app, tour.PLAYERS[s][1]) for s in (moving, waiting)}
    problems = []
    for lang in LANGS:
        _speak(lang)
        for s, legal in ((moving, order), (waiting, None)):
            for what, status, resp in _pages(clients[s], game_id, kind, s + 1, legal):
                body = resp.get_data(as_text=True)
                where = f"{lang} seat {s + 1} ({'to move' if legal else 'waiting'}) {what}"
                if resp.status_code != status:
                    problems.append(f"{where}: HTTP {resp.status_code}, not {status}")
                elif resp.is_json:
                    if "None" in json.dumps(resp.get_json(), ensure_ascii=False):
                        problems.append(f"{where}: 'None' in the JSON")
                elif re.search(r"\bNone\b", _visible(body, lang)):
                    at = _visible(body, lang).index("None")
                    problems.append(f"{where}: {_visible(body, lang)[at - 80:at + 20]!r}")
    assert not problems, "\n".join(problems)
