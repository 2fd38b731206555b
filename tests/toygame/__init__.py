"""Pebbles: a toy fourth game that lives in the tests, to show what a game
needs to join pbem (docs/adding-a-game.md): this folder and one registry
line (``tests/conftest.py``: ``register("tests.toygame")``), nothing else:
no rules page, no translations, no words tables, no golden game, no third
seat. The product falls back for each (English, a rules summary made from
the game's facts and order help).

Rules: a heap of pebbles, white and black, lies face down in a seeded
order. Two seats take turns to ``take 1``, ``take 2`` or ``take 3`` from
the top; a white pebble scores 1, a black one 2. When the heap is empty the
most points win, then the most black pebbles. The order of the heap is
hidden from everyone. Option ``heap``: ``small`` (12 pebbles) or ``large``
(20).
"""
from tests.toygame.game import GAME

__all__ = ["GAME"]
