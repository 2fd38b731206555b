"""The links of issue 25 in mail: a player's own calendar feed in their
turn mail (never in another seat's), the spectator link in the host's
mails about the game's set-up (never to another seat), the game record in
the game-over mail."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from pbem.i18n import translations
from pbem.mail.flowed import plain_text
from pbem.service.accounts.calendar_link import calendar_url, set_calendar
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders

from tests.spamassassin import LIMIT, needs_spamassassin, score

from .helpers import PLAYERS, compose_pending, game, new_tally, outbox, parsed

H = dt.timedelta(hours=1)


def player(email: str) -> Player:
    return db.session.execute(db.select(Player).where(Player.email == email)).scalar_one()


def parts(row) -> tuple[str, str]:
    """The row's mail as sent: (plain text, HTML)."""
    msg = parsed(row)
    return plain_text(msg), msg.get_body(("html",)).get_content()


def feeds_on(*emails: str) -> dict[str, str]:
    """Turn the feeds of ``emails`` on; each one's absolute feed URL."""
    return {e: calendar_url(set_calendar(player(e).id, "on")) for e in emails}


def play_turns(gid: int, t0, moves: int) -> None:
    """``moves`` decisions taken on the web, each seat to move adding 1,
    a reminder scan before each (every notice kept as it was sent)."""
    for i in range(moves):
        compose_pending()
        g = game(gid)
        scan(now=g.deadline_at - dt.timedelta(minutes=30))
        compose_pending()
        for seat in sorted(_current(g)):
            submit_orders(gid, seat, "bid 0" if "bid" in _legal(g, seat) else "add 1", expected_step=g.step,
                          source="web", now=t0 + i * H)
    compose_pending()


def _current(g) -> list[int]:
    from pbem.engine import get_game

    return get_game(g.kind).state_from_json(g.state).current_seats()


def _legal(g, seat: int) -> str:
    from pbem.engine import get_game

    return " ".join(a.to_text() for a in get_game(g.kind).state_from_json(g.state).legal_actions(seat))


def test_the_turn_mail_carries_the_players_own_feed_in_text_and_html(app, t0):
    gid = new_tally(t0)
    url = feeds_on(PLAYERS[0][1])[PLAYERS[0][1]]
    row = [r for r in outbox(kind="turn") if r.recipient == PLAYERS[0][1]][0]
    text, html = parts(row)
    assert f"Your deadlines in your calendar: {url}" in text
    assert f'<a href="{url}"' in html and "Your deadlines in your calendar:" in html


def test_no_feed_no_line(app, t0):
    gid = new_tally(t0)
    row = [r for r in outbox(kind="turn") if r.recipient == PLAYERS[0][1]][0]
    text, html = parts(row)
    assert "calendar" not in text.lower() and "/calendar/" not in html
    assert gid


def test_the_feed_line_is_in_the_players_language(app, t0):
    new_tally(t0)
    player(PLAYERS[0][1]).language = "fi"
    db.session.commit()
    url = feeds_on(PLAYERS[0][1])[PLAYERS[0][1]]
    text, _html = parts([r for r in outbox(kind="turn") if r.recipient == PLAYERS[0][1]][0])
    line = translations("fi").gettext("Your deadlines in your calendar: %(url)s")
    assert line != "Your deadlines in your calendar: %(url)s" and line % {"url": url} in text


def test_no_seat_ever_gets_another_seats_feed(app, t0):
    """The leak test: every player has a feed; over turns, reminders and
    the simultaneous bids every turn mail carries its own player's feed and
    no other secret."""
    gid = new_tally(t0)
    urls = feeds_on(*(e for _n, e in PLAYERS))
    play_turns(gid, t0, 5)
    rows = [r for r in outbox() if r.kind in ("turn", "reminder") and r.raw is not None]
    assert {r.kind for r in rows} == {"turn", "reminder"} and len({r.recipient for r in rows}) == 3
    for row in rows:
        text, html = parts(row)
        own = urls[row.recipient]
        assert own in text and own in html, row.dedupe_key
        secrets = {u.rsplit("/", 1)[1].removesuffix(".ics") for e, u in urls.items() if e != row.recipient}
        raw = parsed(row).as_string()
        assert not any(s.split(".", 1)[1] in raw for s in secrets), row.dedupe_key


