"""A practice game against a bot, played to its end in Debian's chromium
(issue 27): the person's orders through the order page, the bot's answers
made in between, the final scores and the bot's orders marked on the game page."""
from __future__ import annotations

import pytest

from tests.service.tinygame import GAME as TALLY

from .test_browser import ARGS, CHROMIUM, _need_chromium, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser


def test_a_practice_game_against_a_bot_is_played_to_its_end(site, monkeypatch):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.engine import GAMES
    from pbem.service.core import links
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import SeatSpec, create_game

    monkeypatch.setitem(GAMES, "tally", TALLY)
    app.config["BOT_SECONDS"] = 0.05
    with app.app_context():
        game = create_game("tally", "ada@example.org", [SeatSpec("ada@example.org", "Ada"), SeatSpec(bot="greedy")],
                           seed=4)
        gid, ada = game.id, game.seats[0].player_id
        assert game.person_paced
        signin = links.signin_url(ada, links.order_path(gid, 0))
        db.session.remove()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(15000)
            page.goto(signin)
            page.click("#continue")
            page.wait_for_url(f"{base}/games/{gid}/seat/1")
            for _ in range(30):
                if page.locator("#order-text").count() == 0:
                    break
                bidding = "Bidding" in page.inner_text(".phase")
                page.fill("#order-text", "bid 0" if bidding else "add 3")
                page.click("#review")
                page.click("#confirm")
                page.wait_for_url(f"{base}/games/{gid}/seat/1")
            with app.app_context():
                assert db.session.get(Game, gid).status == "finished"
                db.session.remove()
            page.goto(f"{base}/games/{gid}")
            text = page.inner_text("main")
            assert "Final scores" in text and "Greedy bot" in text and "(bot's order)" in text
        finally:
            browser.close()
