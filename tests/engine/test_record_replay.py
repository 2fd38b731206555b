"""``pbem replay`` on every real game: a record made from each golden
playthrough (seed, options, orders) replays to the engine's final state
byte for byte, and a record whose position differs is refused (issue 25)."""
from __future__ import annotations

import json

import pytest

from pbem.service.play.record_check import FORMAT, VERSION, RecordError, check

from tests.engine.playthroughs import read, stored


def record_of(path) -> dict:
    p = read(path.read_text(encoding="utf-8"))
    state = p.new_state()
    moves = []
    for seat, text in p.orders:
        moves.append({"step": state.step, "seat": seat + 1, "order": text, "source": "web"})
        state.apply(seat, state.game.parse_action(state, seat, text))
    return {"format": FORMAT, "version": VERSION, "game": p.game, "seats": [{"number": i + 1} for i in range(p.seats)],
            "seed": str(p.seed), "options": p.options, "moves": moves, "final_state": state.to_json(),
            "step": state.step}


@pytest.mark.slow
@pytest.mark.parametrize("path", stored(), ids=lambda p: p.name)
def test_a_golden_games_record_replays_byte_for_byte(path):
    rec = record_of(path)
    assert check(json.dumps(rec)).step == rec["step"]
    d = json.loads(rec["final_state"])
    d["step"] = d.get("step", 0) + 1 if isinstance(d.get("step"), int) else 1
    with pytest.raises(RecordError, match="different position"):
        check(json.dumps(dict(rec, final_state=json.dumps(d))))
