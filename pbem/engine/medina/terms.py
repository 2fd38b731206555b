"""The Medina words that go into messages, as translatable :class:`Msg`.

One source of truth for the game's terms in sentences: the canonical
(English, command-language) word -> its ``Msg``. The catalogs translate
them as the rule text names them (``docs/i18n/<lang>.md``). Order words
are not here: they are the command language (:mod:`pbem.engine.medina.words`).
"""
from __future__ import annotations

from pbem.engine.messages import Msg

COLOUR = {"grey": Msg("grey"), "black": Msg("black"), "brown": Msg("brown"),
          "orange": Msg("orange")}
"""Palace colour -> the adjective."""

PIECE = {"palace": Msg("palace"), "dome": Msg("dome"), "stable": Msg("stable"),
         "merchant": Msg("merchant"), "wall": Msg("wall")}
"""Piece kind -> its name (one piece)."""

PIECES = {"domes": Msg("domes"), "stables": Msg("stables"), "merchants": Msg("merchants"),
          "walls": Msg("walls")}
"""Supply key -> the pieces' name (several)."""

SIDE = {"north": Msg("north"), "east": Msg("east"), "south": Msg("south"), "west": Msg("west")}
"""Side of the city wall -> its name."""


def palace_at(colour: str, squares: str) -> Msg:
    """``"the orange palace at E5 E6"``."""
    return Msg("the {colour} palace at {squares}", colour=COLOUR[colour], squares=squares)


def a_palace(colour: str) -> Msg:
    """``"a grey palace"``, ``"an orange palace"``."""
    if colour[0] in "aeiou":
        return Msg("an {colour} palace", colour=COLOUR[colour])
    return Msg("a {colour} palace", colour=COLOUR[colour])

SEAT_COLOUR = {"red": Msg("red"), "yellow": Msg("yellow"), "blue": Msg("blue"),
               "green": Msg("green")}
"""A seat's dome and screen colour -> its name."""
