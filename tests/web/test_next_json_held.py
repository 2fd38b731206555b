"""next.json names a line the server would hold for a later decision
(``held``), so the order page never adds a click to a set of lines as one
held for later: after 'no tower' or one corner, another corner is the same
decision again (order.js addToSet; the browser side in
test_browser_diestadt.py)."""
from __future__ import annotations

from .conftest import signed_in
from .test_browser_diestadt import _moves_to, two_corners


def test_a_line_after_the_turns_last_decision_is_marked_held(app):
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.core.snapshot import engine_state
    from pbem.web.tour import PLAYERS, new_game, play

    seed, moves = next((s, m) for s in range(1, 60) if (m := _moves_to("tower", s, two_corners)) is not None)
    gid = new_game("diestadt", seed)
    play(gid, seed, moves)
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    assert state.decision == "tower"
    cw, ccw = [a.to_text() for a in state.legal_actions(seat) if a.site]
    none = next(a.to_text() for a in state.legal_actions(seat) if not a.site)
    client = signed_in(app, PLAYERS[seat][1])
    url = f"/games/{gid}/seat/{seat + 1}/next.json"

    def held(text: str) -> list[bool]:
        res = client.get(url, query_string={"orders": text, "step": state.step}).get_json()
        assert res["status"] == "ok" and res["preview"] is False
        return [line["held"] for line in res["lines"]]

    assert held(cw) == [False]
    assert held(f"{none}\n{cw}") == [False, True]
    assert held(f"{cw}\n{ccw}") == [False, True]
