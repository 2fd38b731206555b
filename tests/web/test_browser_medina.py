"""The Medina order page in Debian's chromium: seat 1 signs in from the
link in its emailed turn notice, places a wall piece and then a palace
piece by clicking the board (the page asks the server for the second
piece's legal sites and redraws the board with the first piece on it),
reviews both lines, sends them in one submission, and seat 2's turn
notice arrives in the mail sink.

Reuses the running-site fixture and mail helpers of test_browser.py.
"""
from __future__ import annotations

import time

import pytest

from pbem.mail.flowed import plain_text

from .test_browser import (  # noqa: F401  (site is a fixture)
    ARGS, CHROMIUM, _mails, _need_chromium, _order_page_from_notice, _shot, site,
)

pytestmark = pytest.mark.browser

PEOPLE = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


def _legal_sites(page) -> list[str]:
    return page.eval_on_selector_all("#board .site.legal", "els => els.map(e => e.dataset.site)")


def _pick(page, label: str) -> str:
    """Choose ``label`` and click its first highlighted site; the site."""
    page.select_option("#order-label", label)
    sites = _legal_sites(page)
    assert sites, f"no site highlighted for {label}"
    page.locator(f'#board .site.legal[data-site="{sites[0]}"]').click(force=True)
    return sites[0]


def test_medina_two_pieces_by_clicking_the_board_then_next_seat_notified(site):
    sync_api = _need_chromium()
    base, mail_dir, app = site
    from pbem.engine import get_game
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import create_game, join_game
    from pbem.service.play.orders import submit_orders

    with app.app_context():
        gid = create_game("medina", PEOPLE[0][1], PEOPLE, seed=21).id
        for i in (1, 2):
            join_game(gid, i)
        # the start merchant (setup, one piece) by email-less submission, so seat 1 owes a full turn
        state = get_game("medina").state_from_json(db.session.get(Game, gid).state)
        assert submit_orders(gid, 0, state.legal_actions(0)[0].to_text(), expected_step=state.step,
                             source="web").accepted
        db.session.remove()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # the notice of seat 1's first full turn (step 1; step 0 was the start merchant)
            end = time.monotonic() + 15
            found = []
            while time.monotonic() < end and not found:
                found = [m for m in _mails(mail_dir, "ada@example.org")
                         if f"pbem.{gid}.0.1.turn" in (m["Message-ID"] or "")]
                time.sleep(0.1)
            assert found, "no turn notice for seat 1's first turn"
            notice = found[0]
            ada = _order_page_from_notice(browser, notice, base, gid, 1)
            _shot(ada, "medina-1-order")

            # first piece: a wall piece on a highlighted wall space
            wall = _pick(ada, "wall")
            assert wall.startswith("W")
            ada.wait_for_function(
                "() => document.getElementById('board-hint').textContent.includes('another order')")
            assert ada.input_value("#order-text") == f"wall {wall}"
            assert "piece 2 of 2" in ada.text_content("#view-text")
            assert "piece 2 of 2" in ada.text_content("#decision .owes")
            # the board is redrawn for the second piece: that wall space is taken now
            ada.select_option("#order-label", "wall")
            assert wall not in _legal_sites(ada)
            _shot(ada, "medina-2-first-piece")

            # second piece: a grey palace piece on a highlighted square
            square = _pick(ada, "palace grey")
            ada.wait_for_function(
                "() => document.getElementById('board-hint').textContent.includes('complete')")
            assert ada.input_value("#order-text") == f"wall {wall}\npalace grey {square}"
            _shot(ada, "medina-3-second-piece")

            ada.click("#review")
            assert ada.locator("code.order").all_inner_texts() == [f"wall {wall}", f"palace grey {square}"]
            _shot(ada, "medina-4-confirm")
            before = {m["Message-ID"] for m in _mails(mail_dir, "bo@example.org")}
            ada.click("#confirm")
            ada.wait_for_url(f"{base}/games/{gid}/seat/1")
            assert "Not your move now" in ada.content()

            # Bo's turn notice is in the sink and says what seat 1 placed
            end = time.monotonic() + 15
            fresh = []
            while time.monotonic() < end and not fresh:
                fresh = [m for m in _mails(mail_dir, "bo@example.org") if m["Message-ID"] not in before]
                time.sleep(0.1)
            assert fresh, "seat 2 was not notified"
            body = plain_text(fresh[0])
            assert wall in body and square in body
            assert [p for p in fresh[0].walk() if p.get_content_type() == "image/png"]
        finally:
            browser.close()
