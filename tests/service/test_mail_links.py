"""The links of issue 25 in mail: a player's own calendar feed in their
turn mail (never in another seat's), the spectator link in the host's
mails about the game's set-up (never to another seat), the game record in
the game-over mail."""
from __future__ import annotations

import datetime as dt

from pbem.service.accounts.calendar_link import calendar_url, set_calendar
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders

from .helpers import PLAYERS, compose_pending, game, new_tally, outbox, parsed

H = dt.timedelta(hours=1)


def player(email: str) -> Player:
    return db.session.execute(db.select(Player).where(Player.email == email)).scalar_one()


def parts(row) -> tuple[str, str]:
    """The row's mail as sent: (plain text, HTML)."""
    msg = parsed(row)
    return msg.get_body(("plain",)).get_content(), msg.get_body(("html",)).get_content()


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
    assert f"Määräaikasi kalenterissasi: {url}" in text


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
