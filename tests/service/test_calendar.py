"""Calendar feeds (issue 25): one event per open deadline, read back with a
second, independent library (recurring-ical-events over icalendar's
parser), UIDs stable while the deadline moves, alarms at the reminder
time, times right across the DST changes of Helsinki and Prague, the
secret link revocable."""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events

from pbem.service.accounts.calendar_link import calendar_path, player_of_feed, set_calendar
from pbem.service.core.db import db
from pbem.service.core.models import Game, Player
from pbem.service.play.calendar import feed
from pbem.service.play.deadlines import reminder_lead
from pbem.service.play.lifecycle import extend_deadline, pause_game, resume_game
from pbem.service.play.orders import submit_orders

from .helpers import game, new_tally


def player(email: str) -> Player:
    return db.session.execute(db.select(Player).where(Player.email == email)).scalar_one()


def events_of(data: bytes, start=dt.datetime(2000, 1, 1), end=dt.datetime(2100, 1, 1)) -> list:
    """The feed's events as recurring-ical-events reads them."""
    return list(recurring_ical_events.of(icalendar.Calendar.from_ical(data)).between(start, end))


def test_one_event_for_the_seat_to_move_with_alarm_and_order_link(app, t0):
    gid = new_tally(t0)
    g = game(gid)
    ada, bo = player("ada@example.org"), player("bo@example.org")
    evs = events_of(feed(ada, now=t0))
    assert len(evs) == 1                       # seat 1 is to move
    ev = evs[0]
    assert str(ev["UID"]) == f"pbem-{gid}-{g.step}-1@{app.config['BASE_URL'].split('//')[1].split(':')[0]}"
    assert ev.decoded("DTSTART") == g.deadline_at
    assert str(ev["URL"]).endswith(f"/games/{gid}/seat/1")
    assert f"/games/{gid}/seat/1" in str(ev["DESCRIPTION"])
    alarms = [c for c in ev.walk("VALARM")]
    assert len(alarms) == 1
    assert alarms[0].decoded("TRIGGER") == -reminder_lead(g.reminder_seconds, g.deadline_seconds)
    assert events_of(feed(bo, now=t0)) == []   # not Bo's move


def test_the_event_follows_extensions_pauses_and_resolutions(app, t0):
    gid = new_tally(t0)
    ada = player("ada@example.org")
    first = events_of(feed(ada, now=t0))[0]
    extend_deadline(gid, 7200, now=t0)
    moved = events_of(feed(ada, now=t0))[0]
    assert str(moved["UID"]) == str(first["UID"])          # the same event, moved
    assert moved.decoded("DTSTART") - first.decoded("DTSTART") == dt.timedelta(hours=2)
    pause_game(gid, now=t0)
    assert events_of(feed(ada, now=t0)) == []              # no deadline while paused
    resume_game(gid, now=t0)
    assert [str(e["UID"]) for e in events_of(feed(ada, now=t0))] == [str(first["UID"])]
    submit_orders(gid, 0, "add 1", expected_step=game(gid).step, source="web", now=t0)
    assert events_of(feed(ada, now=t0)) == []              # resolved: Bo's move now
    bo = events_of(feed(player("bo@example.org"), now=t0))
    assert len(bo) == 1 and str(bo[0]["UID"]) != str(first["UID"])


def test_a_seat_that_sent_its_orders_owes_nothing(app, t0):
    gid = new_tally(t0)
    for seat in range(3):                     # a round of adds, then everyone bids at once
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=t0)
    names = ["ada@example.org", "bo@example.org", "cy@example.org"]
    assert all(len(events_of(feed(player(n), now=t0))) == 1 for n in names)
    submit_orders(gid, 1, "bid 0", expected_step=game(gid).step, source="web", now=t0)
    assert events_of(feed(player("bo@example.org"), now=t0)) == []
    assert len(events_of(feed(player("cy@example.org"), now=t0))) == 1


@pytest.mark.parametrize("zone, before, after", [
    # Europe/Helsinki: summer time ends 2026-10-25 04:00 EEST -> 03:00 EET (01:00 UTC)
    ("Europe/Helsinki", dt.datetime(2026, 10, 24, 18, 0), dt.datetime(2026, 10, 25, 18, 0)),
    # Europe/Prague: summer time begins 2027-03-28 02:00 CET -> 03:00 CEST (01:00 UTC)
    ("Europe/Prague", dt.datetime(2027, 3, 27, 18, 0), dt.datetime(2027, 3, 28, 18, 0)),
])
def test_deadlines_keep_their_wall_clock_time_across_a_dst_change(app, t0, zone, before, after):
    """Two deadlines at 18:00 local, one each side of the change: the feed
    gives both at 18:00 in the zone (and the right UTC instants), read by
    a second library."""
    gid = new_tally(t0)
    ada = player("ada@example.org")
    ada.timezone = zone
    db.session.commit()
    seen = []
    for local in (before, after):
        instant = local.replace(tzinfo=ZoneInfo(zone)).astimezone(dt.timezone.utc)
        g = db.session.get(Game, gid)
        g.deadline_at = instant
        db.session.commit()
        data = feed(ada, now=t0)
        assert f"TZID={zone}".encode() in data and b"BEGIN:VTIMEZONE" in data
        (ev,) = events_of(data)
        start = ev.decoded("DTSTART")
        assert start.astimezone(dt.timezone.utc) == instant
        assert (start.astimezone(ZoneInfo(zone)).hour, start.astimezone(ZoneInfo(zone)).minute) == (18, 0)
        seen.append(instant)
    assert seen[1] - seen[0] == dt.timedelta(hours=25 if zone == "Europe/Helsinki" else 23)


