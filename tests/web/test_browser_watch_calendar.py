"""Issue 25 in Debian's chromium, against a served app (the browser tour's
server): the host makes a running game watchable from the game page, a
visitor opens the spectator link, the player makes their calendar link on
the account page and the feed it gives is iCalendar with their deadline;
a finished game offers its record. Every page at 375 and 1280 px, none
scrolling sideways. ``PBEM_SCREENSHOTS=<dir>`` keeps the screenshots."""
from __future__ import annotations

import json
import os
from pathlib import Path

import icalendar
import pytest
import recurring_ical_events
from sqlalchemy import select

from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, open_as, overflow, running_tour

from .test_browser import _need_chromium

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("PBEM_SCREENSHOTS")


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    with running_tour(tmp_path_factory.mktemp("tour25")) as t:
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


def _games(tour, status: str):
    from pbem.service.core.db import db
    from pbem.service.core.models import Game

    with tour.app.app_context():
        rows = db.session.execute(select(Game).where(Game.status == status).order_by(Game.id)).scalars().all()
        return [(g.id, g.host.email, g.kind) for g in rows]


def _shot(page, name: str, width: int) -> None:
    size = overflow(page)
    assert size["scroll"] <= size["client"], f"{name} scrolls sideways at {width} px"
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", (375, 1280))
def test_host_spectator_and_calendar_in_the_browser(tour, browser, width):
    gid, host, _kind = _games(tour, "active")[0]
    page = open_as(browser, tour, host, width)
    try:
        page.goto(f"{tour.base}/games/{gid}")
        if page.locator("#watch-off").count():
            page.click("#watch-off")
        page.click("#watch-on")
        page.wait_for_load_state()
        link = page.input_value("#watch-url")
        _shot(page, "game-host-spectators", width)
        page.goto(f"{tour.base}/account")
        if page.locator("#calendar-off").count():
            page.click("#calendar-off")
        page.click("#calendar-on")
        page.wait_for_load_state()
        feed_url = page.input_value("#calendar-url")
        _shot(page, "account-calendar", width)
    finally:
        page.context.close()
    visitor = open_as(browser, tour, None, width)
    try:
        resp = visitor.goto(link)
        assert resp.status == 200
        assert visitor.locator("#spectating").is_visible() and visitor.locator(".board svg").count() == 1
        assert visitor.locator("textarea, [name=orders]").count() == 0
        _shot(visitor, "spectator", width)
        feed = visitor.request.get(feed_url)
        assert feed.status == 200 and feed.headers["content-type"].startswith("text/calendar")
        events = list(recurring_ical_events.of(icalendar.Calendar.from_ical(feed.body()))
                      .between((2000, 1, 1), (2100, 1, 1)))
        assert all(str(e["URL"]).startswith(tour.base) for e in events)
        assert visitor.request.get(feed_url.replace(".ics", "x.ics")).status == 404
    finally:
        visitor.context.close()


@pytest.mark.parametrize("width", (375, 1280))
def test_a_finished_games_record_downloads_in_the_browser(tour, browser, width):
    gid, _host, kind = _games(tour, "finished")[0]
    visitor = open_as(browser, tour, None, width)
    try:
        visitor.goto(f"{tour.base}/games/{gid}")
        assert visitor.locator("#record-json").is_visible()
        _shot(visitor, "game-finished-record", width)
        with visitor.expect_download() as dl:
            visitor.click("#record-json")
        data = json.loads(Path(dl.value.path()).read_text())
        assert data["game"] == kind and data["final_state"] and "seed" in data
        from pbem.service.play.record_check import check

        assert check(json.dumps(data)).step == data["step"]
    finally:
        visitor.context.close()
