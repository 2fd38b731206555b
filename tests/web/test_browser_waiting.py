"""Live play in Debian's chromium: the page of a seat whose orders are in
(a simultaneous decision waiting for the others) looks again by itself
while its order field is empty, and never while a replacement is being
typed (the page of a seat with nothing to decide carries a meta refresh:
tests/web/test_orders.py). Reuses the running-site fixture of
test_browser.py (the reload interval shortened to 1 s)."""
from __future__ import annotations

import pytest

from tests.webapp import new_lacitta, to_a_decision_taken_at_once

from .test_browser import ARGS, CHROMIUM, _need_chromium, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser


def _to_a_decision_taken_at_once(app) -> tuple[int, list[int]]:
    """A La Città game played up to its first decision of several seats,
    the first of them with its orders stored (tests/webapp.py)."""
    from pbem.service.db import db

    with app.app_context():
        gid = new_lacitta()
        seats = to_a_decision_taken_at_once(gid)
        db.session.remove()
    return gid, seats


def _reloaded(page, wait_ms: int) -> bool:
    """Whether the page was loaded again within ``wait_ms``: a mark set on
    the current document is gone."""
    from playwright.sync_api import Error as PlaywrightError

    page.wait_for_load_state()
    page.evaluate("window.__pbemMark = 1")
    page.wait_for_timeout(wait_ms)
    try:
        page.wait_for_load_state()
        return page.evaluate("window.__pbemMark") is None
    except PlaywrightError as e:
        # the look caught the page in the middle of loading itself again
        # (seen in a full run: "Execution context was destroyed")
        if "context was destroyed" not in str(e):
            raise
        return True


def test_a_waiting_seats_page_looks_again_by_itself_but_never_over_typed_orders(site, monkeypatch):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service import links
    from pbem.web import orders

    monkeypatch.setattr(orders, "WAITING_REFRESH", 1)
    gid, seats = _to_a_decision_taken_at_once(app)
    sent = seats[0]
    with app.app_context():
        from pbem.service.models import Game
        from pbem.service.db import db

        players = {s.index: s.player_id for s in db.session.get(Game, gid).seats}
        db.session.remove()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            def order_page(seat: int):
                page = browser.new_context().new_page()
                page.set_default_timeout(15000)
                with app.app_context():
                    page.goto(links.signin_url(players[seat], links.order_path(gid, seat)))
                page.click("#continue")
                page.wait_for_url(f"{base}/games/{gid}/seat/{seat + 1}")
                return page

            # orders in, field empty: the page looks again by itself
            mine = order_page(sent)
            assert "Your orders are in" in mine.inner_text("#orders")
            assert _reloaded(mine, 2500)
            # a replacement being typed: never reloaded under it
            mine.fill("#order-text", "pass")
            assert not _reloaded(mine, 2500)
            assert mine.input_value("#order-text") == "pass"
        finally:
            browser.close()
