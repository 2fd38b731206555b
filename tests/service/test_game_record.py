"""The game record (issue 25): the whole record of a finished game replays
to the same position byte for byte (``pbem replay``), a seat's record of a
running game carries none of the other seats' secrets, the text record is
in the reader's language."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli.replay import replay
from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed
from pbem.service.core.models import Player
from pbem.service.core.snapshot import engine_state
from pbem.service.play.orders import submit_orders
from pbem.service.play.record import game_record, record_text
from pbem.service.play.record_check import RecordError, check

from .helpers import game, new_tally


def play_to_the_end(gid: int, t0) -> None:
    """Tally played out: every seat adds 3 and bids its highest."""
    while game(gid).status == "active":
        g = game(gid)
        state = engine_state(g)
        seat = state.current_seats()[0]
        submit_orders(gid, seat, state.legal_actions(seat)[-1].to_text(), expected_step=g.step, source="web", now=t0)


def test_a_finished_games_record_replays_byte_for_byte(app, t0, tmp_path):
    gid = new_tally(t0)
    play_to_the_end(gid, t0)
    rec = game_record(gid)
    assert rec["status"] == "finished" and rec["seed"] == str(game(gid).seed)
    assert len(rec["moves"]) == game(gid).step and rec["final_state"] == game(gid).state
    assert all("@" not in s["name"] for s in rec["seats"])           # names, never addresses
    text = json.dumps(rec)
    assert check(text).step == game(gid).step
    path = tmp_path / "record.json"
    path.write_text(text)
    ok = CliRunner().invoke(replay, [str(path)])
    assert ok.exit_code == 0, ok.output
    assert "byte for byte" in ok.output


def test_a_changed_order_or_position_fails_the_replay_with_a_reason(app, t0, tmp_path):
    gid = new_tally(t0)
    play_to_the_end(gid, t0)
    rec = game_record(gid)
    wrong_state = dict(rec, final_state=rec["final_state"].replace('"step"', '"step" ', 1))
    with pytest.raises(RecordError, match="different position"):
        check(json.dumps(wrong_state))
    moves = [dict(m) for m in rec["moves"]]
    moves[0]["order"] = "add 9"
    with pytest.raises(RecordError, match="step 0: seat 1's order 'add 9' does not apply"):
        check(json.dumps(dict(rec, moves=moves)))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(wrong_state))
    result = CliRunner().invoke(replay, [str(path)])
    assert result.exit_code == 1 and "different position" in result.output
    path.write_text("not json")
    assert CliRunner().invoke(replay, [str(path)]).exit_code == 1


def test_a_seats_record_of_a_running_game_holds_no_other_seats_secret(app, t0):
    gid = new_tally(t0)
    for seat in range(3):
        submit_orders(gid, seat, "add 1", expected_step=game(gid).step, source="web", now=t0)
    submit_orders(gid, 1, "bid 0", expected_step=game(gid).step, source="web", now=t0)
    with pytest.raises(NotAllowed):
        game_record(gid)                                   # no whole record while it runs
    rec = game_record(gid, 0)
    assert "seed" not in rec and "final_state" not in rec and rec["complete"] is False
    assert {m["seat"] for m in rec["moves"]} == {1}        # only the seat's own orders
    assert all(e["seat"] in (None, 1) for e in rec["events"])
    with pytest.raises(RecordError, match="no seed"):
        check(json.dumps(rec))
    state = engine_state(game(gid))
    secrets = [state.d["secret"][s] for s in (1, 2)]
    text = record_text(gid, "en", 0)
    assert "your own orders" in text and "bid 0" not in text          # Bo's pending bid: not Ada's
    assert "seed" not in text.lower() or "# seed" not in text
    # the other seats' secret numbers show nowhere: the record is the same whatever they are
    g = game(gid)
    original = g.state
    d = json.loads(original)
    d["secret"] = [d["secret"][0]] + [x + 5 for x in secrets]
    g.state = json.dumps(d)
    db.session.commit()
    try:
        assert game_record(gid, 0) == rec and record_text(gid, "en", 0) == text
    finally:
        g = game(gid)
        g.state = original
        db.session.commit()


def test_the_text_record_is_in_the_readers_language_and_golden_form(app, t0):
    gid = new_tally(t0)
    play_to_the_end(gid, t0)
    en = record_text(gid, "en")
    assert en.startswith(f"# pbem game record: Tally #{gid}")
    assert "== step 1: Ada (seat 1): add 3" in en and "  [all] Seat 1 adds 3" in en
    assert "== scores" in en and "place 1:" in en
    fi = record_text(gid, "fi")
    assert fi.startswith(f"# pbem-pelin pöytäkirja: Tally #{gid}")
    assert "== vaihe 1: Ada (pelaajapaikka 1): add 3" in fi
