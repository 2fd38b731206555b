"""Mail names people, not seats, as the pages do (issue 29, item 5): the
events in every mail kind, the phase, and the final scores."""
from __future__ import annotations

import datetime as dt

from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders

from .helpers import body_text, game, new_tally, outbox

H = dt.timedelta(hours=1)


def test_events_in_mail_name_the_players(app, t0):
    gid = new_tally(t0)
    scan(now=t0 + 48 * H)  # seat 1 misses: everyone hears
    for row in outbox(kind="missed"):
        text = body_text(row)
        assert "Ada adds 1; the tally is 1." in text, text
        assert "Seat 1 adds" not in text
    submit_orders(gid, 1, "add 1", expected_step=game(gid).step, source="web", now=t0 + 49 * H)
    [notice] = [r for r in outbox(kind="turn") if r.seat_index == 2 and r.status == "pending"] or [None]
    if notice is not None:
        text = body_text(notice)
        assert "Bo adds 1" in text and "Seat 2 adds" not in text


def test_the_phase_in_a_subject_names_the_player(app, t0):
    gid = new_tally(t0)
    [notice] = outbox(kind="turn", game_id=gid)
    assert "Ada to add" in body_text(notice)
    assert "Seat 1 to add" not in notice.subject and "Seat 1 to add" not in body_text(notice)



def test_the_game_over_mail_breaks_the_scores_down_when_the_game_does(app, t0, tally_game, monkeypatch):
    from sqlalchemy import select

    from pbem.engine.messages import Msg
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    from .test_resolution import play_round

    monkeypatch.setattr(type(tally_game.new_state(3, 1)), "score_breakdown", lambda self: [
        (Msg("stables"), {s.seat: s.points - 1 for s in self.scores()}),
        (Msg("palace tiles"), {s.seat: 1 for s in self.scores()})], raising=False)
    gid = new_tally(t0)
    db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one().language = "fi"
    play_round(gid, (3, 3, 2))
    text = body_text(outbox(kind="over", recipient="bo@example.org")[0])
    assert "tallit 2, palatsilaatat 1" in text, text
