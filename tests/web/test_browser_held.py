"""Held orders on the order page in Debian's chromium (issue 15): a Die
Stadt seat waiting for another seat's tile sends its next wall piece ahead
from the page, sees it listed as held, and cancels it with the button.
Screenshots at 375 and 1280 px go to ``PBEM_SCREENSHOTS`` when set."""
from __future__ import annotations

import os

import pytest

from .test_browser import ARGS, CHROMIUM, SHOTS, _need_chromium, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser

TRIGGER = "seats 3\ntile T20 1 0\ntile T21 19 180\npiles 0 20 20\nturn seat 2 drawn 20\n"


def _die_stadt_at(app, position: str) -> tuple[int, dict[int, int]]:
    """A started three-seat Die Stadt game put at ``position``; its seats' player ids."""
    from pbem.engine import get_game
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import create_game, join_game

    with app.app_context():
        people = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
        gid = create_game("diestadt", people[0][1], people, seed=3).id
        for i in (1, 2):
            join_game(gid, i)
        st = get_game("diestadt").load_position(position)
        g = db.session.get(Game, gid)
        g.state, g.step, g.phase = st.to_json(), st.step, st.phase()
        db.session.commit()
        players = {s.index: s.player_id for s in g.seats}
        db.session.remove()
    return gid, players


def _looked_again(page, wait_ms: int) -> bool:
    """Whether the page fetched itself again within ``wait_ms`` (to bring
    itself up to date in place); it is never reloaded."""
    looks = []
    listener = lambda r: looks.append(r) if r.resource_type == "fetch" and r.url == page.url else None  # noqa: E731
    page.on("request", listener)
    page.evaluate("window.__pbemMark = 1")
    page.wait_for_timeout(wait_ms)
    page.remove_listener("request", listener)
    assert page.evaluate("window.__pbemMark") == 1, "the page was reloaded"
    return bool(looks)


def test_a_waiting_seat_holds_its_wall_piece_from_the_page_and_cancels_it(site, monkeypatch):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.core import links
    from pbem.web import orders

    monkeypatch.setattr(orders, "WAITING_REFRESH", 1)

    gid, players = _die_stadt_at(app, TRIGGER)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(15000)
            with app.app_context():
                page.goto(links.signin_url(players[2], links.order_path(gid, 2)))
            page.click("#continue")
            page.wait_for_url(f"{base}/games/{gid}/seat/3")
            held = page.locator("#held")
            assert "None." in held.inner_text()
            page.fill("#hold-text", "muuri myötä vartija")
            page.click("#hold")
            page.wait_for_url(f"{base}/games/{gid}/seat/3")
            assert page.locator(".held-lines code").all_inner_texts() == ["wall cw guard"]
            assert "Held for your next decisions: wall cw guard" in page.inner_text("body")
            for width in (375, 1280):
                page.set_viewport_size({"width": width, "height": 900})
                assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
                if SHOTS:
                    held.screenshot(path=os.path.join(SHOTS, f"held-orders-{width}.png"))
                    page.screenshot(path=os.path.join(SHOTS, f"held-page-{width}.png"), full_page=True)
            # a line that names a place cannot wait: refused, nothing held changes
            page.fill("#hold-text", "wall T20 N")
            page.click("#hold")
            assert "not your turn" in page.inner_text("body")
            page.goto(f"{base}/games/{gid}/seat/3")
            assert page.locator(".held-lines code").all_inner_texts() == ["wall cw guard"]
            # the waiting page looks again by itself (in place), but never over orders being typed
            assert 'http-equiv="refresh"' not in page.content()
            assert _looked_again(page, 2500)
            page.fill("#hold-text", "wall ccw")
            assert not _looked_again(page, 2500)
            assert page.input_value("#hold-text") == "wall ccw"
            page.click("#cancel-held")
            page.wait_for_url(f"{base}/games/{gid}/seat/3")
            assert page.locator(".held-lines code").count() == 0
            assert "Your held orders are dropped." in page.inner_text("body")
        finally:
            browser.close()


def test_held_lines_are_listed_in_the_players_language(site):
    """A Finnish player holds a wall piece written in English (accepted on
    input): the page lists it and answers in Finnish order words (issue 22)."""
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.core import links
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    gid, players = _die_stadt_at(app, TRIGGER)
    with app.app_context():
        url = links.signin_url(players[2], links.order_path(gid, 2))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
            page.set_default_timeout(15000)
            page.goto(url)
            page.click("#continue")
            page.wait_for_url(f"{base}/games/{gid}/seat/3")
            with app.app_context():   # the first sign-in stored the browser's language: now Finnish
                db.session.get(Player, players[2]).language = "fi"
                db.session.commit()
                db.session.remove()
            page.goto(f"{base}/games/{gid}/seat/3")
            page.fill("#hold-text", "wall cw guard")
            page.click("#hold")
            page.wait_for_url(f"{base}/games/{gid}/seat/3")
            assert page.locator(".held-lines code").all_inner_texts() == ["muuri myötä vartija"]
            body = page.inner_text("body")
            assert "muuri myötä vartija" in body and "wall cw guard" not in body
            assert page.evaluate("document.documentElement.scrollWidth") <= 376
            if SHOTS:
                page.locator("#held").screenshot(path=os.path.join(SHOTS, "held-orders-fi-375.png"))
        finally:
            browser.close()
