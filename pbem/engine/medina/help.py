"""Medina's order help ("how to write orders"), with every order and order
word in the reader's language.

One :class:`Msg` (a catalog translates its prose as a whole, keeping its
two columns); each example order is a parameter written from a
:class:`Place` by :func:`pbem.engine.medina.words.order_text` in every
language, and the colour list from the language's words table
(:func:`pbem.engine.messages.said`): a Finnish reader sees ``palatsi
oranssi E5`` and ``harmaa, musta, ruskea, oranssi``. A translation pads the
examples to its own column (``{palace:<18}``), set by its widest example
(tests/engine/test_players_words.py).
"""
from __future__ import annotations

from pbem.engine.fold import LANGUAGES
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import PALACE_COLOURS
from pbem.engine.medina.words import WORDS, first, order_text
from pbem.engine.messages import Msg, said_by

EXAMPLES: dict[str, Place] = {
    "palace": Place("palace", "E5", "orange"), "dome": Place("dome", "E5"),
    "stable": Place("stable", "F6"), "merchant": Place("merchant", "G2"), "wall": Place("wall", "W12"),
    "start": Place("merchant", "H6"), "turn1": Place("palace", "C4", "grey"), "turn2": Place("stable", "D4"),
}
"""Every order the help shows, by the name of its place in the help."""


def _params() -> dict:
    p = {name: said_by(lambda lang, a=a: order_text(a, lang), LANGUAGES) for name, a in EXAMPLES.items()}
    p["colours"] = said_by(lambda lang: ", ".join(first(WORDS[lang].colours, c) for c in PALACE_COLOURS),
                           LANGUAGES)
    return p


HELP = Msg("""\
Medina orders: one piece per line, two pieces a turn (both in one message).

  {palace:<17}  place a palace piece (colours: {colours})
  {dome:<17}  put your dome on the palace under construction at E5 and claim it
  {stable:<17}  place a stable orthogonally next to a palace piece
  {merchant:<17}  place a merchant at an end of the merchant chain
  {wall:<17}  place a wall piece on wall space W12 (next to a tower or wall)

Squares are named by column A-P and row 1-11 as printed on the board
(A1 is the north-west corner). Wall spaces W1-W54 run clockwise from
tower 1 (north-west): W1-W16 north, W17-W27 east, W28-W43 south, W44-W54 west.

Setup: seat 1 first places the start merchant, e.g. '{start}', on any
square at least one square from the city wall.

Example turn:
  {turn1}
  {turn2}
Orders are not case-sensitive; Finnish, Czech, Catalan and German words
work too (palatsi harmaa C4, palác šedý C4, palau gris C4, Palast grau C4).
""", **_params())
"""The order help: one message; its orders and order words are parameters
in every language (see the module)."""
