"""The table around the board (issue 14), through the Flask test client:
player panels per seat in name and colour, the text form kept, decision
banners from the engine, the rules summary linked at the phase played,
Medina's second piece not called a resolved turn, the favicon."""
from __future__ import annotations

import re

from markupsafe import Markup

from pbem.web.table import Person, named_view, seated
from pbem.web.tour import new_game, phase_kind, play

from .conftest import csrf_token, game_state, new_lacitta, signed_in
from .pagetext import text_of

PEOPLE = [Person(0, 1, "Ada", "#d0312d", True), Person(1, 2, "Bo <b>", "#2a62c9"), Person(2, 3, "Cy", "#2e9a48")]


def test_seated_names_the_player_in_colour_and_escapes():
    html = seated("Seat 2 builds a farm at F7 for seat 1's city & more.", PEOPLE)
    assert isinstance(html, Markup)
    text = text_of(str(html))
    assert text == "Bo <b> builds a farm at F7 for Ada (you)'s city & more."
    assert "--seat:#2a62c9" in html and "Bo &lt;b&gt;" in html and "<b>" not in html.replace("Bo &lt;b&gt;", "")
    assert "Seat 2" not in text and "&amp; more" in html


def test_seated_keeps_the_seat_word_when_the_name_is_already_there():
    text = text_of(str(seated("Cy took seat 3.", PEOPLE)))
    assert text == "Cy took seat 3."       # not "Cy took Cy."


def test_named_view_puts_names_on_players_and_phase_without_touching_the_view():
    view = {"phase": "Turn 4: seat 3, piece 1 of 2", "players": [{"seat": 0}, {"seat": 2, "name": "seat 3"}]}
    named = named_view(view, PEOPLE)
    assert [p["name"] for p in named["players"]] == ["Ada", "Cy"] and named["phase"] == "Turn 4: Cy, piece 1 of 2"
    assert view == {"phase": "Turn 4: seat 3, piece 1 of 2", "players": [{"seat": 0}, {"seat": 2, "name": "seat 3"}]}


def test_order_page_draws_a_panel_per_seat_and_keeps_the_text(app):
    gid = new_lacitta()
    html = signed_in(app, "ada@example.org").get(f"/games/{gid}/seat/1").get_data(as_text=True)
    panels = re.findall(r'<article class="panel[^"]*" style="--seat:(#[0-9a-f]{6})"\s+aria-label="([^"]+)"', html)
    assert [label.split(":")[0] for _, label in panels] == ["Ada (you)", "Bo", "Cy"]
    assert len({colour for colour, _ in panels}) == 3
    # resources as icons with numbers and words for screen readers; the seven political cards as cards
    assert html.count('<use href="#i-gold"/>') == 3 and 'class="lbl">gold</span>' in html
    assert html.count('class="card-face political-card"') == 7
    # the text form stays (as text), and the log and header name players
    assert '<details class="astext"><summary>The position as text</summary>' in html and "You are seat 1." in html
    assert "Seat 1" not in text_of(html.split('<details class="astext">')[0])


def _to_phase(kind: str, phase: str, seeds=range(1, 12)):
    """A game of ``kind`` played (seeded random orders) to where a seat
    owes ``phase``: (game id, seat)."""
    from pbem.web.tour import discover

    for seed in seeds:
        found = discover(kind, seed, max_moves=200)
        if phase in found:
            moves, seat = found[phase]
            gid = new_game(kind, seed)
            play(gid, seed, moves)
            return gid, seat
    raise AssertionError(f"no {kind} game reached {phase}")


def test_famine_banner_says_what_is_owed_and_why_and_links_the_rule(app):
    gid, seat = _to_phase("lacitta", "starve")
    state = game_state(gid)
    excess = int(state.view(seat)["pending"][str(seat)].split()[1])
    client = signed_in(app, ["ada@example.org", "bo@example.org", "cy@example.org"][seat])
    html = client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    banner = text_of(html[html.index('<section class="banner"'):html.index("</section>", html.index('class="banner"'))])
    assert f"Famine: choose the cities that lose {excess} citizen" in banner
    assert "food" in banner and "The rule:" in banner
    assert 'href="/rules/lacitta#yearend">More</a>' in html
    assert 'href="/rules/lacitta#yearend">How do demolition and feeding work?</a>' in html


