"""The Carcassonne: Die Stadt order page in Debian's chromium: a seat
clicks a highlighted space, picks one of the legal rotations (buttons
showing the drawn tile turned), then a follower placement or none; the
order text is filled in, reviewed and sent, and the engine took it. A
space where only one rotation fits asks the follower only; a click on a
placed tile says why (the engine's explanation); at 375 px the page does
not scroll sideways. The expected choices come from the engine's legal
orders (``Action.steps``), not from the page.

Runs the app on a free port as test_browser.py does, mail left in the outbox.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem_dev.tour_browser import overflow, widest

from .test_browser import ARGS, CHROMIUM, _need_chromium, _shot

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path):
    """(base URL, None, app) of a running pbem whose mail stays in the
    outbox (the games here are played to their wall round through the
    service; mail is not what these tests are about)."""
    import threading

    from werkzeug.serving import make_server

    from pbem.mail.sink import free_port
    from pbem.service.core.db import db
    from pbem.web import create_app

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = create_app({
        "INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "browser-test-secret",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'pbem.sqlite'}",
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}", "CELERY_EAGER": True,
        "DELIVER_AFTER_COMMIT": False, "SMTP_PORT": 1, "INBOUND_ADDRESS": "play@pbem.test",
        "MAIL_FROM": "pbem <pbem@pbem.test>", "BASE_URL": base,
    })
    app.extensions["celery"].conf.task_always_eager = True
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base, None, app
    finally:
        server.shutdown()
        thread.join(10)
        with app.app_context():
            db.engine.dispose()

PEOPLE = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


def _state(app, gid):
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.core.snapshot import engine_state

    with app.app_context():
        db.session.rollback()
        state = engine_state(db.session.get(Game, gid))
        db.session.remove()
    return state


def _axe(page) -> list[str]:
    """Serious or critical axe-core violations on the page as it is now."""
    page.add_script_tag(content=(Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8"))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes'][:3]]}" for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


def _open(browser, app, base, email, width):
    from sqlalchemy import select

    from pbem.service.core import links
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    with app.app_context():
        pid = db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()
        link = links.signin_url(pid, "/")
        db.session.remove()
    page = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True).new_page()
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
    from pbem.service.play.lifecycle import create_game, join_game

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
                assert not _axe(page)
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
            # the focused answer rings its spot on the space: north up, east right
            ring, square = page.evaluate("""(s) => {
              const r = document.querySelector('#board .choice-mark circle').getBoundingClientRect();
              const q = document.querySelector(`#board .site[data-site="${s}"] .hex`).getBoundingClientRect();
              return [[r.x + r.width / 2, r.y + r.height / 2], [q.x, q.y, q.width, q.height]];
            }""", space)
            fx, fy = (ring[0] - square[0]) / square[2], (ring[1] - square[1]) / square[3]
            assert ("N" in chosen.point) == (fy < 0.4) and ("S" in chosen.point) == (fy > 0.6), (chosen.point, fy)
            assert ("E" in chosen.point) == (fx > 0.6) and ("W" in chosen.point) == (fx < 0.4), (chosen.point, fx)
            page.keyboard.press("Enter")
            assert page.locator("#board .choice-mark circle").count() == 1      # it stays once chosen
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
    from pbem.service.play.lifecycle import create_game, join_game
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
        # one rotation fits there, with a choice of followers
        single = [s for s in dict.fromkeys(a.site for a in legal if a.site)
                  if len(_answers([a for a in legal if a.site == s], 0)) == 1
                  and len([a for a in legal if a.site == s]) > 1]
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
            # by keyboard: the space has the focus, Enter picks it; Escape drops the question
            page.focus(f'#board .site.legal[data-site="{space}"]')
            page.keyboard.press("Enter")
            page.wait_for_selector("#order-choices:not([hidden]) button.choice")
            page.keyboard.press("Escape")
            assert page.locator("#order-choices").is_hidden() and page.input_value("#order-text") == ""
            page.focus(f'#board .site.legal[data-site="{space}"]')
            page.keyboard.press("Enter")
            page.wait_for_selector("#order-choices:not([hidden]) button.choice")
            assert _buttons(page) == _answers(here, 1)          # the follower, not the rotation
            assert str(here[0].steps[0][1]) in page.inner_text("#order-choices .choice-q")
            assert page.locator("#order-choices").get_by_role("button", name="Back").count() == 0
            _shot(page, "diestadt-6-phone-followers")
            widths = overflow(page)
            assert widths["scroll"] <= widths["client"], widest(page)
            _choice(page, "no follower").click()
            no_follower = next(a for a in here if not a.role)
            assert page.input_value("#order-text") == no_follower.to_text()
            _shot(page, "diestadt-7-phone-picked")
        finally:
            browser.close()


def _moves_to(kind: str, seed: int, want) -> int | None:
    """How many of :func:`pbem.web.tour.play`'s seeded random orders lead
    to the first ``kind`` decision of the game of ``seed``, if ``want(state)``
    holds there (engine only, fast)."""
    import random

    from pbem.engine import get_game

    state = get_game("diestadt").new_state(3, seed)
    rng = random.Random(seed)
    moves = 0
    while state.decision != kind:
        if state.is_terminal():
            return None
        seat = state.current_seats()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
    return moves if want(state) else None


def _play_to(app, kind: str, want=lambda state: True):
    """A game played through the service to the first ``kind`` decision
    where ``want(state)`` holds: (game id, seat that owes it)."""
    from pbem.web.tour import new_game, play

    seed, moves = next((s, m) for s in range(1, 60) if (m := _moves_to(kind, s, want)) is not None)
    with app.app_context():
        gid = new_game("diestadt", seed)
        play(gid, seed, moves)
    state = _state(app, gid)
    assert state.decision == kind
    return gid, state.current_seats()[0]


def two_corners(state) -> bool:
    """The seat deciding has a tower at either end (two corners to click)."""
    return sum(1 for a in state.legal_actions(state.current_seats()[0]) if a.site) > 1


def _send(page, base, gid, seat, text):
    assert page.input_value("#order-text") == text
    page.click("#review")
    assert page.locator("code.order").inner_text() == text
    page.click("#confirm")
    page.wait_for_url(f"{base}/games/{gid}/seat/{seat + 1}")


def test_gate_then_wall_piece_by_clicking_an_edge_and_answering_the_guard_question(site):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.web.tour import PLAYERS

    # a gate decision of a seat with a follower left: it may put a guard on the gate
    gid, seat = _play_to(app, "gate", lambda st: st.supply[st.current_seats()[0]] > 0)
    state = _state(app, gid)
    gates = [a for a in state.legal_actions(seat) if a.site]
    # an edge where a guard may stand or not (not every one: A-13 and its neighbours)
    edge = next(a.site for a in gates if len(_answers([b for b in gates if b.site == a.site], 0)) == 2)
    guards = _answers([a for a in gates if a.site == edge], 0)
    assert sorted(guards) == ["no guard", "with a guard"]

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, PLAYERS[seat][1], 1280)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            assert sorted(page.eval_on_selector_all("#board .site.legal", "els => els.map(e => e.dataset.site)")) \
                == sorted({a.site for a in gates})
            _click_space(page, edge)
            page.wait_for_selector("#order-choices:not([hidden]) button.choice")
            assert _buttons(page) == guards
            _shot(page, "diestadt-8-gate-guard")
            _choice(page, "with a guard").click()
            gate = next(a for a in gates if a.site == edge and a.guard)
            _send(page, base, gid, seat, gate.to_text())
            after = _state(app, gid)
            assert after.view(None)["wall"]["gate"] == edge and after.view(None)["wall"]["guards"] == {edge: seat}

            # the next seat builds a wall piece at an end: the edge, then the guard question
            builder = after.current_seats()[0]
            assert after.decision == "wall"
            pieces = [a for a in after.legal_actions(builder) if a.site]
            piece = next(a for a in pieces if not a.guard)
            other = page if builder == seat else _open(browser, app, base, PLAYERS[builder][1], 375)
            other.goto(f"{base}/games/{gid}/seat/{builder + 1}")
            _click_space(other, piece.site)
            if len([a for a in pieces if a.site == piece.site]) > 1:
                other.wait_for_selector("#order-choices:not([hidden]) button.choice")
                _shot(other, "diestadt-9-wall-guard-phone")
                widths = overflow(other)
                assert widths["scroll"] <= widths["client"], widest(other)
                _choice(other, "no guard").click()
            _send(other, base, gid, builder, piece.to_text())
            assert piece.site in _state(app, gid).view(None)["wall"]["pieces"]
        finally:
            browser.close()


def test_tower_by_clicking_a_corner_or_no_tower_by_its_button(site):
    sync_api = _need_chromium()
    base, _mail_dir, app = site
    from pbem.web.tour import PLAYERS

    gid, seat = _play_to(app, "tower", two_corners)
    state = _state(app, gid)
    towers = [a for a in state.legal_actions(seat) if a.site]
    assert towers and any(not a.site for a in state.legal_actions(seat))     # "no tower"
    tower = towers[0]

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = _open(browser, app, base, PLAYERS[seat][1], 375)
            page.goto(f"{base}/games/{gid}/seat/{seat + 1}")
            assert sorted(page.eval_on_selector_all("#board .site.legal", "els => els.map(e => e.dataset.site)")) \
                == sorted(a.site for a in towers)
            page.locator("#order-quick").get_by_role("button", name="no tower", exact=True).click()
            assert page.input_value("#order-text") == "no tower"
            _shot(page, "diestadt-10-tower-phone")
            widths = overflow(page)
            assert widths["scroll"] <= widths["client"], widest(page)
            # a corner: one order there, so nothing is asked; it is the same
            # decision as 'no tower', so it replaces that line (never added
            # as a line held for later), and so does the other corner
            _click_space(page, tower.site)
            assert page.locator("#order-choices").is_hidden()
            field_is = "(t) => document.getElementById('order-text').value === t"
            page.wait_for_timeout(300)
            page.wait_for_function(field_is, arg=tower.to_text())
            for corner in (towers[1], tower):
                page.select_option("#order-label", corner.label)   # a pick chose the other corner's label
                _click_space(page, corner.site)
                page.wait_for_timeout(300)
                page.wait_for_function(field_is, arg=corner.to_text())
            _send(page, base, gid, seat, tower.to_text())
            assert any(t["corner"] == tower.site and t["seat"] == seat for t in _state(app, gid).view(None)["towers"])
        finally:
            browser.close()

