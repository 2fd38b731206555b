"""Every option name and value of pbem's own games has words players read,
as a translatable message (the new-game, join and game pages show them);
a game without them shows the word as it is."""
import pytest

from pbem.engine import ENGINES, GAMES
from pbem.engine.messages import Msg


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_option_name_and_value_has_a_message(name):
    game = GAMES[name]
    for option, values in game.options.items():
        for word in (option, *values):
            assert isinstance(game.option_word(word), Msg), f"{name}: {word!r} has no option word"


def test_a_word_without_an_entry_is_shown_as_it_is():
    game = GAMES["lacitta"]
    assert game.option_word("no-such-word") == "no-such-word"
    assert game.option_word("experienced") == "for experienced players"
