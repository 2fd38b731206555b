"""The Carcassonne: Die Stadt order page on a 375 px phone in Debian's
chromium: each follower button shows the turned tile with the follower's
place ringed, inside the screen as is the tile previewed on the board, and
Review before the last answer asks for it instead of sending half an
order. Runs the app as test_browser_diestadt.py does.
"""
from __future__ import annotations

import pytest

from .test_browser import ARGS, CHROMIUM, _need_chromium, _shot
from .test_browser_diestadt import PEOPLE, _answers, _buttons, _choice, _click_space, _open, _state, site  # noqa: F401

pytestmark = pytest.mark.browser


def test_a_phone_sees_each_follower_on_the_tile_and_cannot_send_half_an_order(site):
    """Issue 29: follower buttons named only a compass point, the previewed
    tile lay half off a 375 px screen, and Review after a rotation alone
    sent nothing ("No orders were found"). Each follower button shows the
    turned tile with the follower's place marked, inside the screen; Review
    before the last answer asks for it instead of sending."""
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.play.lifecycle import create_game, join_game

    with app.app_context():
        gid = create_game("diestadt", PEOPLE[0][1], PEOPLE, seed=5).id
        for i in (1, 2):
            join_game(gid, i)
    state = _state(app, gid)
    seat = state.current_seats()[0]
    legal = state.legal_actions(seat)
    space, rotation = next((s, r) for s in dict.fromkeys(a.site for a in legal)
                           for r in _answers([a for a in legal if a.site == s], 0)
                           if len(_answers([a for a in legal if a.site == s], 0)) > 1
                           and len(_answers([a for a in legal if a.site == s and str(a.steps[0][1]) == r], 1)) > 2)
    turned = [a for a in legal if a.site == space and str(a.steps[0][1]) == rotation]

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, PEOPLE[seat][1], 375)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            _click_space(page, space)
            page.wait_for_selector("#order-choices:not([hidden]) button.choice")
            _choice(page, rotation).click()
            assert _buttons(page) == _answers(turned, 1)
            # each follower: the turned tile with one mark at its place; all inside the screen
            marks = page.eval_on_selector_all("#order-choices button.choice", """bs => bs.map(b => {
              const r = b.getBoundingClientRect();
              return [b.innerText.trim(), b.querySelectorAll('svg.choice-art circle').length, r.left, r.right];
            })""")
            for text, circles, left, right in marks:
                assert circles == (0 if text == "no follower" else 1), (text, circles)
                assert left >= 0 and right <= 375, (text, left, right)
            # the tile previewed on the board lies wholly inside the screen too
            tile = page.evaluate("() => { const r = document.querySelector('#board .choice-preview')"
                                 ".getBoundingClientRect(); return [r.left, r.right, r.width]; }")
            assert tile[2] > 0 and tile[0] >= 0 and tile[1] <= 375, tile
            _shot(page, "diestadt-8-phone-follower-pictures")
            # Review now: not sent; the page asks for the follower
            page.click("#review")
            page.wait_for_timeout(300)
            assert page.url == f"{base}/games/{gid}/seat/{seat + 1}"
            assert page.locator("#order-choices").is_visible()
            assert page.evaluate("!!document.activeElement.closest('#order-choices')")
            assert "not complete" in page.inner_text("#board-hint")
            _choice(page, "no follower").click()
            assert page.input_value("#order-text") == next(a for a in turned if not a.role).to_text()
        finally:
            browser.close()
