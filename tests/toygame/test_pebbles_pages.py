"""Pebbles on the web: a seat plays it on the order page, and its rules
page, which it does not have, is the summary made from its facts and
order help, with a note in the reader's language saying so."""
from __future__ import annotations

import re

import pytest

from pbem.web import tour
from tests.webapp import CSRF_RE, game_state, signed_in

NOTE = {"en": "Pebbles has no rules summary of its own yet",
        "fi": "Pelillä Pebbles ei ole vielä omaa sääntöjen tiivistelmää",
        "cs": "Hra Pebbles zatím nemá vlastní pravidla ve zkratce",
        "ca": "Pebbles encara no té unes regles en breu pròpies",
        "de": "Pebbles hat noch keine eigene Regelübersicht"}
PLAYERS = {"en": "2 players", "fi": "2 pelaajaa", "cs": "2 hráči", "ca": "2 jugadors", "de": "2 Spieler"}


def test_a_seat_reads_and_sends_a_pebbles_order_on_the_order_page(app):
    gid = tour.new_game("pebbles", 3, seats=3)      # asked for three seats: Pebbles has two
    assert game_state(gid).seats == 2
    ada = signed_in(app, "ada@example.org")
    html = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert "12 pebbles left in the heap." in html and "take 3" in html
    assert 'href="/rules/pebbles"' in html          # the order page links the made-up rules page
    token = CSRF_RE.search(html).group(1)
    resp = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "step": "0", "orders": "take 2"},
                    follow_redirects=True)
    assert resp.status_code == 200
    state = game_state(gid)
    assert (state.step, state.current_seats(), state.view(None)["left"]) == (1, [1], 10)
    refused = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "step": "1", "orders": "take 1"})
    assert refused.status_code == 422 and game_state(gid).step == 1      # not seat 1's turn now


@pytest.mark.parametrize("lang", sorted(NOTE))
def test_its_rules_page_is_made_from_its_facts_and_help_with_a_note(client, lang):
    resp = client.get("/rules/pebbles", headers={"Accept-Language": lang})
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", resp.get_data(as_text=True)))
    assert resp.status_code == 200
    assert NOTE[lang] in text and PLAYERS[lang] in text
    assert "heap: small, large" in text                         # its options, in its own words
    assert "take 2 the top two pebbles" in text                 # its order help, in English
    assert 'id="setup"' in resp.get_data(as_text=True)


def test_a_game_with_its_own_rules_page_keeps_it_and_an_unknown_game_has_none(client):
    text = client.get("/rules/medina").get_data(as_text=True)
    assert 'id="goal"' in text and 'id="generated"' not in text
    assert client.get("/rules/chess").status_code == 404


@pytest.fixture
def client(app):
    return app.test_client()