def test_rules_pages_have_a_section_for_every_phase_the_engines_name(app):
    """pbem's own games (ENGINES); a game without a page of its own gets one
    made from its facts (tests/toygame/test_pebbles_pages.py)."""
    from pbem.engine import ENGINES, GAMES

    client = app.test_client()
    for kind in ENGINES:
        html = client.get(f"/rules/{kind}").get_data(as_text=True)
        ids = set(re.findall(r'<section id="([a-z_]+)"', html))
        state = GAMES[kind].new_state(3, 1, **{k: v[0] for k, v in GAMES[kind].options.items()})
        assert state.view(None)["rules_section"]["id"] in ids
        assert {"setup", "scoring"} <= ids
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/..%2Fweb%2Fbase").status_code == 404


def test_after_medinas_first_piece_the_page_names_the_second_not_a_resolved_turn(app):
    gid = new_game("medina", 3)
    play(gid, 3, 1)                                   # the start merchant
    state = game_state(gid)
    ada = signed_in(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    first = state.legal_actions(0)[0].to_text()
    resp = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "step": state.step, "orders": first},
                    follow_redirects=True)
    text = text_of(resp.get_data(as_text=True))
    assert "the turn is resolved" not in text
    assert "Your turn goes on: Place piece 2 of 2 of your turn." in text
    assert phase_kind(game_state(gid).view(0)) == "piece2"


def test_next_json_redraws_the_panels_and_the_banner_for_the_second_piece(app):
    gid = new_game("medina", 3)
    play(gid, 3, 1)
    state = game_state(gid)
    first = state.legal_actions(0)[0]
    ada = signed_in(app, "ada@example.org")
    res = ada.get(f"/games/{gid}/seat/1/next.json",
                  query_string={"orders": first.to_text(), "step": state.step}).get_json()
    assert res["more"] and res["decision"]["kind"] == "piece2"
    assert 'class="panel mine' in res["panels"] and "Your pieces behind your screen" in res["panels"]
    # the board carries the players' names
    assert "Ada: 0 pts" in res["svg"]


def test_favicon_is_served(app):
    resp = app.test_client().get("/favicon.ico")
    assert resp.status_code == 200 and resp.data[:4] == b"\x00\x00\x01\x00"
    assert resp.mimetype in ("image/vnd.microsoft.icon", "image/x-icon")


def test_medina_panels_show_only_the_readers_own_screen(app):
    gid = new_game("medina", 3)
    play(gid, 3, 1)
    ada = signed_in(app, "ada@example.org")
    mine = ada.get(f"/games/{gid}/seat/1").get_data(as_text=True)
    assert mine.count("Your pieces behind your screen") == 1 and mine.count("other pieces behind the screen") == 2
    public = app.test_client().get(f"/games/{gid}").get_data(as_text=True)
    assert "Your pieces behind your screen" not in public and public.count("other pieces behind the screen") == 3


def test_diestadt_order_page_has_panels_the_drawn_tile_and_the_tile_banner(app):
    gid = new_game("diestadt", 3)
    state = game_state(gid)
    seat = state.current_seats()[0]
    reader = signed_in(app, ["ada@example.org", "bo@example.org", "cy@example.org"][seat])
    html = reader.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    panels = re.findall(r'<article class="panel[^"]*" style="--seat:(#[0-9a-f]{6})"\s+aria-label="([^"]+)"', html)
    assert [label.split(":")[0].replace(" (you)", "") for _, label in panels] == ["Ada", "Bo", "Cy"]
    assert html.count('class="lbl">followers</span>') == 3 and html.count('class="lbl">towers</span>') == 3
    drawn = state.view(None)["drawn"]
    assert f"Tile {drawn['tile']} ({drawn['pattern']})" in text_of(html)
    banner = text_of(html[html.index('<section class="banner"'):html.index("</section>", html.index('class="banner"'))])
    assert f"Place tile {drawn['tile']}" in banner and "The rule:" in banner
    assert 'href="/rules/diestadt#tiles">More</a>' in html
    # a spectator sees the same panels and no banner
    public = app.test_client().get(f"/games/{gid}").get_data(as_text=True)
    assert public.count('class="lbl">followers</span>') == 3 and 'class="banner"' not in public


