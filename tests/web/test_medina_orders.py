"""Medina on the order page: the board with wall spaces (W12) as sites,
two pieces written in one submission, and next.json, which tells the page
that the turn holds a second piece and what is legal for it (a dry run)."""
from __future__ import annotations

import re

from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, Move, PendingOrder

from .conftest import PLAYERS, csrf_token, game_state, sign_in, signed_in

SITE = re.compile(r'data-site="([A-Z]+\d+)"')


def _medina(seats=4):
    from pbem.service.play.lifecycle import create_game, join_game

    players = PLAYERS + [("Di", "di@example.org")]
    gid = create_game("medina", players[0][1], players[:seats], seed=9).id
    for i in range(1, seats):
        join_game(gid, i)
    return gid


def _after_setup(app, gid, ada):
    state = game_state(gid)
    first = state.legal_actions(0)[0].to_text()
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    resp = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "step": state.step, "orders": first})
    assert resp.status_code == 302
    return game_state(gid)


def test_create_page_offers_medina_for_three_or_four(app):
    from pbem.service.accounts.players import get_or_create_player

    pid = get_or_create_player("host@example.org", "Host").id
    db.session.commit()
    client = app.test_client()
    sign_in(client, pid)
    html = client.get("/games/new").get_data(as_text=True)
    assert re.search(r'value="medina"[^>]*data-title="Medina" data-min="3" data-max="4"', html)
    token = csrf_token(client, "/games/new")
    form = {"csrf_token": token, "kind": "medina", "deadline_hours": "24", "timezone": "UTC",
            "seat-0-name": "Host", "seat-0-email": "host@example.org",
            "seat-1-name": "Bo", "seat-1-email": "bo@example.org"}
    assert client.post("/games/new", data=form).status_code == 422   # two seats: refused
    form.update({"seat-2-name": "Cy", "seat-2-email": "cy@example.org"})
    resp = client.post("/games/new", data=form)
    assert resp.status_code == 302
    game = db.session.execute(select(Game).where(Game.kind == "medina")).scalar_one()
    assert len(game.seats) == 3


def test_order_page_highlights_squares_and_wall_spaces_and_takes_two_pieces(app):
    gid = _medina()
    ada = signed_in(app, "ada@example.org")
    state = _after_setup(app, gid, ada)
    html = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    sites = set(SITE.findall(html))
    assert "W12" in sites and "E5" in sites        # wall spaces are sites like squares
    legal = state.legal_actions(0)
    walls = [a for a in legal if a.kind == "wall"]
    assert walls, "a wall is legal in the first turn"
    trial = state.copy()
    trial.apply(0, walls[0])
    second = next(a for a in trial.legal_actions(0) if a.kind == "palace")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    text = f"{walls[0].to_text()}\n{second.to_text()}"
    # review shows both lines, then sending applies both in one turn
    review = ada.post(f"/games/{gid}/seat/1/review", data={"csrf_token": token, "step": state.step, "orders": text})
    assert review.status_code == 200
    page = review.get_data(as_text=True)
    assert walls[0].to_text() in page and second.to_text() in page
    resp = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "step": state.step, "orders": text})
    assert resp.status_code == 302
    db.session.rollback()
    moves = db.session.execute(select(Move).where(Move.game_id == gid).order_by(Move.step)).scalars().all()
    assert [m.text for m in moves[-2:]] == [walls[0].to_text(), second.to_text()]
    assert game_state(gid).current_seats() == [1]


def test_next_json_says_a_second_piece_is_owed_and_what_is_legal_for_it(app):
    gid = _medina()
    ada = signed_in(app, "ada@example.org")
    state = _after_setup(app, gid, ada)
    url = f"/games/{gid}/seat/1/next.json"
    empty = ada.get(url, query_string={"orders": "", "step": state.step}).get_json()
    assert empty["status"] == "ok" and empty["more"] is True
    assert {o["text"] for o in empty["legal"]} == {a.to_text() for a in state.legal_actions(0)}
    first = state.legal_actions(0)[0]
    one = ada.get(url, query_string={"orders": first.to_text(), "step": state.step}).get_json()
    trial = state.copy()
    trial.apply(0, first)
    assert one["status"] == "ok" and one["more"] is True
    assert {o["text"] for o in one["legal"]} == {a.to_text() for a in trial.legal_actions(0)}
    assert first.site in one["svg"] and 'class="site legal"' in one["svg"]
    assert "piece 2 of 2" in one["view_text"] and "Behind your screen" in one["view_text"]
    second = trial.legal_actions(0)[0]
    two = ada.get(url, query_string={"orders": f"{first.to_text()}\n{second.to_text()}",
                                     "step": state.step}).get_json()
    assert two["status"] == "ok" and two["more"] is False and two["legal"] == []
    bad = ada.get(url, query_string={"orders": "palace purple Z99", "step": state.step}).get_json()
    assert bad["status"] == "refused" and bad["lines"][0]["error"]
    stale = ada.get(url, query_string={"orders": first.to_text(), "step": state.step - 1}).get_json()
    assert stale["status"] == "stale"
    # a dry run: nothing stored, and another seat may not ask
    assert db.session.execute(select(PendingOrder)).first() is None
    bo = signed_in(app, "bo@example.org")
    assert bo.get(f"/games/{gid}/seat/1/next.json").status_code == 403


def test_next_json_shows_nothing_after_the_lines_of_a_game_with_draws(app):
    """La Città is not previewable (draws, hidden Voice cards): next.json
    checks the lines but shows no position or choices after them."""
    from .conftest import new_lacitta

    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    state = game_state(gid)
    first = state.legal_actions(0)[0].to_text()
    res = ada.get(f"/games/{gid}/seat/1/next.json", query_string={"orders": first, "step": state.step}).get_json()
    assert res["status"] == "ok" and res["preview"] is False
    assert res["svg"] is None and res["legal"] == [] and res["more"] is False
    assert res["lines"][0]["order"] == first
