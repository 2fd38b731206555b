"""Absences in the service (issue 25): a declared absence moves the seat's
turn deadline (the one stored deadline, games.deadline_at), within the
game's cap and the player's yearly budget; the next turn's deadline too;
withdrawing moves it back; by mail, an ``away`` line in every language."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from pbem.service.core.absence_rows import Absence, AbsenceShift
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.inbound import handle_inbound
from pbem.service.play import absences
from pbem.service.play.deadlines import scan

from .helpers import body_text, game, new_tally, outbox
from .test_inbound import reply_to_notice

H = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


def pid(email: str) -> int:
    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


def test_an_absence_over_the_deadline_moves_it_to_its_end_plus_the_grace(app, t0):
    gid = new_tally(t0, grace_hours=24)
    assert game(gid).deadline_at == t0 + 48 * H
    absences.declare(pid("ada@example.org"), t0 + 24 * H, t0 + 5 * DAY, now=t0)
    g = game(gid)
    assert g.deadline_at == t0 + 6 * DAY and g.deadline_base_at == t0 + 48 * H
    assert g.absence_used_seconds == int((4 * DAY).total_seconds())
    # the scan does not resolve the turn at the old deadline
    assert scan(now=t0 + 49 * H).expired == []
    assert game(gid).step == 0


def test_an_absence_not_covering_the_deadline_moves_nothing(app, t0):
    gid = new_tally(t0)
    absences.declare(pid("ada@example.org"), t0 + 50 * H, t0 + 5 * DAY, now=t0)   # after the deadline
    absences.declare(pid("bo@example.org"), t0, t0 + 5 * DAY, now=t0)             # Bo is not to move
    g = game(gid)
    assert g.deadline_at == t0 + 48 * H and g.deadline_base_at is None and g.absence_used_seconds == 0


def test_the_cap_bounds_the_move_and_then_the_missed_turn_rules_apply(app, t0):
    gid = new_tally(t0, absence_cap_days=2)
    absences.declare(pid("ada@example.org"), t0, t0 + 20 * DAY, now=t0)
    assert game(gid).deadline_at == t0 + 48 * H + 2 * DAY
    assert scan(now=t0 + 48 * H + 2 * DAY).expired == [gid]      # default order, as without an absence
    g = game(gid)
    assert g.step >= 1 and g.seat(0).missed_turns == 1


def test_the_yearly_budget_bounds_the_move(app, t0):
    gid = new_tally(t0)
    ada = pid("ada@example.org")
    db.session.get(Player, ada).absence_budget_days = 1
    db.session.commit()
    absences.declare(ada, t0, t0 + 10 * DAY, now=t0)
    assert game(gid).deadline_at == t0 + 48 * H + DAY


def test_overlapping_absences_move_the_deadline_once(app, t0):
    gid = new_tally(t0)
    ada = pid("ada@example.org")
    absences.declare(ada, t0 + 24 * H, t0 + 3 * DAY, now=t0)
    absences.declare(ada, t0 + 2 * DAY, t0 + 4 * DAY, now=t0)
    g = game(gid)
    assert g.deadline_at == t0 + 4 * DAY  # grace 0: the joined span's end, once
    assert db.session.execute(select(AbsenceShift)).scalars().all()[0].seconds == int((2 * DAY).total_seconds())


def test_withdrawing_moves_the_deadline_back_and_refunds_the_cap(app, t0):
    gid = new_tally(t0)
    ada = pid("ada@example.org")
    row = absences.declare(ada, t0, t0 + 5 * DAY, now=t0)
    assert game(gid).deadline_at == t0 + 5 * DAY
    assert not absences.withdraw(pid("bo@example.org"), row.id, now=t0)   # not Bo's
    assert absences.withdraw(ada, row.id, now=t0)
    g = game(gid)
    assert g.deadline_at == t0 + 48 * H and g.absence_used_seconds == 0 and g.deadline_base_at is None


def test_the_next_turns_deadline_moves_too(app, t0):
    from pbem.service.play.orders import submit_orders

    gid = new_tally(t0)
    absences.declare(pid("bo@example.org"), t0, t0 + 5 * DAY, now=t0)
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0 + H)  # Ada moves; Bo, away, is next
    g = game(gid)
    assert g.step == 1 and g.deadline_at == t0 + 5 * DAY
    assert absences.away_until(g, now=t0 + 2 * H) == {1: t0 + 5 * DAY}


def test_bad_absences_are_refused(app, t0):
    ada = pid("ada@example.org") if new_tally(t0) else None
    for start, end, code in ((t0 + DAY, t0, "order"), (t0 - 5 * DAY, t0 - DAY, "past"),
                             (t0, t0 + 400 * DAY, "long")):
        with pytest.raises(absences.AbsenceError) as err:
            absences.declare(ada, start, end, now=t0)
        assert err.value.code == code
    for i in range(absences.MAX_PENDING):
        absences.declare(ada, t0 + i * DAY, t0 + i * DAY + H, now=t0)
    with pytest.raises(absences.AbsenceError) as err:
        absences.declare(ada, t0 + 9 * DAY, t0 + 10 * DAY, now=t0)
    assert err.value.code == "many"


@pytest.mark.parametrize("line", [
    "away 2026-11-21 to 2026-11-27",
    "poissa 21.11.2026–27.11.2026",
    "pryč od 21.11.2026 do 27.11.2026",
    "fora del 21/11/2026 al 27/11/2026",
    "Abwesend 21.11.2026 bis 27.11.2026",
])
def test_an_away_line_by_mail_records_the_absence_in_every_language(app, t0, line):
    gid = new_tally(t0)
    res = handle_inbound(reply_to_notice(outbox(kind="turn")[0], line), now=t0)
    assert res.result == "absence"
    row = db.session.execute(select(Absence)).scalar_one()
    # the player's own zone (UTC here): from the first day's start to the last day's end
    assert (row.starts_at, row.ends_at, row.game_id) == (
        dt.datetime(2026, 11, 21, tzinfo=dt.timezone.utc), dt.datetime(2026, 11, 28, tzinfo=dt.timezone.utc), None)
    assert game(gid).deadline_at == dt.datetime(2026, 11, 28, tzinfo=dt.timezone.utc)
    answer = outbox(kind="absence")
    assert len(answer) == 1 and answer[0].recipient == "ada@example.org"
    assert line in body_text(answer[0]) and "Recorded" in body_text(answer[0])
    assert outbox(kind="refusal") == []  # the away line is not read as a failed order


def test_an_away_line_is_read_in_the_players_own_zone(app, t0):
    new_tally(t0)
    ada = db.session.get(Player, pid("ada@example.org"))
    ada.timezone = "Europe/Helsinki"
    db.session.commit()
    handle_inbound(reply_to_notice(outbox(kind="turn")[0], "away 2026-12-20 to 2026-12-27"), now=t0)
    row = db.session.execute(select(Absence)).scalar_one()
    assert row.starts_at == dt.datetime(2026, 12, 19, 22, 0, tzinfo=dt.timezone.utc)
    assert row.ends_at == dt.datetime(2026, 12, 27, 22, 0, tzinfo=dt.timezone.utc)


def test_a_bad_away_line_is_refused_with_what_was_read_and_orders_still_apply(app, t0):
    gid = new_tally(t0)
    res = handle_inbound(reply_to_notice(outbox(kind="turn")[0], "away 2026-12-20 somewhere 2026-12-27\nadd 2"), now=t0)
    assert res.result == "stored" and game(gid).step == 1           # the order line was applied
    assert db.session.execute(select(Absence)).first() is None
    text = body_text(outbox(kind="absence")[0])
    assert "away 2026-12-20 somewhere 2026-12-27" in text and "somewhere" in text and "Not recorded" in text
    assert "away 2026-12-20 to 2026-12-27" in text                   # how to write it


def test_an_away_mail_delivered_twice_is_recorded_once(app, t0):
    new_tally(t0)
    raw = reply_to_notice(outbox(kind="turn")[0], "away 2026-12-20 to 2026-12-27")
    assert handle_inbound(raw, now=t0).result == "absence"
    assert handle_inbound(raw, now=t0).result == "duplicate"
    assert len(db.session.execute(select(Absence)).all()) == 1 and len(outbox(kind="absence")) == 1


def test_the_turn_mail_tells_the_other_seats_who_is_away_until_when_and_nothing_else(app, t0):
    from .helpers import compose_pending

    real_now = dt.datetime.now(dt.timezone.utc)   # a deferred turn notice is composed now
    gid = new_tally(t0)
    until = max(real_now, t0) + 10 * DAY
    absences.declare(pid("bo@example.org"), t0 - DAY, until, now=t0)
    from pbem.service.play.orders import submit_orders

    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0 + H)   # Bo (away) is next
    compose_pending()
    bo_turn = [r for r in outbox(kind="turn") if r.seat_index == 1][-1]
    assert "away until" not in body_text(bo_turn)            # not told about themself
    submit_orders(gid, 1, "add 1", expected_step=1, source="web", now=t0 + 2 * H)
    compose_pending()
    cy_turn = [r for r in outbox(kind="turn") if r.seat_index == 2][-1]
    text = body_text(cy_turn)
    assert "Bo (seat 2): away until" in text
    line = next(l for l in text.splitlines() if "away until" in l)
    assert str(until.year) in line and "Ada" not in line


@pytest.mark.parametrize("lang", ["en", "fi", "cs", "ca", "de"])
def test_every_languages_example_away_line_is_read_back(lang):
    """The refusal and the account page show an example line in the
    player's words; each must be a line the reader takes."""
    from pbem.i18n import translations
    from pbem.service.play.away_line import read_away

    line = translations(lang).gettext("away 2026-12-20 to 2026-12-27")
    away = read_away(line, "UTC")
    assert (away.start, away.end) == (dt.datetime(2026, 12, 20, tzinfo=dt.timezone.utc),
                                      dt.datetime(2026, 12, 28, tzinfo=dt.timezone.utc))


