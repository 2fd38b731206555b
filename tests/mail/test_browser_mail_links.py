"""The mails that carry issue 25's links (and a talk message's link), as
chromium draws their HTML part at 375 px: no sideways scroll however long
the link (a secret link is one long word), in Czech and Finnish."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.mail import compose as c
from pbem.mail.talk_mail import TalkLine, messages
from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS
from tests.web.test_browser import _need_chromium

pytestmark = pytest.mark.browser
D = datetime(2026, 12, 1, 16, tzinfo=timezone.utc)
G = c.GameRef("La Città", 12, "https://pbem.example/games/12")
LONG = "https://pbem.example/watch/12." + "J15sJVAIyNn5BQtZ7ENp7k5JortL86XJ" * 2


def _mails(lang: str) -> dict:
    env = c.Envelope(sender="pbem <pbem@pbem.example>", to_name="Ada", to_address="ada@example.org",
                     timezone="Europe/Helsinki", locale=lang, sent_at=D)
    turn = c.Turn(phase="2", seat="1", deadline=D, order_url=LONG, calendar_url=LONG + ".ics", legal_orders=["gold"])
    return {
        "turn": c.turn_notice(env, G, turn),
        "host": c.host_action(env, G, action="paused", phase="2", deadline=None, watch_url=LONG),
        "over": c.game_over(env, G, scores=[c.ScoreLine(1, "Ada", 30)], record_urls=(LONG + ".txt", LONG + ".json")),
        "notice": c.host_notice(env, G, headline="x", paragraphs=[f"People can watch at: {LONG}"]),
        "talk": messages(env, G, [TalkLine("Bruno → everyone", f"See {LONG}/more ok?")], reply_to_whom="everyone"),
    }


@pytest.mark.parametrize("lang", ("cs", "fi"))
def test_the_links_wrap_on_a_phone(lang, tmp_path):
    sync_api = _need_chromium()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 375, "height": 800})
            for name, msg in _mails(lang).items():
                html = msg.get_body(("html",)).get_content()
                assert LONG in html, name
                page.set_content(html)
                scroll, client = page.evaluate(
                    "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                assert scroll <= client, f"{name} ({lang}) is {scroll} px wide at 375 px"
        finally:
            browser.close()
