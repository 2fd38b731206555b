"""board.js in Debian's chromium: choosing a label highlights its sites, a
click on a legal site fills the order field, other clicks do nothing."""
from __future__ import annotations

import json

import pytest

from pbem.boards import STATIC_DIR, render_svg
from pbem.engine.lacitta.board import BEGINNER

pytestmark = pytest.mark.browser

ORDERS = [
    {"label": "build farm", "site": "F6", "text": "build farm F6"},
    {"label": "build farm", "site": "G6", "text": "build farm G6"},
    {"label": "build market", "site": "G6", "text": "build market G6"},
    {"label": "found from J2", "site": "D6", "text": "found D6 from J2"},
    {"label": "gold", "site": None, "text": "gold"},
]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    view = {"seats": 3, "landscape": BEGINNER[3]["landscape"]}
    svg = render_svg("lacitta", view, highlight=[o["site"] for o in ORDERS if o["site"]])
    html = ("<!doctype html><html><head><meta charset='utf-8'><style>"
            + (STATIC_DIR / "board.css").read_text() + "</style></head><body>"
            f"<div id='board'>{svg}</div><select id='label'></select>"
            "<textarea id='orders'></textarea><div id='picked'></div></body></html>")
    pg = browser.new_page(viewport={"width": 1200, "height": 1000})
    pg.set_content(html)
    pg.set_default_timeout(5000)
    pg.add_script_tag(content=(STATIC_DIR / "board.js").read_text())
    pg.evaluate("orders => { window.picker = PbemBoard.attach({board: '#board', input: '#orders',"
                " chooser: '#label', orders: orders, onPick: o => { document.getElementById('picked')"
                ".textContent = o.text; }}); }", ORDERS)
    yield pg
    pg.close()


def legal(page) -> list[str]:
    return sorted(page.eval_on_selector_all(".site.legal", "els => els.map(e => e.dataset.site)"))


def click_site(page, site: str) -> None:
    page.locator(f'.site[data-site="{site}"] .hex').click(force=True)


def test_every_legal_site_shows_until_a_label_is_chosen(page):
    assert legal(page) == ["D6", "F6", "G6"]
    labels = page.eval_on_selector_all("#label option", "els => els.map(e => e.value)")
    assert labels == ["", "build farm", "build market", "found from J2", "gold"]


def test_choosing_a_label_highlights_its_sites_and_a_click_fills_the_order(page):
    page.select_option("#label", "build farm")
    assert legal(page) == ["F6", "G6"]
    click_site(page, "D6")                       # not legal for this label: nothing happens
    assert page.input_value("#orders") == ""
    click_site(page, "G6")
    assert page.input_value("#orders") == "build farm G6"
    assert page.text_content("#picked") == "build farm G6"
    assert page.eval_on_selector_all(".site.picked", "els => els.map(e => e.dataset.site)") == ["G6"]
    # the ring is visible in the browser (display from the SVG's own style)
    assert page.eval_on_selector('.site[data-site="G6"] .ring', "e => getComputedStyle(e).display") != "none"
    assert page.eval_on_selector('.site[data-site="A1"] .ring', "e => getComputedStyle(e).display") == "none"


def test_site_used_by_one_label_picks_without_choosing(page):
    click_site(page, "D6")
    assert page.input_value("#orders") == "found D6 from J2"
    assert page.input_value("#label") == "found from J2"
    click_site(page, "G6")                       # G6 is not a site of 'found'
    assert page.input_value("#orders") == "found D6 from J2"


def test_a_label_without_site_fills_at_once(page):
    page.select_option("#label", "gold")
    assert page.input_value("#orders") == "gold"
    assert legal(page) == []


def test_keyboard_picks_a_focused_site(page):
    page.evaluate("picker.select('build market')")
    page.focus('.site[data-site="G6"]')
    page.keyboard.press("Enter")
    assert page.input_value("#orders") == "build market G6"


def test_append_mode_adds_lines(browser):
    pg = browser.new_page()
    svg = render_svg("lacitta", {"seats": 5}, highlight=["F6", "G6"])
    pg.set_content(f"<div id='b'>{svg}</div><textarea id='o'></textarea>")
    pg.add_script_tag(content=(STATIC_DIR / "board.js").read_text())
    pg.evaluate("orders => { window.p = PbemBoard.attach({board: '#b', input: '#o', orders: orders, append: true});"
                " p.select('build farm'); }", json.loads(json.dumps(ORDERS)))
    click_site(pg, "F6")
    click_site(pg, "G6")
    assert pg.input_value("#o") == "build farm F6\nbuild farm G6"
    pg.close()