def test_the_grace_and_absence_mails_are_in_the_players_language(app, t0):
    gid = new_tally(t0, grace_hours=24)
    for email, lang in (("ada@example.org", "fi"),):
        player = db.session.get(Player, pid(email))
        player.language, player.language_chosen = lang, True
    db.session.commit()
    handle_inbound(reply_to_notice(outbox(kind="turn")[0], "poissa 20.12.2026 - 27.12.2026 jossain"), now=t0)
    text = body_text(outbox(kind="absence")[0])
    assert "Ei kirjattu" in text and "jossain" in text and "poissa 20.12.2026\u201327.12.2026" in text
    scan(now=game(gid).deadline_at)
    assert "Myöhästyit määräajasta" in body_text(outbox(kind="grace")[0])


@pytest.mark.parametrize("line", ["away 9999-12-30 to 9999-12-31", "away 0001-01-01 to 0001-01-02",
                                  "away 2026-02-30 to 2026-03-02", "away 2026-12-20 25:00 to 2026-12-21",
                                  "away 2026-12-20", "away " + "2026-12-20 to " * 40 + "2026-12-21"])
def test_hostile_away_lines_are_refused_never_crash(app, t0, line):
    new_tally(t0)
    res = handle_inbound(reply_to_notice(outbox(kind="turn")[0], line), now=t0)
    assert res.result == "absence"
    assert db.session.execute(select(Absence)).first() is None
    assert "Not recorded" in body_text(outbox(kind="absence")[0])


