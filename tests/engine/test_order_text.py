"""``Game.order_text(action, lang)``: every registered game writes a legal
order in each supported language so that its parser reads it back as the
same order (the mail's legal-order list and example reply, issue 16)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pbem.engine import ENGINES, GAMES, get_game
from pbem.engine.fold import LANGUAGES


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 12),
       lang=st.sampled_from(sorted(LANGUAGES)), pick=st.integers(0, 10**6))
def test_order_text_reads_back_as_the_same_order(name, seed, steps, lang, pick):
    game = get_game(name)
    state = game.new_state(game.min_seats, seed)
    for _ in range(steps):  # somewhere into the game, by default play
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        state.apply(seat, state.default_action(seat))
    if state.is_terminal():
        return
    seat = state.current_seats()[0]
    legal = sorted(state.legal_actions(seat), key=lambda a: a.to_text())
    action = legal[pick % len(legal)]
    text = game.order_text(action, lang)
    assert game.parse_action(state, seat, text).to_text() == action.to_text()


def test_an_unknown_language_writes_english():
    for name in sorted(GAMES):
        game = get_game(name)
        state = game.new_state(game.min_seats, 1)
        action = state.legal_actions(state.current_seats()[0])[0]
        assert game.order_text(action, "xx") == action.to_text()
        assert game.order_text(action, "en") == action.to_text()


def test_every_game_of_pbem_writes_the_players_words():
    """Every game of pbem's own has words tables: it writes other words than
    English for some legal order in each language (the table is used, not
    English). A game without them writes English (the test above)."""
    for name in sorted(ENGINES):
        game = get_game(name)
        state = game.new_state(game.min_seats, 3)
        legal = state.legal_actions(state.current_seats()[0])
        for lang in [code for code in LANGUAGES if code != "en"]:
            assert any(game.order_text(a, lang) != a.to_text() for a in legal), (name, lang)
