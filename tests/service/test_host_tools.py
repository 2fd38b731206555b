"""The host's tools: resend an invitation, cancel a game, and host notices
coalesced (issue #14)."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed, ServiceError, WrongStatus
from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import (
    CANCELLED, cancel_game, create_game, extend_deadline, join_game, pause_game, resume_game,
)
from pbem.service.core.models import GameEvent, Player
from pbem.service.play.orders import submit_orders
from pbem.service.play.replacement import resend_invitation
from pbem.service.post.delivery import deliver_due

from .helpers import PLAYERS, body_text, game, new_tally, outbox

H = dt.timedelta(hours=1)
S = dt.timedelta(seconds=1)


def _player(email: str) -> Player:
    return db.session.execute(select(Player).where(Player.email == email)).scalar_one()


def test_host_resends_an_invitation_at_most_every_ten_minutes(app, t0):
    gid = create_game("tally", "ada@example.org", PLAYERS, seed=1, now=t0).id
    ada, bo = _player("ada@example.org"), _player("bo@example.org")
    assert len(outbox(kind="invite", recipient="bo@example.org")) == 1
    with pytest.raises(NotAllowed):
        resend_invitation(gid, 1, by_player_id=bo.id, now=t0 + H)
    resend_invitation(gid, 1, by_player_id=ada.id, now=t0 + 5 * 60 * S)  # the first resend goes at once
    with pytest.raises(ServiceError, match="another in 6 min"):
        resend_invitation(gid, 1, by_player_id=ada.id, now=t0 + 10 * 60 * S)
    resend_invitation(gid, 1, by_player_id=ada.id, now=t0 + H)
    invites = outbox(kind="invite", recipient="bo@example.org")
    assert len(invites) == 3 and "/signin/" in body_text(invites[2])
    with pytest.raises(ServiceError, match="another in 10 min"):
        resend_invitation(gid, 1, by_player_id=ada.id, now=t0 + H + S)
    assert len(outbox(kind="invite", recipient="bo@example.org")) == 3
    with pytest.raises(ServiceError, match="joined"):
        resend_invitation(gid, 0, by_player_id=ada.id, now=t0 + 2 * H)  # the host's own seat
    from pbem.service.play.lifecycle import start_game

    join_game(gid, 1, now=t0 + 2 * H)
    start_game(gid, by_player_id=ada.id, now=t0 + 2 * H)   # Cy has not joined: her seat plays by mail
    with pytest.raises(ServiceError, match="joined"):
        resend_invitation(gid, 1, by_player_id=ada.id, now=t0 + 3 * H)
    resend_invitation(gid, 2, by_player_id=ada.id, now=t0 + 3 * H)   # a running game: still for Cy
    assert len(outbox(kind="invite", recipient="cy@example.org")) == 2
    cancel_game(gid, by_player_id=ada.id, now=t0 + 4 * H)
    with pytest.raises(WrongStatus):
        resend_invitation(gid, 2, by_player_id=ada.id, now=t0 + 5 * H)


def test_host_cancels_a_running_game_without_scores(app, t0):
    gid = new_tally(t0)
    ada, bo = _player("ada@example.org"), _player("bo@example.org")
    with pytest.raises(NotAllowed):
        cancel_game(gid, by_player_id=bo.id, now=t0 + H)
    cancel_game(gid, by_player_id=ada.id, now=t0 + H)
    g = game(gid)
    assert g.status == CANCELLED and g.deadline_at is None and g.finished_at == t0 + H
    told = outbox(kind="cancelled")
    assert sorted(r.recipient for r in told) == ["ada@example.org", "bo@example.org", "cy@example.org"]
    assert "cancelled the game" in body_text(told[0])
    assert [e.text for e in db.session.execute(select(GameEvent).where(GameEvent.kind == "cancelled")).scalars()] \
        == ["The host cancelled the game."]
    report = scan(now=t0 + 100 * H)  # no deadline, no reminder
    assert report.expired == [] and outbox(kind="reminder") == []
    res = submit_orders(gid, 0, "add 1", expected_step=g.step, source="web")
    assert res.status == "refused" and "cancelled" in res.message
    with pytest.raises(WrongStatus):
        cancel_game(gid, by_player_id=ada.id, now=t0 + 2 * H)
    assert len(outbox(kind="cancelled")) == 3  # told once


def test_a_waiting_game_can_be_cancelled_and_its_turn_notices_are_not_sent(app, t0):
    gid = create_game("tally", "ada@example.org", PLAYERS, seed=1, now=t0).id
    cancel_game(gid, now=t0 + H)
    assert game(gid).status == CANCELLED
    told = outbox(kind="cancelled", game_id=gid)
    assert len(told) == 3 and told[0].subject == f"[pbem] Tally #{gid} — cancelled by the host"
    gid2 = new_tally(t0)
    assert outbox(kind="turn", game_id=gid2, status="pending")
    cancel_game(gid2, now=t0)
    deliver_due(now=t0 + H)
    assert [r.status for r in outbox(kind="turn", game_id=gid2)] == ["superseded"]


def test_host_actions_in_quick_succession_send_one_notice_per_seat(app, t0):
    gid = new_tally(t0)
    pause_game(gid, now=t0 + 10 * S)
    resume_game(gid, now=t0 + 12 * S)
    extend_deadline(gid, 3600, now=t0 + 13 * S)
    pending = [r for r in outbox() if r.kind in ("paused", "resumed", "extended") and r.status == "pending"]
    assert sorted((r.kind, r.recipient) for r in pending) == [
        ("extended", "ada@example.org"), ("extended", "bo@example.org"), ("extended", "cy@example.org")]
    assert all(r.next_attempt_at > t0 + 13 * S for r in pending)  # waits for more host actions
    told = body_text(pending[0])
    assert "The host paused the game." in told and "The host resumed the game." in told
    assert _first_line(pending[0]).startswith("The host has extended the deadline (Ada to add) to ")
    assert told.index("The host paused the game.") < told.index("The host resumed the game.")
    # a host action after the last notice fell due does not touch it: it is (being) sent
    pause_game(gid, now=t0 + 2 * H)
    assert len(outbox(kind="paused", status="pending")) == 3
    assert {r.status for r in outbox(kind="extended")} == {"pending"}


def test_a_paused_game_extended_says_it_is_still_paused(app, t0):
    gid = new_tally(t0)
    pause_game(gid, now=t0 + 10 * H)
    extend_deadline(gid, 2 * 3600, now=t0 + 10 * H + 5 * S)
    [mail] = outbox(kind="extended", recipient="bo@example.org")
    told = body_text(mail)
    assert "The host paused the game." in told
    assert "The game is paused: when it resumes, 40 h are left to the deadline." in told


@pytest.mark.parametrize("delay", [0, 300])
def test_the_host_notice_waits_as_long_as_the_setting_says(app, t0, delay):
    app.config["HOST_NOTICE_DELAY_SECONDS"] = delay
    gid = new_tally(t0)
    pause_game(gid, now=t0 + 10 * S)
    due = {r.next_attempt_at for r in outbox(kind="paused")}
    assert len(outbox(kind="paused")) == 3
    if delay:
        assert due == {t0 + 10 * S + delay * S}
    else:
        assert all(d <= t0 + 10 * S for d in due)   # due at once


def _first_line(row) -> str:
    return body_text(row).replace("\r\n", "\n").split("\n\n")[1].split("\n")[0]


def test_host_notices_say_what_the_host_did_with_the_deadline_in_the_readers_zone(app, t0):
    from pbem.mail.compose import format_deadline

    app.config["HOST_NOTICE_DELAY_SECONDS"] = 0
    gid = new_tally(t0)
    _player("bo@example.org").timezone = "America/New_York"
    _player("cy@example.org").timezone = "Asia/Tokyo"
    db.session.commit()
    pause_game(gid, now=t0 + H)
    resume_game(gid, now=t0 + 2 * H)
    extend_deadline(gid, 12 * 3600, now=t0 + 3 * H)
    deadline = game(gid).deadline_at
    for zone, email in (("America/New_York", "bo@example.org"), ("Asia/Tokyo", "cy@example.org")):
        [paused] = outbox(kind="paused", recipient=email)
        assert paused.subject == f"[pbem] Tally #{gid} — paused by the host"
        assert _first_line(paused).startswith("The host has paused the game")
        [resumed] = outbox(kind="resumed", recipient=email)
        assert resumed.subject.startswith(f"[pbem] Tally #{gid} — resumed, deadline ")
        [extended] = outbox(kind="extended", recipient=email)
        shown = format_deadline(deadline, zone)
        assert extended.subject == f"[pbem] Tally #{gid} — deadline extended to {shown}"
        assert _first_line(extended) == f"The host has extended the deadline (Ada to add) to {shown}."
        assert f"Deadline: {shown}" in body_text(extended)
        for row in (paused, resumed, extended):
            assert "resolved" not in body_text(row) and "what happened" not in row.subject
    assert format_deadline(deadline, "America/New_York") != format_deadline(deadline, "Asia/Tokyo")


def test_a_host_notice_waiting_when_the_turn_moves_on_goes_before_the_next_your_move(app, t0):
    gid = new_tally(t0)
    extend_deadline(gid, 12 * 3600, now=t0 + 10 * S)
    submit_orders(gid, 0, "add 1", expected_step=game(gid).step, source="web", now=t0 + 20 * S)
    [told] = outbox(kind="extended", recipient="bo@example.org")
    [turn] = outbox(kind="turn", recipient="bo@example.org")
    # delivery sends by (next_attempt_at, id): the host's word first
    assert told.next_attempt_at <= turn.next_attempt_at and told.id < turn.id
    # released once: the game row no longer says a host notice waits
    assert game(gid).host_notice_due_at is None


def test_only_a_game_whose_host_notice_waits_has_one_released(app, t0):
    gid = new_tally(t0)
    assert game(gid).host_notice_due_at is None
    extend_deadline(gid, 12 * 3600, now=t0 + 10 * S)
    [told] = outbox(kind="extended", recipient="bo@example.org")
    assert game(gid).host_notice_due_at == told.next_attempt_at > t0 + 10 * S



def test_a_host_notice_shows_the_board_as_it_is_now(app, t0):
    gid = new_tally(t0)
    submit_orders(gid, 0, "add 3", expected_step=0, source="web", now=t0 + H)
    pause_game(gid, now=t0 + 2 * H)
    [told] = outbox(kind="paused", recipient="cy@example.org")
    text = body_text(told)
    assert "Tally: 3 of 8" in text and "Tally: 0 of 8" not in text
    assert "Where the game stands: Bo to add" in text
