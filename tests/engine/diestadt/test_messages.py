"""Every sentence the Die Stadt engine writes for players is a translatable
message (issue 16, pbem/engine/messages.py): refusals and parse errors,
events, the phase line and the decision banner are :class:`Msg`, and the
game words inside them (a feature, a follower, what was built) are
:class:`Msg` too, so a catalog can translate them. The English text itself
is pinned by the golden playthroughs and the scenario tests."""
from __future__ import annotations

import random

import pytest

from pbem.engine.api import OrderError
from pbem.engine.diestadt import decision as banner
from pbem.engine.diestadt.grid import space_name
from pbem.engine.messages import Msg

from .helpers import GAME, pos

#: parameters that carry game words or sentences (not coordinates, numbers or orders)
WORD_PARAMS = {"feature", "role", "kind", "mine", "theirs", "what", "why", "now", "cause", "names",
               "followers", "markets", "pieces", "towers", "how", "guard", "kinds", "tiles",
               "ranking", "offer", "question", "end"}

PROBES = ["", "xyz", "tile", "tile ZZ99", "tile T20 45", "gate", "gate T20 N", "wall", "wall T20 N",
          "tower", "tower T20 NE", "no tower", "tile T20 90 merchant", "citizen N", "tile T20 MMMM",
          "wall cw guard", "tower cw", "gate A1 N guard", "F7 X", "qq12"]
ROLES = ["citizen", "merchant", "overseer", ""]
POINTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def assert_message(text, where: str) -> None:
    """``text`` is a Msg whose word parameters are Msg as well (recursively)."""
    assert isinstance(text, Msg), f"{where}: plain text {text!r}"
    for name, value in text.params.items():
        if isinstance(value, Msg):
            assert_message(value, f"{where} / {name}")
        elif isinstance(value, str) and name in WORD_PARAMS:
            pytest.fail(f"{where}: parameter {name}={value!r} of {text.template!r} is plain text")


def probes(state, rng: random.Random) -> list[str]:
    """Orders worth refusing now: nonsense, the wrong kind, tiles at random."""
    out = list(PROBES)
    legal = state.legal_actions(state.current_seats()[0])
    for _ in range(4):
        site = legal[rng.randrange(len(legal))].site or "T20"
        site = space_name(rng.randrange(1600)) if rng.random() < 0.3 or len(site) > 3 else site
        out += [f"tile {site} {rng.choice([0, 90, 180, 270])} {rng.choice(ROLES)} {rng.choice(POINTS)}",
                f"tile {site} {rng.choice(ROLES)}", f"tile {site} {rng.choice(POINTS)}", f"tile {site}"]
    return out


def refusals(state, seat: int, text: str) -> list:
    """The messages of every refusal of ``text`` by ``seat``: when read, and
    (if it reads) when applied to a copy."""
    try:
        action = GAME.parse_action(state, seat, text)
    except OrderError as e:
        return [e.message]
    try:
        state.copy().apply(seat, action)
    except OrderError as e:
        return [e.message]
    return []


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_refusal_event_phase_and_banner_is_a_message(seats):
    seen = 0
    for g in range(2):
        rng = random.Random(seats * 100 + g)
        state = GAME.new_state(seats, 7000 + 10 * seats + g)
        step = 0
        while not state.is_terminal():
            seat = state.current_seats()[0]
            assert_message(state.phase(), "phase")
            assert_message(banner.rules_section(state)["question"], "rules question")
            owed = banner.decision(state, seat)
            for key in ("owes", "why", "rule"):
                assert_message(owed[key], f"decision {key}")
            if step % 3 == 0:                      # refusals: every third decision is plenty
                for text in probes(state, rng):
                    for who in {seat, (seat + 1) % seats}:
                        for message in refusals(state, who, text):
                            assert_message(message, f"refusal of {text!r}")
                            seen += 1
            legal = state.legal_actions(seat)
            for event in state.apply(seat, legal[rng.randrange(len(legal))]):
                assert_message(event.text, f"event {event.kind}")
            step += 1
        assert_message(state.phase(), "phase at the end")
    assert seen > 100


def test_a_refusal_passes_its_game_words_as_messages():
    """DS-33: a merchant stands on a market; the refusal names the feature
    and the follower as words of the game, each its own message."""
    state = pos("seats 2\ntile T20 1 0\nturn seat 1 drawn 2")     # P01: residential only
    with pytest.raises(OrderError) as err:
        GAME.parse_action(state, 0, "tile T19 0 merchant N")
    message = err.value.message
    assert str(message) == "'tile T19 0 merchant N' is not legal: the tile has no market for a merchant"
    assert_message(message, "refusal")
    why = message.params["why"]
    assert why.template == "the tile has no {feature} for a {role}"
    assert (why.params["feature"].template, why.params["role"].template) == ("market", "merchant")