def test_the_web_form_refuses_days_past_the_calendars_end(app, t0):
    from pbem.service.play.absence_views import declare_days

    new_tally(t0)
    with pytest.raises(absences.AbsenceError) as err:
        declare_days(pid("ada@example.org"), "9999-12-31", "9999-12-31", "Pacific/Kiritimati", now=t0)
    assert err.value.code == "date"


def test_an_absence_declared_after_the_deadline_passed_does_not_undo_the_missed_turn(app, t0):
    gid = new_tally(t0)
    absences.declare(pid("ada@example.org"), t0, t0 + 5 * DAY, now=t0 + 48 * H + 30 * dt.timedelta(seconds=1))
    assert game(gid).deadline_at == t0 + 48 * H       # not moved: declared too late
    assert scan(now=t0 + 49 * H).expired == [gid]


def test_a_reminder_goes_again_before_a_deadline_an_absence_moved(app, t0):
    gid = new_tally(t0)
    assert scan(now=t0 + 36 * H).reminded == [gid]
    absences.declare(pid("ada@example.org"), t0 + 37 * H, t0 + 4 * DAY, now=t0 + 37 * H - dt.timedelta(minutes=5))
    assert game(gid).deadline_at == t0 + 4 * DAY
    assert scan(now=t0 + 4 * DAY - 13 * H).reminded == []
    assert scan(now=t0 + 4 * DAY - 12 * H).reminded == [gid]
    assert len(outbox(kind="reminder")) == 2
