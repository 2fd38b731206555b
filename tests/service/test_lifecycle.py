"""Creating, joining and starting games."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import GameEvent, Player
from pbem.service.play.lifecycle import SeatSpec, create_game, join_game, start_game

from .helpers import PLAYERS, game, outbox


@pytest.mark.parametrize("kind, seats, options, message", [
    ("chess", PLAYERS, {}, "unknown game"),
    ("tally", PLAYERS[:1], {}, "2-4 seats"),
    ("tally", [("A", "a@x.org"), ("B", "A@X.org")], {}, "own email address"),
    ("tally", [("A", "not-an-address"), ("B", "b@x.org")], {}, "not an email address"),
    ("tally", PLAYERS, {"length": "endless"}, "option length"),
])
def test_bad_games_are_refused_with_a_reason(app, t0, kind, seats, options, message):
    with pytest.raises(ServiceError, match=message):
        create_game(kind, "a@x.org", seats, options=options, now=t0)


def test_bad_time_zone_and_short_deadline_are_refused(app, t0):
    with pytest.raises(ServiceError, match="time zone"):
        create_game("tally", "ada@example.org", PLAYERS, timezone="Mars/Olympus", now=t0)
    with pytest.raises(ServiceError, match="at least a minute"):
        create_game("tally", "ada@example.org", PLAYERS, deadline_seconds=5, now=t0)


def test_game_waits_for_every_seat_then_starts(app, t0):
    g = create_game("tally", "ada@example.org", PLAYERS, seed=1, now=t0)
    gid = g.id
    assert game(gid).status == "invited"
    assert [s.joined for s in game(gid).seats] == [True, False, False]  # the host's own seat
    join_game(gid, 1, now=t0)
    join_game(gid, 1, now=t0)  # twice is harmless
    assert game(gid).status == "invited" and outbox(kind="turn") == []
    join_game(gid, 2, now=t0)
    assert game(gid).status == "active"
    assert len(outbox(kind="turn")) == 1


def test_only_the_seat_holder_joins_and_only_the_host_starts_early(app, t0):
    gid = create_game("tally", "ada@example.org", PLAYERS, seed=1, now=t0).id
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    ada = db.session.execute(select(Player).where(Player.email == "ada@example.org")).scalar_one()
    with pytest.raises(NotAllowed):
        join_game(gid, 2, player_id=bo.id, now=t0)
    with pytest.raises(NotAllowed):
        start_game(gid, by_player_id=bo.id, now=t0)
    start_game(gid, by_player_id=ada.id, now=t0)
    g = game(gid)
    assert g.status == "active" and g.step == 0 and g.state
    start_game(gid, now=t0)  # starting again changes nothing
    assert len(outbox(kind="turn")) == 1


def test_players_keep_one_account_across_games(app, t0):
    create_game("tally", "ada@example.org", [SeatSpec("Ada@Example.org", "Ada", "Europe/Helsinki"),
                                             SeatSpec("bo@example.org", "Bo")], now=t0)
    create_game("tally", "bo@example.org", [SeatSpec("bo@example.org", "Bo"),
                                            SeatSpec("ada@example.org", "Ada")], now=t0)
    players = db.session.execute(select(Player).order_by(Player.email)).scalars().all()
    assert [(p.email, p.timezone) for p in players] == [("ada@example.org", "Europe/Helsinki"),
                                                        ("bo@example.org", "UTC")]


def test_a_replacement_takes_over_a_seat_with_its_turn(app, t0):
    from pbem.service.core.errors import WrongStatus
    from pbem.service.play.orders import submit_orders
    from pbem.service.play.replacement import replace_player

    from .helpers import body_text, new_tally

    gid = new_tally(t0)
    ada = db.session.execute(select(Player).where(Player.email == "ada@example.org")).scalar_one()
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    submit_orders(gid, 0, "add 1", expected_step=0, source="web")  # seat 2 (Bo) is to move
    with pytest.raises(NotAllowed):
        replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=bo.id, now=t0)
    with pytest.raises(ServiceError, match="another seat"):
        replace_player(gid, 1, "cy@example.org", by_player_id=ada.id, now=t0)
    replace_player(gid, 1, "Dee@example.org", "Dee", by_player_id=ada.id, now=t0)
    g = game(gid)
    # Dee is invited to the seat: it counts as joined, and its turn notice goes, once she accepts
    assert g.seat(1).player.email == "dee@example.org" and not g.seat(1).joined
    assert [r.kind for r in outbox(recipient="dee@example.org")] == ["invite"]
    assert [r.kind for r in outbox(recipient="bo@example.org", kind="seat_given")] == ["seat_given"]
    join_game(gid, 1, player_id=g.seat(1).player_id, now=t0)
    to_dee = outbox(recipient="dee@example.org")
    assert sorted(r.kind for r in to_dee) == ["invite", "turn"] and game(gid).seat(1).joined
    assert "Ada adds 1" in body_text([r for r in to_dee if r.kind == "turn"][0])
    # Dee plays the seat; Bo no longer can
    assert submit_orders(gid, 1, "add 2", expected_step=1, source="web").status == "stored"
    assert game(gid).step == 2
    log = [e.text for e in db.session.execute(select(GameEvent).where(GameEvent.kind == "replaced")).scalars()]
    assert log == ["Dee took over seat 2 from Bo."]
    # the game over keeps its players
    from pbem.service.core.models import FINISHED

    g = game(gid)
    g.status = FINISHED
    db.session.commit()
    with pytest.raises(WrongStatus):
        replace_player(gid, 2, "eve@example.org", now=t0)