def test_the_host_gets_each_new_spectator_link_by_mail_once(app, t0):
    from pbem.service.play.spectators import set_watchable, spectator_url

    gid = new_tally(t0)
    player(PLAYERS[0][1]).language = "de"
    db.session.commit()
    first = spectator_url(set_watchable(gid, "on"))
    set_watchable(gid, "on", delay=True)                 # the same link: no second mail
    rows = outbox(kind="watchable")
    assert [r.recipient for r in rows] == [PLAYERS[0][1]]
    text, html = parts(rows[0])
    de = translations("de").gettext
    assert de("People can watch at: {url}").format(url=first) in text and f'<a href="{first}"' in html
    assert de("People can watch at: {url}") != "People can watch at: {url}"
    assert app.test_client().get(first.split(app.config["BASE_URL"], 1)[1]).status_code == 200
    second = spectator_url(set_watchable(gid, "renew"))
    set_watchable(gid, "off")
    rows = outbox(kind="watchable")
    assert len(rows) == 2 and second in parts(rows[1])[0] and first not in parts(rows[1])[0]
    assert de("Spectators see the game one turn behind.") in parts(rows[1])[0]   # the delay set meanwhile is told
    assert de("Spectators see the game one turn behind.") not in parts(rows[0])[0]


def test_the_hosts_own_status_notice_carries_the_link_and_no_other_seats(app, t0):
    from pbem.service.play.lifecycle import cancel_game, extend_deadline, pause_game, resume_game
    from pbem.service.play.spectators import set_watchable, spectator_url

    gid = new_tally(t0)
    url = spectator_url(set_watchable(gid, "on"))
    token = url.rsplit("/", 1)[1]
    pause_game(gid, now=t0 + H)
    resume_game(gid, now=t0 + 2 * H)
    extend_deadline(gid, 3600, now=t0 + 3 * H)
    cancel_game(gid, now=t0 + 4 * H)
    rows = [r for r in outbox() if r.kind in ("paused", "resumed", "extended", "cancelled")]
    assert {r.recipient for r in rows} == {e for _n, e in PLAYERS}
    for row in rows:
        text, html = parts(row)
        mine = row.recipient == PLAYERS[0][1] and row.kind != "cancelled"
        assert (f"People can watch at: {url}" in text and f'<a href="{url}"' in html) == mine, row.dedupe_key
        assert mine or token.split(".", 1)[1] not in parsed(row).as_string(), row.dedupe_key


def test_the_game_over_mail_links_the_record_that_the_page_offers(app, t0):
    from .test_game_record import play_to_the_end

    gid = new_tally(t0)
    player(PLAYERS[1][1]).language = "cs"
    db.session.commit()
    play_to_the_end(gid, t0)
    rows = outbox(kind="over")
    assert len(rows) == 3
    client = app.test_client()
    for row in rows:
        text, html = parts(row)
        urls = re.findall(r"(https?://\S+/record\.(?:txt|json))", text)
        assert [u.rsplit("/", 1)[1] for u in urls] == ["record.txt", "record.json"], text
        for u in urls:
            assert f'<a href="{u}"' in html
            assert client.get(u.split(app.config["BASE_URL"], 1)[1]).status_code == 200
    cs = [r for r in rows if r.recipient == PLAYERS[1][1]][0]
    line = translations("cs").gettext("The game record (JSON): %(url)s")
    assert line != "The game record (JSON): %(url)s" and line.split("%")[0] in parts(cs)[0]


@needs_spamassassin
@pytest.mark.slow
def test_the_mails_with_links_score_under_one_point(app, t0):
    """SpamAssassin on each mail that gained a link (as in test_mail_spam.py)."""
    from pbem.service.play.lifecycle import pause_game
    from pbem.service.play.spectators import set_watchable

    from .test_game_record import play_to_the_end

    gid = new_tally(t0)
    feeds_on(*(e for _n, e in PLAYERS))
    compose_pending()
    set_watchable(gid, "on")
    pause_game(gid, now=t0 + H)
    other = new_tally(t0, seed=8)
    play_to_the_end(other, t0)
    host = PLAYERS[0][1]
    rows = [next(r for r in outbox(kind=k) if r.recipient == host and r.raw is not None)
            for k in ("turn", "watchable", "paused", "over")]
    for row in rows:
        points, report = score(parsed(row).as_bytes())
        assert points < LIMIT, f"{row.kind}: {points}\n{report}"
