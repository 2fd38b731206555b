"""The public API shows a seat nothing its view hides (issue 28), by the
oracle of test_no_leaks.py (tests/security/hidden.py) over random La Città
games played through the real service: for every seat X, with X's own
token, every read of the API (my games, the public view, X's seat view,
its legal orders, its history, an order refused) contains no other
seat's private log line, and is byte-identical when what X cannot see is
changed (the hidden variant). The fuzzing of tests/api/test_fuzz_api.py
checks the same on generated requests for one seat."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from sqlalchemy import select

from pbem.service.accounts.tokens import create_token
from pbem.service.core.db import db
from pbem.service.core.models import Game, GameEvent

from .conftest import player_id
from .hidden import PEOPLE, hidden_variant, play


def _answers(client, token: str, gid: int, x: int) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    seat = f"/api/v1/games/{gid}/seats/{x + 1}"
    out = {}
    for path in ("/api/v1/games", f"/api/v1/games/{gid}", seat, f"{seat}/legal", f"{seat}/events",
                 f"{seat}/legal?orders=wish+F6+culture"):
        resp = client.get(path, headers=headers)
        assert resp.status_code in (200, 422), (path, resp.status_code)
        out[path] = resp.get_data(as_text=True)
    refused = client.post(f"{seat}/orders", json={"orders": "build castle Z99\nwish F6 culture"}, headers=headers)
    out["refused order"] = refused.get_data(as_text=True)
    db.session.rollback()
    return out


@pytest.mark.slow
@settings(max_examples=6, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seats=st.sampled_from([3, 4]), seed=st.integers(0, 2 ** 32), steps=st.integers(0, 20),
       to_last_card=st.booleans(), rnd=st.randoms(use_true_random=False))
def test_no_api_answer_shows_a_seat_what_its_view_hides(app, seats, seed, steps, to_last_card, rnd):
    gid = play(seats, seed, steps, rnd, to_last_card=to_last_card)
    client = app.test_client()
    tokens = [create_token(player_id(email), "leak test", "order")[1] for _name, email in PEOPLE[:seats]]
    original = db.session.get(Game, gid).state
    events = db.session.execute(select(GameEvent).where(GameEvent.game_id == gid)).scalars().all()
    for x in range(seats):
        answers = _answers(client, tokens[x], gid, x)
        seen = {e.text for e in events if e.visible_to(x)}
        for text in {e.text for e in events if not e.visible_to(x)} - seen:
            for where, body in answers.items():
                assert text not in body and json.dumps(text)[1:-1] not in body, (x, where, text)
        variant = hidden_variant(original, x)
        if variant is None:
            continue
        db.session.execute(Game.__table__.update().where(Game.id == gid).values(state=variant))
        db.session.commit()
        try:
            changed = _answers(client, tokens[x], gid, x)
        finally:
            db.session.execute(Game.__table__.update().where(Game.id == gid).values(state=original))
            db.session.commit()
        for key, body in answers.items():
            assert changed[key] == body, f"seat {x + 1}: {key} depends on cards it cannot see"
