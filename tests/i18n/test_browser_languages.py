"""The order page in Finnish and in Czech, in Debian's chromium (issue 16:
"a chromium test renders the order page in Finnish and in Czech").

For each language a player whose language is set signs in from a link and
opens their order page, at 375 px (a phone) and 1280 px:

- ``<html lang>`` is the player's language;
- the page does not scroll sideways (translated words are often longer);
- the headings come from that language's catalog: the expected text is
  ``pbem.i18n.translations(lang).gettext(msgid)``, and it must differ from
  the English msgid, so this test passes only once the catalog translates
  them (pbem/translations/<lang>/LC_MESSAGES/messages.po).
"""
from __future__ import annotations

import pytest

import pbem.i18n
from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, overflow, widest
from tests.web.test_browser import _need_chromium, site  # noqa: F401  (the running app fixture)

pytestmark = pytest.mark.browser

#: msgids of the order page's headings, each looked up in the catalog
HEADINGS = {"#table-h": "The table", "#orders h2": "Your move"}


@pytest.fixture(scope="module")
def browser():
    sync_api = _need_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _game_with_languages(app, language: str) -> int:
    """A La Città game whose first seat (Ada, to move) reads ``language``."""
    from pbem.service.core.db import db
    from pbem.service.core.models import Player
    from tests.webapp import new_lacitta, player_id

    with app.app_context():
        gid = new_lacitta()
        ada = db.session.get(Player, player_id("ada@example.org"))
        ada.language, ada.language_chosen = language, True   # chosen: chromium's en-US does not replace it
        db.session.commit()
        return gid


def _link(app, gid: int) -> str:
    """A fresh sign-in link of Ada's to her order page (each works once)."""
    from pbem.service.core import links
    from tests.webapp import player_id

    with app.app_context():
        return links.signin_url(player_id("ada@example.org"), f"/games/{gid}/seat/1")


@pytest.mark.parametrize("language", ["fi", "cs"])
def test_order_page_in_the_players_language(site, browser, language):  # noqa: F811
    base, _mail, app = site
    catalog = pbem.i18n.translations(language)
    expected = {sel: catalog.gettext(msgid) for sel, msgid in HEADINGS.items()}
    untranslated = [msgid for sel, msgid in HEADINGS.items() if expected[sel] == msgid]
    assert not untranslated, f"the {language} catalog does not translate {untranslated} yet"
    gid = _game_with_languages(app, language)
    for width in (375, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(_link(app, gid))
            page.click("#continue")
            page.wait_for_load_state()
            assert page.url.endswith(f"/games/{gid}/seat/1"), page.url
            assert page.get_attribute("html", "lang") == language
            for selector, text in expected.items():
                assert page.inner_text(selector).strip() == text
            size = overflow(page)
            assert size["scroll"] <= size["client"], f"{language} at {width} px: {widest(page)}"
        finally:
            context.close()
