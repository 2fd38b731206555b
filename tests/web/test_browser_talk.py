"""Table talk in Debian's chromium at 375 and 1280 px (issue 26): the
thread on the order page with recipients on every message, a private
message written through the form by choosing a recipient by name, the
page does not scroll sideways, and the recipient (not the third seat)
reads it. Screenshots in ``$PBEM_SHOTS`` (default: the test's folder)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, open_as, overflow, running_tour, widest

pytestmark = pytest.mark.browser


def _seed(tour, gid: int) -> None:
    from sqlalchemy import select

    from pbem.service.core.db import db
    from pbem.service.core.models import Player
    from pbem.service.play import talk

    with tour.app.app_context():
        ids = {e: db.session.execute(select(Player.id).where(Player.email == e)).scalar_one()
               for e in ("ada@example.org", "bo@example.org", "cy@example.org")}
        talk.post_message(gid, 1, ids["bo@example.org"], "Who takes the market this year? "
                          "Rules: https://example.org/lacitta-rules", to=talk.ALL)
        talk.post_message(gid, 2, ids["cy@example.org"], "Ada, keep away from my palace by the river and "
                          "I will leave you the hill.", to=[0])
        db.session.remove()


@pytest.mark.parametrize("width", [375, 1280])
def test_talk_thread_and_form_in_chromium(tmp_path, width):
    if not os.path.exists(CHROMIUM):
        pytest.skip("no chromium")
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("PBEM_SHOTS") or tmp_path)
    with running_tour(tmp_path / "tour", seeds=(7,)) as tour, sync_playwright() as pw:
        stop = next(s for s in tour.stops if s.kind == "lacitta")
        gid = stop.game_id
        _seed(tour, gid)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            ada = open_as(browser, tour, "ada@example.org", width)
            ada.goto(f"{tour.base}/games/{gid}/seat/1#talk")
            thread = ada.locator("#talk")
            assert "keep away from my palace" in thread.inner_text()
            ada.locator("#talk-to-all").uncheck()
            ada.locator("#talk-form label", has_text="Bo").locator("input").check()
            ada.fill("#talk-body", "Bo, the market is yours if you build me a road.")
            ada.click("#talk-send")
            ada.wait_for_load_state()
            assert "the market is yours" in ada.locator("#talk").inner_text()
            size = overflow(ada)
            assert size["scroll"] <= size["client"], widest(ada)
            ada.locator("#talk").scroll_into_view_if_needed()
            ada.screenshot(path=str(shots / f"talk-order-{width}.png"), full_page=False)
            ada.locator("#talk").screenshot(path=str(shots / f"talk-card-{width}.png"))
            bo = open_as(browser, tour, "bo@example.org", width)
            bo.goto(f"{tour.base}/games/{gid}/seat/2#talk")
            assert "the market is yours" in bo.locator("#talk").inner_text()
            assert "keep away from my palace" not in bo.content()
            cy = open_as(browser, tour, "cy@example.org", width)
            cy.goto(f"{tour.base}/games/{gid}/seat/3#talk")
            assert "the market is yours" not in cy.content()
            ada.goto(f"{tour.base}/games/{gid}#host-talk")
            ada.locator("#host-talk summary").click()
            ada.locator("#host-talk").screenshot(path=str(shots / f"talk-host-{width}.png"))
        finally:
            browser.close()
