"""The Die Stadt text view (pbem/engine/diestadt/text.py, issue 16): every
sentence goes through ``tr`` as a message, so a player reads it in their
language; the board grid is symbols and edge letters, one message written
in each language's letters (tests/engine/diestadt/test_edge_letters.py)."""
from __future__ import annotations

import random

from pbem.engine.messages import Msg

from .helpers import GAME, play, pos
from .test_words import wall_round


def marked(m) -> str:
    """A ``tr`` that shows which text went through it."""
    assert isinstance(m, Msg) or m == "", m
    return f"<{m}>" if m else ""


def sentences(text: str) -> list[str]:
    """The lines before the board grid, without their indent."""
    head = text.split("\n\n<     ")[0].split("\n\n     ")[0]   # the grid starts with its column letters
    return [line.strip() for line in head.splitlines() if line.strip()]


def test_every_sentence_of_random_positions_goes_through_tr():
    rng = random.Random(5)
    for seats, seed in ((2, 11), (4, 12)):
        st = GAME.new_state(seats, seed)
        while not st.is_terminal():
            view = st.view(st.current_seats()[0])
            text = GAME.view_text(view, marked)
            assert all(s.startswith("<") and s.endswith(">") for s in sentences(text)), text
            assert text.replace("<", "").replace(">", "") == GAME.view_text(view)
            seat = st.current_seats()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))


def test_the_wall_the_followers_and_the_drawn_tile_are_sentences():
    st = wall_round()
    play(st, "gate T20 N guard", "wall cw")
    text = GAME.view_text(st.view(None), marked)
    assert "<Wall: gate T20N, 1 piece, " in text
    assert "  <cw end at " in text and "  <ccw end at " in text
    assert "<Followers: seat 1 guard T20N" in text
    drawn = GAME.view_text(pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 6").view(0), marked)
    assert "<Drawn tile 6 (" in drawn and "<Legal spaces: " in drawn


def test_a_seat_named_by_its_player_keeps_the_name():
    view = GAME.new_state(2, 3).view(None)
    view["players"][1] = dict(view["players"][1], name="Bruno")
    lines = GAME.view_text(view).splitlines()
    assert any(line.startswith("  seat 1 (red): 0 points, ") for line in lines)
    assert any(line.startswith("  Bruno (blue): 0 points, ") for line in lines)


def test_the_drawn_tiles_building_kind_is_a_word_of_the_readers_language():
    """Issue 22: the order page says "a tile with a public building" from the
    view's ``drawn.building``; it is the kind's code ("public", as before) and
    a message the catalogs translate (Finnish "julkinen", not "(public)")."""
    from pbem.engine import get_game
    from pbem.i18n import translate

    game, seen = get_game("diestadt"), {}
    for seed in range(1, 60):
        state, rng = game.new_state(2, seed), random.Random(seed)
        for _ in range(25):
            seat = state.current_seats()[0]
            drawn = state.view(seat).get("drawn")
            if drawn and drawn["building"]:
                seen[str(drawn["building"])] = drawn["building"]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if len(seen) == 2:
            break
    assert set(seen) == {"public", "historic"}
    words = {lang: {k: translate(v, lang) for k, v in seen.items()} for lang in ("fi", "cs", "ca", "de")}
    assert words["fi"] == {"public": "julkinen", "historic": "historiallinen"}
    assert words["de"] == {"public": "öffentlich", "historic": "historisch"}
    assert all(w[k] != k for w in words.values() for k in w)
