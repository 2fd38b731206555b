"""La Città games for the hidden-information tests: played through the
real service, and the same position with what one seat cannot see
changed (the face-down Voice of the People cards it did not look at, the
decks)."""
from __future__ import annotations

import json

from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.core.snapshot import engine_state
from pbem.service.play.lifecycle import create_game, join_game
from pbem.service.play.orders import submit_orders

PEOPLE = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org"),
          ("Di", "di@example.org")]


def new_game(seats: int, seed: int) -> int:
    """A La Città beginner game of ``seats`` (PEOPLE), every seat joined."""
    game = create_game("lacitta", PEOPLE[0][1], PEOPLE[:seats], options={"setup": "beginner"}, seed=seed)
    for i in range(1, seats):
        join_game(game.id, i)
    return game.id


def ends_the_politics(state) -> bool:
    """Whether the order the current seat owes now is the year's last
    political card (any order of it ends the political rounds: the Voice
    of the People is turned up and the year end runs)."""
    if state.phase_name != "political":
        return False
    seat = state.current_seats()[0]
    trial = state.copy()
    trial.apply(seat, state.legal_actions(seat)[0])
    return trial.phase_name != "political"


def play(seats: int, seed: int, steps: int, rnd, *, to_last_card: bool = False) -> int:
    """A La Città game played ``steps`` orders deep with random legal
    orders (preferring Bürgernähe, which peeks at hidden cards), or, with
    ``to_last_card``, until the current seat owes the year's last political
    card (at most ``steps`` orders more than that)."""
    gid = new_game(seats, seed)
    for _ in range(steps if not to_last_card else 60):
        db.session.rollback()
        g = db.session.get(Game, gid)
        db.session.refresh(g)
        if g.status != "active":
            break
        state = engine_state(g)
        if to_last_card and ends_the_politics(state):
            break
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        peeks = [a for a in actions if (a.label or "").startswith("citizens")]
        action = rnd.choice(peeks) if peeks and rnd.random() < 0.6 else rnd.choice(actions)
        res = submit_orders(gid, seat, action.to_text(), expected_step=g.step, source="web")
        assert res.status == "stored", res.summary()
    db.session.rollback()
    return gid


def _wishes(voice: list[str]) -> list[str]:
    counts = sorted(voice.count(w) for w in set(voice))
    return sorted(set(voice)) if counts == [2, 2] else [max(set(voice), key=voice.count)]


def hidden_variant(state_json: str, x: int) -> str | None:
    """The same position with everything seat ``x`` cannot see changed, or
    ``None`` when ``x`` sees everything that could differ.

    The face-down Voice of the People cards ``x`` did not look at are
    exchanged with cards of the Voice deck (face down too), choosing, where
    the cards allow, an exchange that changes this year's wishes; the Voice
    deck and the political deck are turned over by one card."""
    d = json.loads(state_json)
    hidden = [] if d["revealed"] else [i for i in range(1, len(d["voice"])) if i not in d["peeked"][x]]
    pool = [d["voice"][i] for i in hidden] + d["voice_deck"]
    changed = False
    if len(set(pool)) > 1:
        def dealt(k: int) -> list[str]:
            return pool[k:] + pool[:k]

        def year(cards: list[str]) -> list[str]:
            voice = list(d["voice"])
            for i, card in zip(hidden, cards):
                voice[i] = card
            return _wishes(voice)

        shifts = range(1, len(pool))
        k = next((k for k in shifts if hidden and year(dealt(k)) != year(pool)),
                 next((k for k in shifts if dealt(k) != pool), 0))
        new = dealt(k)
        for i, card in zip(hidden, new):
            d["voice"][i] = card
        d["voice_deck"] = new[len(hidden):]
        changed = new != pool
    if len(set(d["deck"])) > 1:
        d["deck"] = d["deck"][1:] + d["deck"][:1]
        changed = True
    return json.dumps(d) if changed else None
