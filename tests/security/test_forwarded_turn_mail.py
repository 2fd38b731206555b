"""A stranger holding a forwarded turn email (issue 25, 26, 28): its link
opens that seat's pages for a day, and none of the long-game switches of
the player or the host: no absence declared or withdrawn, no calendar
feed turned on, no API token made, no spectator link made, no talk
setting changed. (Each is a POST a full sign-in may make.)"""
from __future__ import annotations

from sqlalchemy import func, select

from pbem.service.core.absence_rows import Absence
from pbem.service.core.api_models import ApiToken
from pbem.service.core.db import db
from pbem.service.core.models import Game, Player

from .conftest import csrf_token, new_lacitta
from .test_signin_trust import _post_token, _turn_link


def _count(model) -> int:
    db.session.rollback()
    return db.session.execute(select(func.count()).select_from(model)).scalar_one()


def test_a_turn_mail_link_switches_nothing_of_the_long_game(app, client):
    gid = new_lacitta()
    seat, path = _turn_link(gid)
    assert db.session.get(Game, gid).seat(seat).player_id == db.session.get(Game, gid).host_id   # the host's mail
    _post_token(client, path)
    page = f"/games/{gid}/seat/{seat + 1}"
    token = csrf_token(client, page)
    posts = {
        f"/games/{gid}/absences": {"first": "2026-12-20", "last": "2026-12-27"},
        "/account/absences": {"first": "2026-12-20", "last": "2026-12-27"},
        "/account/calendar": {"action": "on"},
        "/account/tokens": {"name": "stolen", "scope": "order", "days": "30"},
        f"/games/{gid}/spectators": {"action": "on"},
        f"/games/{gid}/talk-setting": {"mode": "none"},
        f"/games/{gid}/channel": {"url": "https://93.184.216.34/x"},
    }
    for url, data in posts.items():
        resp = client.post(url, data={"csrf_token": token, **data})
        assert resp.status_code in (302, 403), url
        if resp.status_code == 302:
            assert resp.headers["Location"].startswith("/signin"), url
    assert _count(Absence) == 0 and _count(ApiToken) == 0
    db.session.rollback()
    assert db.session.execute(select(Player.calendar_nonce).where(Player.calendar_nonce.is_not(None))).all() == []
    g = db.session.get(Game, gid)
    assert g.spectator_nonce is None and not g.channel_on and g.talk == "full"
    assert client.get(page).status_code == 200   # the seat's page still opens: the link did work
