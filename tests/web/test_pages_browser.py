"""Every page in Debian's chromium (the tour of pbem/web/tour.py: the order
page of each kind of decision of every game, the game pages, sign-in,
dashboard, new game, account, rules, errors):

- no page scrolls sideways at 375 px (a phone) or 1280 px;
- axe-core (vendored, tests/web/vendor) finds no serious or critical
  accessibility violation;
- the board's sites are reachable and choosable by keyboard; a click on a
  site no order can use says why; the decision banners say what is owed.

``PBEM_SCREENSHOTS=<dir>`` keeps a screenshot of every page at both widths.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, open_as, overflow, running_tour, widest

from .test_browser import _need_chromium

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SHOTS = os.environ.get("PBEM_SCREENSHOTS")
WIDTHS = (375, 1280)


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    with running_tour(tmp_path_factory.mktemp("tour")) as t:
        yield t


@pytest.fixture(scope="module")
def browser():
    sync_api = _need_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _pages_by_reader(tour):
    by: dict[str | None, list[tuple[str, str]]] = {}
    for name, (email, path) in tour.everything().items():
        by.setdefault(email, []).append((name, path))
    return by


def test_the_tour_reaches_every_decision_kind(tour):
    """The staged games cover what the pages must show: each game's
    decisions with a banner, and a finished game."""
    phases = {(s.kind, s.phase) for s in tour.stops}
    assert {("lacitta", "political"), ("lacitta", "starve"), ("lacitta", "demolish"), ("lacitta", "wish"),
            ("lacitta", "over"), ("medina", "start_merchant"), ("medina", "piece1"),
            ("medina", "piece2"), ("medina", "over")} <= phases


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways(tour, browser, width):
    wide = []
    for email, pages in _pages_by_reader(tour).items():
        page = open_as(browser, tour, email, width)
        try:
            for name, path in pages:
                page.goto(tour.base + path)
                size = overflow(page)
                if SHOTS:
                    Path(SHOTS).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=True)
                if size["scroll"] > size["client"]:
                    wide.append(f"{name} ({path}): {size['scroll']} > {size['client']}: {widest(page)}")
        finally:
            page.context.close()
    assert not wide, "\n".join(wide)


def test_axe_finds_no_serious_or_critical_violation(tour, browser):
    script = AXE.read_text(encoding="utf-8")
    found = []
    for email, pages in _pages_by_reader(tour).items():
        page = open_as(browser, tour, email, 1280, bypass_csp=True)
        try:
            for name, path in pages:
                page.goto(tour.base + path)
                page.add_script_tag(content=script)
                result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
                for v in result["violations"]:
                    if v["impact"] in ("serious", "critical"):
                        where = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                                          for n in v["nodes"][:3])
                        found.append(f"{name}: {v['id']} ({v['impact']}): {v['help']} — {where}")
        finally:
            page.context.close()
    assert not found, "\n".join(found)


def _stop(tour, kind, phase):
    return next(s for s in tour.stops if (s.kind, s.phase) == (kind, phase))


def test_board_sites_reachable_and_choosable_by_keyboard(tour, browser):
    stop = _stop(tour, "lacitta", "political")
    page = open_as(browser, tour, stop.email, 1280)
    try:
        page.goto(tour.base + stop.path)
        page.select_option("#order-label", label=page.eval_on_selector(
            "#order-label", "s => [...s.options].find(o => / site/.test(o.textContent)).textContent"))
        page.focus("#order-label")
        for _ in range(400):            # Tab on until a site of the board has the focus
            page.keyboard.press("Tab")
            if page.evaluate("() => !!document.activeElement.closest('#board .site.legal')"):
                break
        else:
            pytest.fail("no legal site of the board is reachable with Tab")
        first = page.evaluate("() => document.activeElement.closest('.site').dataset.site")
        # one Tab stop: the arrow keys move to the next legal site
        page.keyboard.press("ArrowRight")
        site = page.evaluate("() => document.activeElement.closest('.site').dataset.site")
        assert site != first
        assert page.eval_on_selector_all("#board .site.legal[tabindex='0']", "els => els.length") == 1
        label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        page.keyboard.press("Enter")
        # the site's name is what it shows, then the order it picks
        assert label.endswith(": " + page.input_value("#order-text")), label
        assert "picked" in page.get_attribute(f'#board .site[data-site="{site}"]', "class")
    finally:
        page.context.close()


def test_click_on_a_site_no_order_uses_says_why(tour, browser):
    stop = _stop(tour, "medina", "piece1")
    page = open_as(browser, tour, stop.email, 1280)
    try:
        page.goto(tour.base + stop.path)
        page.select_option("#order-label", "wall")
        legal = set(page.eval_on_selector_all("#board .site.legal", "els => els.map(e => e.dataset.site)"))
        other = next(s for s in page.eval_on_selector_all("#board .site", "els => els.map(e => e.dataset.site)")
                     if s.startswith("W") and s not in legal)
        page.locator(f'#board .site[data-site="{other}"]').click(force=True)
        page.wait_for_function("() => document.getElementById('board-hint').textContent.startsWith('Not ')")
        hint = page.text_content("#board-hint")
        assert other in hint and ("tower" in hint or "wall" in hint), hint
        assert page.input_value("#order-text") == ""
    finally:
        page.context.close()


@pytest.mark.parametrize("kind,phase,says", [
    ("lacitta", "starve", "Famine"), ("lacitta", "demolish", "Demolition"), ("lacitta", "wish", "wish"),
    ("medina", "piece1", "piece 1 of 2"), ("medina", "piece2", "piece 2 of 2"),
])
def test_decision_banner_says_what_is_owed_and_links_the_rule(tour, browser, kind, phase, says):
    stop = _stop(tour, kind, phase)
    page = open_as(browser, tour, stop.email, 375)
    try:
        page.goto(tour.base + stop.path)
        banner = page.locator("#decision")
        assert says.lower() in banner.locator(".owes").text_content().lower()
        assert banner.locator(".rule").text_content().strip()
        href = banner.locator(".rule a").get_attribute("href")
        page.goto(tour.base + href)
        assert page.locator(f"section{href[href.index('#'):]} h2").is_visible()
    finally:
        page.context.close()


def test_two_digit_history_numbers_fit_in_the_margin(tour, browser):
    """"22." must not be clipped to ".2.": the list's left padding holds the
    widest two-digit marker in the list's own font."""
    stop = _stop(tour, "lacitta", "wish")
    page = open_as(browser, tour, stop.email, 375)
    try:
        page.goto(tour.base + stop.path)
        assert page.locator("ol.log li").count() >= 10
        room, need = page.evaluate("""() => {
          const ol = document.querySelector('ol.log'), probe = document.createElement('span');
          probe.textContent = '88. '; probe.style.whiteSpace = 'pre';
          ol.querySelector('li').appendChild(probe);
          const need = probe.getBoundingClientRect().width;
          probe.remove();
          return [parseFloat(getComputedStyle(ol).paddingLeft), need];
        }""")
        assert room >= need, (room, need)
    finally:
        page.context.close()


@pytest.mark.parametrize("kind,phase", [("lacitta", "political"), ("medina", "piece1")])
def test_review_page_fits_a_phone_and_passes_axe(tour, browser, kind, phase):
    """The confirmation page (a POST, so not in the tour's list of GETs)."""
    stop = _stop(tour, kind, phase)
    page = open_as(browser, tour, stop.email, 375, bypass_csp=True)
    try:
        page.goto(tour.base + stop.path)
        first = page.eval_on_selector("#legal-orders", "s => JSON.parse(s.textContent).find(o => o.site).text")
        page.fill("#order-text", first)
        page.click("#review")
        page.wait_for_selector("#confirm")
        size = overflow(page)
        assert size["scroll"] <= size["client"], widest(page)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
        bad = [f"{v['id']}: {v['help']}" for v in result["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, bad
    finally:
        page.context.close()
