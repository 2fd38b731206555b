"""The La Città words that go into messages, as translatable :class:`Msg`.

One source of truth for the game's terms in sentences: the canonical
(English, command-language) word -> its ``Msg``; the catalogs translate them
as the rule texts name them (``docs/i18n/<lang>.md``). Card titles are the
German card names the English messages use (``Badhaus``, ``Großer
Baumeister``). Order words are not here: they are the command language
(:mod:`pbem.engine.lacitta.words`).
"""
from __future__ import annotations

from pbem.engine.lacitta import data as D
from pbem.engine.messages import Msg

BUILDING = {
    "castle": Msg("castle"), "farm": Msg("farm"), "quarry": Msg("quarry"), "market": Msg("market"),
    "statue": Msg("statue"), "school": Msg("school"), "fountain": Msg("fountain"),
    "palazzo": Msg("palazzo"), "hospital": Msg("hospital"), "bathhouse": Msg("bathhouse"),
    "dom": Msg("dom"), "university": Msg("university"),
}
"""Building kind -> its name (lower case, as in a sentence)."""

CARD = {
    "palazzo": Msg("Palazzo"), "hospital": Msg("Hospital"), "bathhouse": Msg("Badhaus"),
    "dom": Msg("Dom"), "university": Msg("Universität"), "master builder": Msg("Großer Baumeister"),
    "bread and games": Msg("Brot und Spiele"), "golden age": Msg("Goldene Zeiten"),
    "rich harvest": Msg("Reiche Ernte"), "citizens": Msg("Bürgernähe"),
}
"""Political card -> its title (:data:`pbem.engine.lacitta.data.CARD_TITLE`)."""

WISH = {"culture": Msg("culture"), "education": Msg("education"), "health": Msg("health")}
"""Wish (arch colour, Voice of the People card) -> its name."""

PILE = {
    "farm/quarry": Msg("farm/quarry"), "palazzo/hospital": Msg("palazzo/hospital"),
    "statue/dom": Msg("statue/dom"), "school/university": Msg("school/university"),
    "fountain/bathhouse": Msg("fountain/bathhouse"), "market": Msg("market"),
}
"""Building supply pile -> its name."""

assert set(BUILDING) == set(D.BUILDINGS) and set(WISH) == set(D.WISHES)
assert {k: str(v) for k, v in CARD.items()} == D.CARD_TITLE and set(PILE) == set(D.SUPPLY)


def building(kind: str) -> Msg:
    """A building kind's name; ``KeyError`` for an unknown kind."""
    return BUILDING[kind]


def wish(w: str) -> Msg:
    """A wish's name; ``KeyError`` for an unknown wish."""
    return WISH[w]
