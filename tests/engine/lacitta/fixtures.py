"""La Città positions from the position text (pbem/engine/lacitta/position.py;
see README.md), and orders as players write them.

    s = position('''
        seats 2
        landscape T4=F3 T11=F1
        phase political year 1 round 1 seat 1
        city 1 I6 4: farm J6
        gold 1 0
        display palazzo, dom
        ''')
    events = play(s, "1: build quarry I7")
"""
from __future__ import annotations

from pbem.engine import get_game
from pbem.engine.lacitta.position import load_position
from pbem.engine.lacitta.state import LaCittaState

GAME = get_game("lacitta")


def position(text: str, seed: int = 1) -> LaCittaState:
    """The position ``text`` describes
    (:func:`pbem.engine.lacitta.position.load_position`)."""
    return load_position(text, GAME, seed)


def play(state: LaCittaState, *orders: str) -> list:
    """Apply orders written ``"<seat>: <order>"`` (seat numbered from 1);
    returns all events."""
    events = []
    for o in orders:
        seat, _, text = o.partition(":")
        seat = int(seat) - 1
        action = GAME.parse_action(state, seat, text.strip())
        events += state.apply(seat, action)
    return events


def texts(events) -> list[str]:
    return [e.text for e in events]


def legal(state: LaCittaState, seat: int) -> set[str]:
    """Legal order texts of ``seat`` (numbered from 1)."""
    return {a.to_text() for a in state.legal_actions(seat - 1)}


def city(state: LaCittaState, castle: str):
    return state.cities[castle]
