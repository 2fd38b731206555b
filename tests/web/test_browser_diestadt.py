"""The Carcassonne: Die Stadt order page in Debian's chromium: a seat
clicks a highlighted space, picks one of the legal rotations (buttons
showing the drawn tile turned), then a follower placement or none; the
order text is filled in, reviewed and sent, and the engine took it. A
space where only one rotation fits asks the follower only; a click on a
placed tile says why (the engine's explanation); at 375 px the page does
not scroll sideways. The expected choices come from the engine's legal
orders (``Action.steps``), not from the page.

Reuses the running-site fixture of test_browser.py.
"""
from __future__ import annotations

import pytest

from pbem.web.tour_browser import overflow, widest

from .test_browser import ARGS, CHROMIUM, _need_chromium, _shot, site  # noqa: F401  (site is a fixture)

pytestmark = pytest.mark.browser

PEOPLE = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


def _state(app, gid):
    from pbem.service.db import db
    from pbem.service.models import Game
    from pbem.service.snapshot import engine_state

    with app.app_context():
        db.session.rollback()
        state = engine_state(db.session.get(Game, gid))
        db.session.remove()
    return state


def _open(browser, app, base, email, width):
    from sqlalchemy import select

    from pbem.service import links
    from pbem.service.db import db
    from pbem.service.models import Player

    with app.app_context():
        pid = db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()
        link = links.signin_url(pid, "/")
        db.session.remove()
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(15000)
    page.goto(link)
    page.click("#continue")
    page.wait_for_load_state()
    return page


def _answers(actions, step):
    """The distinct answers of ``step`` among ``actions``, in engine order."""
    return list(dict.fromkeys(str(a.steps[step][1]) for a in actions))


def _buttons(page) -> list[str]:
    return [t.strip() for t in page.locator("#order-choices button.choice").all_inner_texts()]


def _choice(page, answer: str):
    return page.locator("#order-choices").get_by_role("button", name=answer, exact=True)


def _click_space(page, space: str) -> None:
    page.locator(f'#board .site.legal[data-site="{space}"]').click(force=True)


def test_space_then_rotation_then_follower_fills_the_order_and_it_is_accepted(site):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.lifecycle import create_game, join_game

    with app.app_context():
        gid = create_game("diestadt", PEOPLE[0][1], PEOPLE, seed=5).id
        for i in (1, 2):
            join_game(gid, i)
    state = _state(app, gid)
    seat = state.current_seats()[0]
    legal = state.legal_actions(seat)
    # a space and rotation that leave a choice of followers
    space = next(s for s in dict.fromkeys(a.site for a in legal)
                 if any(len(_answers([a for a in legal if a.site == s and a.rotation == r], 1)) > 1
                        for r in {a.rotation for a in legal if a.site == s}))
    here = [a for a in legal if a.site == space]
    rotations = _answers(here, 0)

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, PEOPLE[seat][1], 1280)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            _shot(page, "diestadt-1-order")
            _click_space(page, space)
            page.wait_for_selector("#order-choices:not([hidden]) button.choice")
            if len(rotations) > 1:
                # the rotations that fit, each with the drawn tile turned so
                assert _buttons(page) == rotations
                assert page.locator("#order-choices button.choice svg.choice-art").count() == len(rotations)
                assert page.evaluate("document.activeElement.classList.contains('choice')")
                rotation = next(r for r in rotations
                                if len(_answers([a for a in here if str(a.steps[0][1]) == r], 1)) > 1)
                _shot(page, "diestadt-2-rotations")
                _choice(page, rotation).click()
            else:
                rotation = rotations[0]
            # the followers legal with that rotation, "no follower" among them
            turned = [a for a in here if str(a.steps[0][1]) == rotation]
            followers = _answers(turned, 1)
            assert _buttons(page) == followers and "no follower" in followers
            assert rotation in page.inner_text("#order-choices .choice-q")
            assert page.locator("#board .choice-preview").count() == 1   # the tile drawn on the space
            _shot(page, "diestadt-3-followers")
            chosen = next(a for a in turned if a.role)
            # keyboard: the buttons are reachable; Enter on the focused one picks it
            _choice(page, str(chosen.steps[1][1])).focus()
            page.keyboard.press("Enter")
            assert page.locator("#order-choices").is_hidden()
            assert page.input_value("#order-text") == chosen.to_text()
            _shot(page, "diestadt-4-picked")
            page.click("#review")
            assert page.locator("code.order").inner_text() == chosen.to_text()
            page.click("#confirm")
            page.wait_for_url(f"{base}/games/{gid}/seat/{seat + 1}")
            after = _state(app, gid)
            assert after.step > state.step
            placed = [t for t in after.view(None)["tiles"] if t["space"] == space]
            assert placed and placed[0]["rotation"] == chosen.rotation
            assert any(f["space"] == space and f["role"] == chosen.role for f in after.view(None)["followers"])
        finally:
            browser.close()


def test_one_rotation_is_not_asked_a_placed_tile_says_why_and_a_phone_does_not_scroll(site):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.service.lifecycle import create_game, join_game
    from pbem.boards.diestadt.city import frontier
    from pbem.boards.diestadt.geometry import plan
    from pbem.web.tour import play

    # a position where some space takes the drawn tile in one rotation only
    for seed in range(1, 30):
        with app.app_context():
            gid = create_game("diestadt", PEOPLE[0][1], PEOPLE, seed=seed).id
            for i in (1, 2):
                join_game(gid, i)
            play(gid, seed, 1)
        state = _state(app, gid)
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        single = [s for s in dict.fromkeys(a.site for a in legal if a.site)
                  if len(_answers([a for a in legal if a.site == s], 0)) == 1]
        nowhere = frontier(plan(state.view(seat), []))
        if single and nowhere and state.decision == "tile":
            break
    else:
        pytest.fail("no position with a one-rotation space")
    space = single[0]
    here = [a for a in legal if a.site == space]
    taken = state.view(None)["tiles"][0]["space"]

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, PEOPLE[seat][1], 375)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            widths = overflow(page)
            assert widths["scroll"] <= widths["client"], widest(page)
            # a placed tile: the engine says why not
            page.locator(f'#board .site[data-site="{taken}"]').click(force=True)
            page.wait_for_function("() => document.getElementById('board-hint').textContent.startsWith('Not ')")
            assert "already holds a tile" in page.inner_text("#board-hint")
            # an empty space beside the city where the drawn tile fits in no rotation
            page.locator(f'#board .site[data-site="{nowhere[0]}"]').click(force=True)
            page.wait_for_function("(s) => document.getElementById('board-hint').textContent.startsWith('Not ' + s)",
                                   arg=nowhere[0])
            assert f"fits on {nowhere[0]} in no rotation" in page.inner_text("#board-hint")
            _shot(page, "diestadt-5-phone-refused")
            _click_space(page, space)
            if len(here) > 1:
                page.wait_for_selector("#order-choices:not([hidden]) button.choice")
                assert _buttons(page) == _answers(here, 1)          # the follower, not the rotation
                assert str(here[0].steps[0][1]) in page.inner_text("#order-choices .choice-q")
                _shot(page, "diestadt-6-phone-followers")
                widths = overflow(page)
                assert widths["scroll"] <= widths["client"], widest(page)
                _choice(page, "no follower").click()
            no_follower = next(a for a in here if not a.role)
            assert page.input_value("#order-text") == no_follower.to_text()
            _shot(page, "diestadt-7-phone-picked")
        finally:
            browser.close()
