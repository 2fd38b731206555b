"""Table talk and absences through the API (issue 28, over issues 26 and
25): a seat's token reads the public messages and those to its seat,
never a message between two other seats; my absences and who is away."""
from __future__ import annotations

import datetime as dt

from pbem.service.core.models import utcnow
from pbem.service.play.absences import declare
from pbem.service.play.talk import post_message
from tests.webapp import PLAYERS, player_id

from .conftest import bearer, token_for
from .games import new_game

ADA, BO, CY = (email for _name, email in PLAYERS)


def test_a_seat_reads_public_talk_and_its_own_never_two_others_private_talk(app, client):
    gid = new_game("medina")
    post_message(gid, 0, player_id(ADA), "hello table")
    post_message(gid, 1, player_id(BO), "psst, Cy: a secret plan", to=[2])
    ada = client.get(f"/api/v1/games/{gid}/seats/1/talk", headers=bearer(token_for(ADA, "read"))).json
    cy = client.get(f"/api/v1/games/{gid}/seats/3/talk", headers=bearer(token_for(CY, "read"))).json
    assert [m["body"] for m in ada["messages"]] == ["hello table"] and ada["messages"][0]["mine"]
    assert [m["body"] for m in cy["messages"]] == ["hello table", "psst, Cy: a secret plan"]
    assert cy["messages"][1]["to"] == [3] and cy["messages"][1]["seat"] == 2
    after = cy["messages"][0]["id"]
    newer = client.get(f"/api/v1/games/{gid}/seats/3/talk?after={after}", headers=bearer(token_for(CY, "read")))
    assert [m["body"] for m in newer.json["messages"]] == ["psst, Cy: a secret plan"]
    # another seat's thread is not mine to read
    assert client.get(f"/api/v1/games/{gid}/seats/3/talk", headers=bearer(token_for(ADA, "read"))).status_code == 403


def test_my_absences_and_who_is_away(app, client):
    gid = new_game("medina")
    now = utcnow()
    declare(player_id(BO), now - dt.timedelta(hours=1), now + dt.timedelta(days=3))
    bo = client.get("/api/v1/absences", headers=bearer(token_for(BO, "read"))).json["absences"]
    assert len(bo) == 1 and bo[0]["game"] is None
    assert client.get("/api/v1/absences", headers=bearer(token_for(ADA, "read"))).json["absences"] == []
    away = client.get(f"/api/v1/games/{gid}/away", headers=bearer(token_for(ADA, "read"))).json["away"]
    assert [a["seat"] for a in away] == [2]
