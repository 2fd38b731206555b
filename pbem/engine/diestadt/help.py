"""Carcassonne: Die Stadt's order help ("how to write orders"), with every
order and order word in the reader's language.

One :class:`Msg` (a catalog translates its prose as a whole, keeping its
two columns); each example order is a parameter written by
:func:`pbem.engine.diestadt.words.order_text` (or from the language's
words table, for the short forms ``tile F7``, ``wall F7 N``) in every
language (:func:`pbem.engine.messages.said`): a Finnish reader sees
``laatta F7 90 kauppias itä`` where an English one sees ``tile F7 90
merchant E``. A translation pads the examples to its own column
(``{tile_role:<28}``), set by its widest example
(tests/engine/test_players_words.py).
"""
from __future__ import annotations

from typing import Callable

from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.diestadt.words import WORDS, Words, edge_letters, first, order_text
from pbem.engine.fold import LANGUAGES
from pbem.engine.messages import Msg, said_by

EXAMPLES = {
    "tile_role": PlaceTile("F7", 90, "merchant", "E"), "tile_turned": PlaceTile("F7", 90),
    "gate": BuildGate("H3N", True), "wall_cw_guard": BuildWall("cw", True), "wall_ccw": BuildWall("ccw"),
    "tower_cw": PlaceTower("cw"), "no_tower": PlaceTower(None),
}
"""The help's example orders that are whole actions, by their place in the help."""

_SHORT: dict[str, Callable[[Words], str]] = {
    "tile_only": lambda w: f"{first(w.kinds, 'tile')} F7",
    "tile_edges": lambda w: f"{first(w.kinds, 'tile')} F7 {edge_letters('SMSR', w.lang)}",
    "wall_edge": lambda w: f"{first(w.kinds, 'wall')} F7 {first(w.points, 'N')}",
    "tower_corner": lambda w: f"{first(w.kinds, 'tower')} F7 {first(w.points, 'NE')}",
    "tile": lambda w: first(w.kinds, "tile"),
    "citizen": lambda w: first(w.roles, "citizen"), "merchant": lambda w: first(w.roles, "merchant"),
    "overseer": lambda w: first(w.roles, "overseer"),
    "points": lambda w: " ".join(first(w.points, p) for p in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")),
    "cw": lambda w: first(w.ends, "cw"), "ccw": lambda w: first(w.ends, "ccw"),
}
"""The help's short forms and order words, written from a language's words table."""


def _params() -> dict:
    p = {name: said_by(lambda lang, a=a: order_text(a, lang), LANGUAGES) for name, a in EXAMPLES.items()}
    p.update({name: said_by(lambda lang, f=f: f(WORDS[lang]), LANGUAGES) for name, f in _SHORT.items()})
    return p


HELP = Msg("""\
Carcassonne: Die Stadt orders: one per line, any case, words in any order.

  {tile_role:<21}  place the drawn tile on F7 turned 90 degrees clockwise,
                         with a merchant on its market touching E
  {tile_turned:<21}  the same without a follower ('{tile}' may be left out)
  {tile_only:<21}  when only one rotation fits on F7
  {tile_edges:<21}  the rotation named by its edges after turning (N E S W;
                         S street, M market, R residential)
  followers: {citizen} (street), {merchant} (market), {overseer} (residential area),
             at a point {points} of the placed tile
  {gate:<21}  the city gate on the north edge of H3, with a guard
  {wall_cw_guard:<21}  a wall piece at the clockwise end, with a guard; refused
                         when no guard may go there, but written ahead of time
                         the piece is built without the guard
  {wall_ccw:<21}  a wall piece at the counter-clockwise end
  {wall_edge:<21}  the same piece named by its edge
  {tower_cw:<21}  a tower at that end of the wall (also: {tower_corner})
  {no_tower:<21}  decline the tower

Spaces: columns A-Z, AA-AN west to east, rows 1-40 north to south; the first
tile lies on T20. '{cw}' and '{ccw}' name the wall's ends as seen walking
clockwise from the gate, so wall orders may be written ahead of time.
Finnish: laatta, kansalainen, kauppias, valvoja, portti, muuri, vartija, torni,
ei, myötä (cw), vasta (ccw); compass in full words (pohjoinen, itä, etelä,
länsi, koillinen, kaakko, lounas, luode). German: Karte, Bürger, Marktfrau,
Vogt, Tor, Mauer, Wächter, Turm, kein, Uhrzeigersinn (cw), Gegenuhrzeigersinn
(ccw); Nord, Ost, Süd, West, Nordost, Südost, Südwest, Nordwest.
Czech: dílek, měšťan, trhovkyně, správce, brána, hradba, strážný, věž, žádná;
sever, východ, jih, západ, severovýchod, jihovýchod, jihozápad, severozápad.
Catalan: peça, ciutadà, marxant, batlle, portal, muralla, guàrdia, torre, cap;
nord, est, sud, oest, nord-est, sud-est, sud-oest, nord-oest.
Orders in any of these languages are read, with or without diacritics.
""", **_params())
"""The order help: one message; its orders and order words are parameters
in every language (see the module)."""
