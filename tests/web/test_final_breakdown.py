"""A finished game's page shows where the points come from when the game
gives a breakdown (issue 29, Medina's final scores)."""
from __future__ import annotations

import random

from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.core.snapshot import engine_state
from pbem.service.play.lifecycle import create_game, join_game

from .pagetext import text_of

PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


def test_a_finished_medina_page_breaks_the_scores_down(app):
    gid = create_game("medina", PLAYERS[0][1], PLAYERS, seed=5).id
    for i in (1, 2):
        join_game(gid, i)
    db.session.commit()
    db.session.expire_all()
    game = db.session.get(Game, gid)
    state, rng = engine_state(game), random.Random(2)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    game.state, game.step, game.phase, game.status = state.to_json(), state.step, state.phase(), "finished"
    game.deadline_at = None
    db.session.commit()
    text = text_of(app.test_client().get(f"/games/{gid}").get_data(as_text=True))
    for s in state.scores():
        d = s.detail
        assert (f"palace pieces {d['palaces']} · stables {d['stables']} · merchants {d['merchants']} · "
                f"wall pieces {d['walls']} · palace tiles {d['palace_tiles']} · tower tiles {d['tower_tiles']}") in text
