"""What absences show, and to whom (issue 25): the other seats of a game
see a player's absence's end ("away until …"), nothing more; a game-only
absence shows in that game only; the account page lists one's own
absences only; the host alone sees the cap left; visitors see nothing.
There is no where or why to leak: the table has no such column."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import inspect

from pbem.service.core.absence_rows import Absence
from pbem.service.core.db import db
from pbem.service.core.models import utcnow
from pbem.service.play import absences
from tests.web.pagetext import text_of

from .conftest import new_lacitta, player_id, sign_in

DAY = dt.timedelta(days=1)


def _page(app, email, path):
    client = app.test_client()
    if email:
        sign_in(client, player_id(email))
    return text_of(client.get(path).get_data(as_text=True))


def test_an_absence_has_no_where_or_why():
    assert {c.name for c in inspect(Absence).columns} == {
        "id", "player_id", "game_id", "starts_at", "ends_at", "created_at",
        "bot_after_cap"}   # issue 27: whether a bot plays once the cap is used up (a yes/no, no where or why)


def test_only_the_end_shows_and_only_where_it_belongs(app):
    first = new_lacitta()
    other = new_lacitta(seed=9)   # the same three players, a second game
    now = utcnow()
    absences.declare(player_id("bo@example.org"), now - DAY, now + 3 * DAY, game_id=first, now=now)
    absences.declare(player_id("bo@example.org"), now + 30 * DAY, now + 33 * DAY, now=now)
    ada_first = _page(app, "ada@example.org", f"/games/{first}")
    assert "Bo" in ada_first and "away until" in ada_first
    # the start of the absence and the later one are Bo's own business
    from pbem.mail.compose import format_deadline

    for when in (now - DAY, now + 30 * DAY, now + 33 * DAY):
        assert format_deadline(when, "UTC", "en") not in ada_first
    assert ada_first.count("away until") == 1
    assert "of 14 days" in ada_first                            # Ada hosts: the cap left
    assert "away until" not in _page(app, "cy@example.org", f"/games/{other}")   # game-only absence
    assert "of 14 days" not in _page(app, "cy@example.org", f"/games/{first}")   # Cy does not host
    assert "away until" not in _page(app, None, f"/games/{first}")               # a visitor
    account_ada = _page(app, "ada@example.org", "/account")
    assert "all your games" not in account_ada and "Withdraw" not in account_ada
    account_bo = _page(app, "bo@example.org", "/account")
    assert account_bo.count("Withdraw") == 2
