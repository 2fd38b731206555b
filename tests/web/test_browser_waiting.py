"""Live play in Debian's chromium: the page of a seat waiting for the
others (its orders in, or nothing to decide) brings itself up to date in
place: no reload and no meta refresh (axe-core rates it critical: a screen
reader's or keyboard user's place moves), a live region says what changed,
and nothing happens while the player is writing orders. Reuses the
running-site fixture of test_browser.py (the interval shortened to 1 s)."""
from __future__ import annotations

import pytest

from tests.webapp import new_lacitta, to_a_decision_taken_at_once

from .test_browser import ARGS, CHROMIUM, _need_chromium, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser


def _to_a_decision_taken_at_once(app) -> tuple[int, list[int]]:
    """A La Città game played up to its first decision of several seats,
    the first of them with its orders stored (tests/webapp.py)."""
    from pbem.service.core.db import db

    with app.app_context():
        gid = new_lacitta()
        seats = to_a_decision_taken_at_once(gid)
        db.session.remove()
    return gid, seats


def _send_the_others(app, gid: int, seats: list[int]) -> None:
    """The other seats of the decision send their first legal orders."""
    from pbem.service.core.db import db
    from pbem.service.play.orders import submit_orders
    from tests.webapp import game_state

    with app.app_context():
        state = game_state(gid)
        for seat in seats:
            assert submit_orders(gid, seat, state.legal_actions(seat)[0].to_text(),
                                 expected_step=state.step, source="web").accepted
        db.session.remove()


def test_a_waiting_seats_page_updates_in_place_but_never_over_typed_orders(site, monkeypatch):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.core import links
    from pbem.web import orders

    monkeypatch.setattr(orders, "WAITING_REFRESH", 1)
    gid, seats = _to_a_decision_taken_at_once(app)
    sent = seats[0]
    with app.app_context():
        from pbem.service.core.db import db
        from pbem.service.core.models import Game

        players = {s.index: s.player_id for s in db.session.get(Game, gid).seats}
        db.session.remove()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context().new_page()
            page.set_default_timeout(15000)
            with app.app_context():
                page.goto(links.signin_url(players[sent], links.order_path(gid, sent)))
            page.click("#continue")
            page.wait_for_url(f"{base}/games/{gid}/seat/{sent + 1}")
            assert "Your orders are in" in page.inner_text("#orders")
            assert 'http-equiv="refresh"' not in page.content()
            page.evaluate("window.__pbemMark = 1")
            before = page.inner_text(".phase")
            # a replacement being typed: the turn moves on, but the page waits
            page.fill("#order-text", "pass")
            _send_the_others(app, gid, seats[1:])
            page.wait_for_timeout(2500)
            assert page.input_value("#order-text") == "pass"
            assert page.inner_text(".phase") == before and "Your orders are in" in page.inner_text("#orders")
            # the field emptied and left: brought up to date in place, and said so
            page.fill("#order-text", "")
            page.evaluate("document.activeElement.blur()")
            page.wait_for_function("() => !document.body.innerText.includes('Your orders are in')", timeout=6000)
            assert page.evaluate("window.__pbemMark") == 1           # the same document: no reload
            news = page.inner_text("#page-news")
            assert news.strip() and page.inner_text(".phase") in news
            assert 'http-equiv="refresh"' not in page.content()
        finally:
            browser.close()


def test_the_turn_coming_to_a_waiting_seat_brings_the_board_picker_in_place(site, monkeypatch):
    """A seat with nothing to decide: when the turn comes to it the page
    turns into the order page in place, its scripts started (a click on a
    highlighted site fills the order field)."""
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.core import links
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.orders import submit_orders
    from pbem.web import orders
    from tests.webapp import game_state, new_lacitta

    monkeypatch.setattr(orders, "WAITING_REFRESH", 1)
    with app.app_context():
        gid = new_lacitta()
        bo = next(s.player_id for s in db.session.get(Game, gid).seats if s.index == 1)
        link = links.signin_url(bo, links.order_path(gid, 1))
        db.session.remove()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context().new_page()
            page.set_default_timeout(15000)
            page.goto(link)
            page.click("#continue")
            page.wait_for_url(f"{base}/games/{gid}/seat/2")
            assert "Not your move now" in page.inner_text("main")
            page.evaluate("window.__pbemMark = 1")
            with app.app_context():
                state = game_state(gid)
                assert submit_orders(gid, 0, state.legal_actions(0)[0].to_text(), expected_step=state.step,
                                     source="web").accepted
                db.session.remove()
            page.wait_for_selector("#order-form", timeout=6000)
            assert page.evaluate("window.__pbemMark") == 1
            site = page.eval_on_selector("#board .site.legal", "el => el.dataset.site")
            page.locator(f'#board .site.legal[data-site="{site}"]').click(force=True)
            page.wait_for_timeout(200)
            if page.locator("#order-choices").is_visible():     # several orders share the site
                page.locator("#order-choices button.choice").first.click()
            page.wait_for_function("() => document.getElementById('order-text').value.trim() !== ''")
        finally:
            browser.close()
