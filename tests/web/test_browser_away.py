"""Absences in Debian's chromium, against a served app (the browser tour's
server; issue 25): a player declares an absence for one game on its game
page, another seat (the host) sees "<name>: away until …" on the same
game's page with the cap left, the player withdraws it on the account
page, and the table shows nobody away again. In Czech and in Finnish, at
375 and 1280 px; no page scrolls sideways. ``PBEM_SCREENSHOTS=<dir>``
keeps the screenshots."""
from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

import pytest
from babel.dates import format_date
from sqlalchemy import select

import pbem.i18n
from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, open_as, overflow, running_tour, widest

from .test_browser import _need_chromium

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("PBEM_SCREENSHOTS")
AWAY, HOST = "bo@example.org", "ada@example.org"


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    with running_tour(tmp_path_factory.mktemp("tour25away")) as t:
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


def _setup(tour, language: str) -> int:
    """The first running game where Ada hosts and Bo sits, both reading
    ``language`` (chosen: chromium's en-US does not replace it)."""
    from pbem.service.core.db import db
    from pbem.service.core.models import Game, Player

    with tour.app.app_context():
        for email in (AWAY, HOST):
            p = db.session.execute(select(Player).where(Player.email == email)).scalar_one()
            p.language, p.language_chosen = language, True
        games = db.session.execute(select(Game).where(Game.status == "active").order_by(Game.id)).scalars()
        gid = next(g.id for g in games if g.host.email == HOST and any(s.player.email == AWAY for s in g.seats))
        db.session.commit()
        return gid


def _shot(page, name: str, width: int, section: str = "#away") -> None:
    """Check the page does not scroll sideways; with ``PBEM_SCREENSHOTS``
    keep the whole page and, to look at, the ``section`` alone."""
    size = overflow(page)
    assert size["scroll"] <= size["client"], f"{name} scrolls sideways at {width} px: {widest(page)}"
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{width}.png"), full_page=True)
        page.locator(section).screenshot(path=str(Path(SHOTS) / f"{name}-{width}-section.png"))


def _words(language: str, msgid: str) -> list[str]:
    """The fixed words of ``msgid`` in ``language`` (its placeholders cut out)."""
    said = pbem.i18n.translations(language).gettext(msgid)
    assert said != msgid, f"{language} does not translate {msgid!r}"
    return [w.strip() for w in re.split(r"%\(\w+\)s", said) if w.strip()]


@pytest.mark.parametrize("language", ("cs", "fi"))
@pytest.mark.parametrize("width", (375, 1280))
def test_declare_see_and_withdraw_an_absence_in_the_browser(tour, browser, width, language):
    gid = _setup(tour, language)
    today = dt.datetime.now(dt.timezone.utc).date()
    first, last = today - dt.timedelta(days=1), today + dt.timedelta(days=6)   # under way now, in any zone
    away = open_as(browser, tour, AWAY, width)
    host = open_as(browser, tour, HOST, width)
    try:
        away.goto(f"{tour.base}/games/{gid}#away")
        assert away.get_attribute("html", "lang") == language
        away.click("#away summary")
        away.fill("#game-away-first", first.isoformat())
        away.fill("#game-away-last", last.isoformat())
        _shot(away, f"away-form-{language}", width)
        away.click("#game-away-save")
        away.wait_for_load_state()
        _shot(away, f"away-declared-{language}", width)

        host.goto(f"{tour.base}/games/{gid}#away")
        line = host.locator("#away ul.absences li").first.inner_text()
        assert "Bo" in line and all(w in line for w in _words(language, "%(who)s: away until %(until)s")), line
        assert host.locator("#away").inner_text().count("Bo") == 1
        _shot(host, f"away-host-sees-{language}", width)

        away.goto(f"{tour.base}/account#absences")
        _shot(away, f"away-account-{language}", width, "#absences")
        listed = away.locator("#absences ul.absences li").first.inner_text()   # the days as typed, the last one too
        assert all(format_date(d, "full", locale=language) in listed for d in (first, last)), listed
        away.locator("#absences button[id^=withdraw-]").first.click()
        away.wait_for_load_state()
        assert away.locator("#absences ul.absences li").count() == 0

        host.reload()                      # the same URL with its #away: goto would not load it again
        assert host.locator("#away ul.absences").count() == 0, host.locator("#away").inner_text()
        assert pbem.i18n.translations(language).gettext("Nobody at this table is away.") in \
            host.locator("#away").inner_text()
        _shot(host, f"away-withdrawn-{language}", width)
    finally:
        away.context.close()
        host.context.close()
