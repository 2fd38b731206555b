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


#: each legal site's box on the page, and the board box's visible part
_GEOMETRY = """() => {
  const box = document.getElementById('board').getBoundingClientRect();
  const sites = [...document.querySelectorAll('#board .site.legal')].map(el => {
    const r = el.getBoundingClientRect();
    return [el.dataset.site, r.left, r.right];
  });
  const b = document.getElementById('board');
  return {box: [box.left, box.right], sites, scroll: [b.scrollWidth, b.clientWidth]};
}"""


def _inside(geometry, left: float, right: float) -> list[str]:
    return [s for s, x0, x1 in geometry["sites"] if x0 >= left - 1 and x1 <= right + 1]


@pytest.mark.parametrize("kind", KINDS)
def test_a_phone_sees_every_legal_site_zooms_and_orders_by_keyboard_alone(site, kind):
    sync_api = _need_chromium()
    base, _none, app = site
    gid, seat, email, legal = _game(app, kind)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, email, 375)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            # fitted to the width: every legal site inside the screen, nothing to scroll sideways
            fit = page.evaluate(_GEOMETRY)
            assert fit["sites"] and fit["scroll"][0] <= fit["scroll"][1] + 1, fit["scroll"]
            assert len(_inside(fit, 0, 375)) == len(fit["sites"])
            _shot(page, f"keys-{kind}-1-fit")
            # zoomed in: larger, scrolled to the legal sites; the fit button brings all back
            page.click("#board-zoom [data-zoom=in]")
            zoomed = page.evaluate(_GEOMETRY)
            assert zoomed["scroll"][0] > zoomed["scroll"][1] * 1.4
            assert _inside(zoomed, *zoomed["box"])
            _shot(page, f"keys-{kind}-2-zoomed")
            page.click("#board-zoom [data-zoom=fit]")
            assert len(_inside(page.evaluate(_GEOMETRY), 0, 375)) == len(fit["sites"])
            # by keyboard alone
            assert _keyboard_order(page) in legal
            _shot(page, f"keys-{kind}-3-picked")
        finally:
            browser.close()


def test_score_headers_wrap_only_between_words_at_375_px():
    """The final scores table (game and order pages) at 375 px: a long
    tie-break column must not break "Place" or "Points" mid-word."""
    from pathlib import Path

    sync_api = _need_chromium()
    css = Path(__file__).resolve().parents[2] / "pbem" / "web" / "static" / "pbem.css"
    row = ('<tr><td>1</td><td><span class="chip">Carla Montserrat</span></td><td>118</td>'
           '<td>tie-break: 14 gold, then 3 action cards, then the earliest seat</td></tr>')
    html = ('<main class="wide"><section class="card"><table class="scores"><thead><tr><th>Place</th>'
            '<th>Player</th><th>Points</th><th>Gleichstand</th></tr></thead><tbody>' + row * 3 +
            '</tbody></table></section></main>')
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 375, "height": 800})
            page.set_content(f"<!doctype html><html lang='en'><body>{html}</body></html>")
            page.add_style_tag(path=str(css))
            lines = page.evaluate("""() => [...document.querySelectorAll('.scores th')].map(th => {
              const r = document.createRange(); r.selectNodeContents(th);
              return [th.textContent, r.getClientRects().length];
            })""")
            assert all(n == 1 for _text, n in lines), lines
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
        finally:
            browser.close()


def test_a_legal_sites_name_is_in_the_players_language(site):
    """A screen reader reads each legal site's orders: in the player's
    language, never board.js's English ("12 orders, press Enter...", "or")."""
    sync_api = _need_chromium()
    base, _none, app = site
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    gid, seat, email, _legal = _game(app, "lacitta")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, email, 1280)
            with app.app_context():   # the first sign-in took the browser's language
                db.session.query(Player).filter_by(email=email).update({"language": "fi"})
                db.session.commit()
                db.session.remove()
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            names = page.eval_on_selector_all("#board .site.legal", "els => els.map(e => e.getAttribute('aria-label'))")
            assert names and not [n for n in names if " or " in n or "orders" in n or "press Enter" in n], names[:5]
            assert any("käskyjä:" in n and "Enter" in n for n in names)
        finally:
            browser.close()
