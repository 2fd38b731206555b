"""La Città's year-end choices on the order page in Debian's chromium: a
famine's orders for several cities are built by clicking, one line per
city (a city clicked again changes its line), shown in the field and
reviewed together (issue 29: a second pick replaced the first). The
expected orders come from the engine's legal orders.

Runs the app on a free port as test_browser_diestadt.py does.
"""
from __future__ import annotations

import pytest

from .test_browser import ARGS, CHROMIUM, _need_chromium, _shot
from .test_browser_diestadt import _open, _state, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser


def _pick(page, site: str, order: str) -> None:
    """Click ``site``; if the page asks which order, the button ``order``."""
    page.locator(f'#board .site.legal[data-site="{site}"]').click(force=True)
    page.wait_for_timeout(100)
    if page.locator("#order-choices").is_visible():
        page.locator("#order-choices").get_by_role("button", name=order, exact=True).click()


def test_a_famine_in_several_cities_is_built_by_clicking_one_line_per_city(site):
    sync_api = _need_chromium()
    base, _none, app = site
    from pbem.web.tour import PLAYERS, new_game, play

    with app.app_context():
        gid = new_game("lacitta", 1)
        play(gid, 1, 15)
    state = _state(app, gid)
    seat = 0
    assert state.view(seat)["decision"]["kind"] == "starve"
    excess = int(state.view(seat)["pending"][str(seat)].split()[1])
    legal = [a.to_text() for a in state.legal_actions(seat)]
    cities = list(dict.fromkeys(a.site for a in state.legal_actions(seat)))
    first, second = cities[:2]
    assert excess >= 3 and f"starve {second} {excess - 2}" in legal
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, PLAYERS[seat][1], 375)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            _pick(page, first, f"starve {first} 2")
            page.wait_for_function("() => document.getElementById('order-text').value.trim() !== ''")
            _pick(page, second, f"starve {second} {excess - 2}")
            page.wait_for_function("(n) => document.getElementById('order-text').value.split('\\n').length === n",
                                   arg=2)
            # the first city again: its line changes, the other stays
            _pick(page, first, f"starve {first} 1")
            both = f"starve {second} {excess - 2}\nstarve {first} 1"
            page.wait_for_function("(t) => document.getElementById('order-text').value === t", arg=both)
            assert f"starve {second} {excess - 2}" in page.inner_text("#board-hint")
            _shot(page, "yearend-famine-set")
            page.click("#review")
            assert page.locator("code.order").all_inner_texts() == [f"starve {second} {excess - 2}",
                                                                    f"starve {first} 1"]
        finally:
            browser.close()