def test_diestadt_wall_banner_and_the_round_still_to_build(app):
    gid, seat = _to_phase("diestadt", "wall", seeds=range(1, 6))
    state = game_state(gid)
    client = signed_in(app, ["ada@example.org", "bo@example.org", "cy@example.org"][seat])
    html = client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    banner = text_of(html[html.index('<section class="banner"'):html.index("</section>", html.index('class="banner"'))])
    assert "Build a wall piece at the cw or ccw end" in banner
    assert 'href="/rules/diestadt#wall">How is the wall built?</a>' in html
    assert "Still to build this round:" in text_of(html)
    assert f'{state.view(None)["wall"]["supply"]} pieces left' in text_of(html)


def test_diestadt_order_page_carries_each_orders_steps_for_the_choices_after_a_click(app):
    import json

    gid = new_game("diestadt", 3)
    state = game_state(gid)
    seat = state.current_seats()[0]
    reader = signed_in(app, ["ada@example.org", "bo@example.org", "cy@example.org"][seat])
    html = reader.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    block = html[html.index('id="legal-orders">') + len('id="legal-orders">'):]
    orders = json.loads(block[:block.index("</script>")])
    want = {a.to_text(): a for a in state.legal_actions(seat)}
    assert {o["text"] for o in orders} == set(want)
    for o in orders:
        a = want[o["text"]]
        assert (o["label"], o["site"]) == (a.label, a.site)
        assert o["steps"] == [[str(q), str(ans)] for q, ans in a.steps]
    assert 'id="order-choices"' in html and "choices.js" in html


def test_diestadt_seats_wear_one_colour_on_the_page_the_board_and_in_the_engines_words(app):
    """Issue 29: Carla was green in the table but yellow on the board, in the
    legend and in the mail ("seat 3 (yellow)"): every place takes the
    colour the engine's view names for the seat."""
    from pbem.boards import render_svg, seat_colours
    from pbem.boards.diestadt.art import SEAT_FILL

    gid = new_game("diestadt", 3)
    state = game_state(gid)
    view = state.view(None)
    named = [SEAT_FILL[p["colour"]] for p in view["players"]]
    assert [p["colour"] for p in view["players"]] == ["red", "blue", "yellow"]
    assert seat_colours("diestadt", view) == named
    assert seat_colours("diestadt", {"seats": 3}) == named      # a page without the view
    board = render_svg("diestadt", view)
    assert all(colour in board for colour in named)
    html = signed_in(app, "ada@example.org").get(f"/games/{gid}").get_data(as_text=True)
    panels = re.findall(r'<article class="panel[^"]*" style="--seat:(#[0-9a-f]{6})"', html)
    assert panels == named


def test_a_two_wish_choice_says_which_neighbours_each_wish_would_draw_from(app):
    """Issue 29: a two-wish year gave no hint of which neighbour each wish
    would draw from. The banner names, for each city still to choose and
    each wish, the neighbours it draws a citizen from (the engine's own
    reckoning, ``migration.beaten``)."""
    from pbem.engine.lacitta import migration

    gid, seat = _to_phase("lacitta", "wish", seeds=range(1, 30))
    state = game_state(gid)
    client = signed_in(app, ["ada@example.org", "bo@example.org", "cy@example.org"][seat])
    html = client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    banner = text_of(html[html.index('<section class="banner"'):html.index("</section>", html.index('class="banner"'))])
    open_ = [c for c, w in state.wish_choice.items() if w is None]
    assert open_
    for castle in open_:
        for wish in state.wishes:
            drawn = migration.beaten(state, state.cities[castle], wish)
            if drawn:
                assert f"The city at {castle} by {wish} draws one citizen from each of {', '.join(drawn)}." in banner
            else:
                assert f"The city at {castle} by {wish} draws from no neighbour." in banner
