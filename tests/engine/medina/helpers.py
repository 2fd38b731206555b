"""Helpers for the Medina scenario tests: positions from text, orders by text."""
from __future__ import annotations

from pbem.engine import get_game
from pbem.engine.medina.position import load_position

GAME = get_game("medina")
EMPTY_ROW = ". " * 16


def pos(text: str):
    """A position from the compact text format (see README.md here)."""
    return load_position(text, GAME)


def board(*rows: str, first_row: int = 1) -> str:
    """Board text: the given rows from ``first_row``, the rest empty."""
    lines = [EMPTY_ROW] * 11
    for k, r in enumerate(rows):
        lines[first_row - 1 + k] = r
    return "\n".join(f"{n + 1:>2} {r}" for n, r in enumerate(lines))


def play(state, *orders: str):
    """Apply ``orders`` (command language) for whoever's turn it is; return
    every event's text."""
    texts = []
    for order in orders:
        seat = state.current_seats()[0]
        action = GAME.parse_action(state, seat, order)
        texts += [e.text for e in state.apply(seat, action)]
    return texts


def legal_texts(state, seat=None):
    seat = state.current_seats()[0] if seat is None else seat
    return {a.to_text() for a in state.legal_actions(seat)}
