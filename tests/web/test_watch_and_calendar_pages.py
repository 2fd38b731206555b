"""The pages of issue 25: the account page's calendar link and its feed
over HTTP, the host's spectator switch and the spectator page (public view
only, one turn behind on request, 404 for a wrong or revoked link), and
who may download which game record."""
from __future__ import annotations

import json
import re

import icalendar
import recurring_ical_events

from pbem.service.core.db import db
from pbem.service.core.models import Game, Player
from pbem.service.play.spectators import shown_step

from .conftest import csrf_token, game_state, new_lacitta, player_id, signed_in


def _play(app, gid: int, n: int) -> None:
    """``n`` orders from the order pages (the first legal order each time)."""
    clients = {}
    for _ in range(n):
        state = game_state(gid)
        seat = state.current_seats()[0]
        email = ["ada@example.org", "bo@example.org", "cy@example.org"][seat]
        c = clients.setdefault(seat, signed_in(app, email))
        page = f"/games/{gid}/seat/{seat + 1}"
        resp = c.post(page, data={"csrf_token": csrf_token(c, page), "orders": state.legal_actions(seat)[0].to_text(),
                                  "step": str(state.step)})
        assert resp.status_code in (200, 302, 303), resp.status_code


def test_the_account_page_makes_renews_and_revokes_the_calendar_link(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    assert 'id="calendar-on"' in ada.get("/account").get_data(as_text=True)
    ada.post("/account/calendar", data={"csrf_token": csrf_token(ada, "/account"), "action": "on"})
    page = ada.get("/account").get_data(as_text=True)
    url = re.search(r'id="calendar-url"[^>]*value="([^"]+)"', page).group(1)
    path = url.split("://", 1)[1].split("/", 1)[1]
    stranger = app.test_client()
    resp = stranger.get("/" + path)
    assert resp.status_code == 200 and resp.mimetype == "text/calendar"
    assert resp.headers["Cache-Control"] == "no-store"
    cal = icalendar.Calendar.from_ical(resp.data)
    events = list(recurring_ical_events.of(cal).between((2000, 1, 1), (2100, 1, 1)))
    to_move = game_state(gid).current_seats()
    assert len(events) == (1 if 0 in to_move else 0)
    other = "A" if path[-5] != "A" else "B"              # the secret's last character changed
    assert stranger.get("/" + path[:-5] + other + ".ics").status_code == 404
    secret = path.split("/")[1].split(".")[1]
    assert stranger.get(f"/calendar/{player_id('bo@example.org')}.{secret}.ics").status_code == 404
    ada.post("/account/calendar", data={"csrf_token": csrf_token(ada, "/account"), "action": "renew"})
    assert stranger.get("/" + path).status_code == 404
    ada.post("/account/calendar", data={"csrf_token": csrf_token(ada, "/account"), "action": "off"})
    assert 'id="calendar-on"' in ada.get("/account").get_data(as_text=True)
    assert ada.post("/account/calendar", data={"action": "on"}).status_code == 400      # CSRF


def _watch_link(client, gid: int) -> str:
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    return re.search(r'id="watch-url"[^>]*value="http://[^/]+(/watch/[^"]+)"', page).group(1)


def test_the_host_makes_a_game_watchable_and_spectators_see_the_public_view_only(app):
    gid = new_lacitta()
    _play(app, gid, 3)
    ada, bo = signed_in(app, "ada@example.org"), signed_in(app, "bo@example.org")
    assert 'id="watch-on"' in ada.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="watch-on"' not in bo.get(f"/games/{gid}").get_data(as_text=True)   # host only
    assert bo.post(f"/games/{gid}/spectators", data={"csrf_token": csrf_token(bo, f"/games/{gid}"),
                                                     "action": "on"}).status_code == 403
    ada.post(f"/games/{gid}/spectators", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "action": "on"})
    link = _watch_link(ada, gid)
    spectator = app.test_client()
    resp = spectator.get(link)
    page = resp.get_data(as_text=True)
    assert resp.status_code == 200 and resp.headers["Referrer-Policy"] == "no-referrer"
    assert 'id="spectating"' in page and 'class="board"' in page
    assert "/seat/" not in page and "<textarea" not in page and 'name="orders"' not in page
    assert 'id="behind"' not in page
    assert spectator.get(link[:-1] + ("A" if link[-1] != "A" else "B")).status_code == 404
    assert spectator.get(f"/watch/{gid + 1}.{link.rsplit('.', 1)[1]}").status_code == 404
    # one turn behind
    ada.post(f"/games/{gid}/spectators", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "action": "on",
                                                "delay": "yes"})
    assert _watch_link(ada, gid) == link                      # the same link, now delayed
    db.session.rollback()
    g = db.session.get(Game, gid)
    assert shown_step(g) < g.step
    assert 'id="behind"' in spectator.get(link).get_data(as_text=True)
    ada.post(f"/games/{gid}/spectators", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "action": "renew"})
    assert spectator.get(link).status_code == 404 and spectator.get(_watch_link(ada, gid)).status_code == 200
    ada.post(f"/games/{gid}/spectators", data={"csrf_token": csrf_token(ada, f"/games/{gid}"), "action": "off"})
    assert 'id="watch-on"' in ada.get(f"/games/{gid}").get_data(as_text=True)


def test_a_running_games_record_is_for_its_own_players_only(app):
    gid = new_lacitta()
    _play(app, gid, 2)
    ada, bo = signed_in(app, "ada@example.org"), signed_in(app, "bo@example.org")
    stranger = app.test_client()
    assert stranger.get(f"/games/{gid}/record.json").status_code == 403
    assert ada.get(f"/games/{gid}/record.json").status_code == 403            # no whole record yet
    resp = ada.get(f"/games/{gid}/seat/1/record.json")
    assert resp.status_code == 200 and "attachment" in resp.headers["Content-Disposition"]
    rec = json.loads(resp.data)
    assert rec["seat"] == 1 and "seed" not in rec and {m["seat"] for m in rec["moves"]} <= {1}
    assert all(e["seat"] in (None, 1) for e in rec["events"])
    assert bo.get(f"/games/{gid}/seat/1/record.json").status_code == 403      # not Bo's seat
    assert stranger.get(f"/games/{gid}/seat/1/record.txt").status_code in (302, 403)
    txt = ada.get(f"/games/{gid}/seat/1/record.txt").get_data(as_text=True)
    assert txt.startswith("# pbem game record: La Città")
    db.session.rollback()
    p = db.session.get(Player, player_id("ada@example.org"))
    p.language = "de"
    db.session.commit()
    assert ada.get(f"/games/{gid}/seat/1/record.txt").get_data(as_text=True).startswith("# pbem-Spielprotokoll")