def test_the_feed_is_in_the_players_language(app, t0):
    gid = new_tally(t0)
    ada = player("ada@example.org")
    ada.language = "fi"
    db.session.commit()
    (ev,) = events_of(feed(ada, now=t0))
    assert str(ev["SUMMARY"]).startswith("Määräaika")
    assert "Määräaika" in str(ev["DESCRIPTION"]) and f"#{gid}" in str(ev["SUMMARY"])


def test_the_secret_link_opens_only_its_feed_and_renewing_revokes_it(app, t0):
    new_tally(t0)
    ada = player("ada@example.org")
    assert calendar_path(ada) is None
    set_calendar(ada.id, "on")
    path = calendar_path(ada)
    token = path.rsplit("/", 1)[1].removesuffix(".ics")
    secret = token.split(".", 1)[1]
    assert token == f"{ada.id}.{secret}" and player_of_feed(token).id == ada.id
    set_calendar(ada.id, "on")                             # on again: the same link
    assert calendar_path(ada) == path
    bo = player("bo@example.org")
    assert player_of_feed(f"{bo.id}.{secret}") is None     # not another player's feed
    assert player_of_feed(f"{ada.id}.{secret[:-1]}{'A' if secret[-1] != 'A' else 'B'}") is None
    for bad in ("", secret, f"x.{secret}", f"99999999999.{secret}", f"{ada.id}", f"{ada.id}.", f"-1.{secret}",
                f"\u0661.{secret}"):
        assert player_of_feed(bad) is None, bad
    set_calendar(ada.id, "renew")
    assert player_of_feed(token) is None and calendar_path(ada) != path
    set_calendar(ada.id, "off")
    assert calendar_path(ada) is None
    assert ada.calendar_nonce is None and secret not in repr(ada.__dict__)


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from pbem.service.accounts.zones import ZONES  # noqa: E402


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(zone=st.sampled_from(sorted(ZONES)), minutes=st.integers(0, 5 * 366 * 24 * 60), shift=st.integers(1, 14 * 24))
def test_any_deadline_in_any_zone_reads_back_as_the_same_instant_with_the_same_uid(app, t0, zone, minutes, shift):
    """Property: for every zone a player may choose and any deadline in the
    next five years, the second library reads the event at exactly the
    stored instant, at the wall-clock time of that zone; moving the
    deadline keeps the UID."""
    if not db.session.execute(db.select(Game.id)).first():
        new_tally(t0)
    ada = player("ada@example.org")
    ada.timezone = zone
    g = db.session.execute(db.select(Game)).scalars().first()
    uids = set()
    for instant in (t0 + dt.timedelta(minutes=minutes), t0 + dt.timedelta(minutes=minutes, hours=shift)):
        g.deadline_at = instant
        db.session.commit()
        (ev,) = events_of(feed(ada, now=t0))
        start = ev.decoded("DTSTART")
        assert start.astimezone(dt.timezone.utc) == instant
        local = instant.astimezone(ZoneInfo(zone))
        assert start.replace(tzinfo=None) == local.replace(tzinfo=None)
        uids.add(str(ev["UID"]))
    assert len(uids) == 1


def test_an_absence_that_moves_the_deadline_moves_the_event(app, t0):
    """The absences of issue 25 move ``games.deadline_at``; the feed, read
    from it, moves the same event (same UID) there, and back when the
    absence is withdrawn."""
    from pbem.service.play.absences import declare, withdraw

    gid = new_tally(t0)
    ada = player("ada@example.org")
    (before,) = events_of(feed(ada, now=t0))
    deadline = game(gid).deadline_at
    absence = declare(ada.id, deadline - dt.timedelta(hours=1), deadline + dt.timedelta(days=2), game_id=gid, now=t0)
    moved = game(gid).deadline_at
    assert moved > deadline
    (after,) = events_of(feed(player("ada@example.org"), now=t0))
    assert str(after["UID"]) == str(before["UID"]) and after.decoded("DTSTART") == moved
    withdraw(ada.id, absence.id, now=t0)
    (back,) = events_of(feed(player("ada@example.org"), now=t0))
    assert back.decoded("DTSTART") == game(gid).deadline_at and str(back["UID"]) == str(before["UID"])
