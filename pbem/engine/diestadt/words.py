"""The Die Stadt command language's words, one table per language.

A Die Stadt order is a few words in any order (``laatta T21 180 kauppias
etelä`` = ``tile T21 180 merchant S``), so each :class:`Words` maps single
words to the English meanings :mod:`pbem.engine.diestadt.orders` reads: the
order kinds, the followers, the compass points, the wall's ends, "guard"
and "no". The first word listed for a meaning is the one :func:`order_text`
writes; the others are accepted too. Terms and their sources are in
``docs/i18n/<lang>.md`` ("Carcassonne: Die Stadt"); the Czech and Catalan
words are ours (no rule text in those languages), and so are the German
ones beyond the four followers. Case and diacritics do not matter
(:mod:`pbem.engine.fold`: ``dilek``, ``Buerger``). Adding a language is
adding a table to :data:`WORDS` (docs/i18n/README.md); no word may have two
meanings (tests/engine/diestadt/test_words.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.fold import LANGUAGES, spellings
from pbem.engine.messages import Msg, said_by


@dataclass(frozen=True)
class Words:
    """One language's words. ``kinds`` maps a word to an order kind (``tile
    gate wall tower``), ``roles`` to a follower (``citizen merchant
    overseer``; a feature's name works too: ``street`` is a citizen),
    ``points`` to a compass point (``N NE E SE S SW W NW``), ``ends`` to a
    wall end (``cw ccw``); ``guard`` are the words for "with a guard" and
    ``no`` those for "none" (``no tower``, a tile without a follower);
    ``edges`` the three letters a tile's edges are written with, for
    street, market and residential area (``SMR``; ``tile F7 SMSR``, the
    text view's grid), each the start of the language's term."""

    lang: str
    kinds: dict[str, str]
    roles: dict[str, str]
    points: dict[str, str]
    ends: dict[str, str]
    guard: tuple[str, ...]
    no: tuple[str, ...]
    edges: str = "SMR"


EN = Words(
    "en",
    kinds={"tile": "tile", "gate": "gate", "wall": "wall", "tower": "tower"},
    roles={"citizen": "citizen", "street": "citizen", "merchant": "merchant", "market": "merchant",
           "overseer": "overseer", "home": "overseer", "residential": "overseer"},
    points={"N": "N", "NE": "NE", "E": "E", "SE": "SE", "S": "S", "SW": "SW", "W": "W", "NW": "NW",
            "north": "N", "northeast": "NE", "east": "E", "southeast": "SE", "south": "S",
            "southwest": "SW", "west": "W", "northwest": "NW"},
    ends={"cw": "cw", "ccw": "ccw"},
    guard=("guard",),
    no=("no", "none"),
    edges="SMR",
)

FI = Words(
    "fi",
    kinds={"laatta": "tile", "portti": "gate", "muuri": "wall", "torni": "tower"},
    roles={"kansalainen": "citizen", "tie": "citizen", "katu": "citizen", "kauppias": "merchant",
           "tori": "merchant", "valvoja": "overseer", "asuinalue": "overseer"},
    points={"pohjoinen": "N", "koillinen": "NE", "itä": "E", "kaakko": "SE", "etelä": "S",
            "lounas": "SW", "länsi": "W", "luode": "NW"},
    ends={"myötä": "cw", "myötäpäivään": "cw", "vasta": "ccw", "vastapäivään": "ccw"},
    guard=("vartija",),
    no=("ei",),
    edges="KTA",                         # katu, tori, asuinalue (tie and tori share the T)
)

DE = Words(
    "de",
    kinds={"Karte": "tile", "Plättchen": "tile", "Kärtchen": "tile", "Tor": "gate", "Stadttor": "gate",
           "Mauer": "wall", "Turm": "tower"},
    roles={"Bürger": "citizen", "Straße": "citizen", "Marktfrau": "merchant", "Markt": "merchant",
           "Vogt": "overseer"},
    points={"Nord": "N", "Nordost": "NE", "Ost": "E", "Südost": "SE", "Süd": "S", "Südwest": "SW",
            "West": "W", "Nordwest": "NW"},
    ends={"Uhrzeigersinn": "cw", "Gegenuhrzeigersinn": "ccw"},
    guard=("Wächter",),
    no=("kein", "keine", "ohne"),
    edges="SMW",                         # Straße, Markt, Wohnviertel
)

CS = Words(
    "cs",
    kinds={"dílek": "tile", "kartička": "tile", "brána": "gate", "hradba": "wall", "věž": "tower"},
    roles={"měšťan": "citizen", "ulice": "citizen", "trhovkyně": "merchant", "tržiště": "merchant",
           "správce": "overseer", "obytná": "overseer"},
    points={"sever": "N", "severovýchod": "NE", "východ": "E", "jihovýchod": "SE", "jih": "S",
            "jihozápad": "SW", "západ": "W", "severozápad": "NW"},
    ends={"cw": "cw", "ccw": "ccw"},           # no Czech words: the board's own marks
    guard=("strážný",),
    no=("žádná", "žádný", "bez"),
    edges="UTO",                         # ulice, tržiště, obytná čtvrť
)

CA = Words(
    "ca",
    kinds={"peça": "tile", "portal": "gate", "muralla": "wall", "torre": "tower"},
    roles={"ciutadà": "citizen", "carrer": "citizen", "marxant": "merchant", "mercat": "merchant",
           "batlle": "overseer", "barri": "overseer"},
    points={"nord": "N", "nord-est": "NE", "nordest": "NE", "est": "E", "sud-est": "SE", "sudest": "SE",
            "sud": "S", "sud-oest": "SW", "sudoest": "SW", "oest": "W", "nord-oest": "NW", "nordoest": "NW"},
    ends={"cw": "cw", "ccw": "ccw"},           # no Catalan words: the board's own marks
    guard=("guàrdia",),
    no=("cap", "sense"),
    edges="CMR",                         # carrer, mercat, (barri) residencial
)

WORDS: dict[str, Words] = {w.lang: w for w in (EN, FI, CS, CA, DE)}
"""Every language orders may be written in; ``en`` is the canonical text."""


def forms(word: str) -> set[str]:
    """The lower-case forms under which a table's ``word`` is read: as
    written and folded (``Süd`` -> ``süd``, ``sud``, ``sued``)."""
    return {word.lower()} | spellings(word)


def _lookup(part: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for w in WORDS.values():
        table = getattr(w, part)
        pairs = table.items() if isinstance(table, dict) else ((word, True) for word in table)
        for word, meaning in pairs:
            out.update(dict.fromkeys(forms(word), meaning))
    return out


KINDS: dict[str, str] = _lookup("kinds")
"""Every lower-case form of an order-kind word, in any language -> ``tile gate wall tower``."""
ROLES: dict[str, str] = _lookup("roles")
"""... of a follower word -> ``citizen merchant overseer``."""
POINTS: dict[str, str] = _lookup("points")
"""... of a compass word or letter -> ``N NE E SE S SW W NW``."""
ENDS: dict[str, str] = _lookup("ends")
"""... of a wall-end word -> ``cw ccw``."""
GUARD: frozenset[str] = frozenset(_lookup("guard"))
"""... of a word for "with a guard"."""
NO: frozenset[str] = frozenset(_lookup("no"))
"""... of a word for "none"."""

_SPLIT = re.compile(r"[\s,;:.!]+")


def split(text: str) -> list[str]:
    """An order line's words in lower case (split at spaces and ``,;:.!``)."""
    return [w for w in _SPLIT.split(text.strip().lower()) if w]


def first(table: dict[str, str], meaning: str) -> str:
    """The word a table writes for ``meaning`` (its first listed)."""
    return next(k for k, v in table.items() if v == meaning)


def order_text(a: PlaceTile | BuildGate | BuildWall | PlaceTower, lang: str = "en") -> str:
    """``a`` written in ``lang`` with that language's first-listed words
    (``PlaceTile("T21", 180, "merchant", "S")`` in ``fi`` -> ``laatta T21 180
    kauppias etelä``; ``PlaceTower(None)`` in ``de`` -> ``kein Turm``); ``en``
    is :meth:`~pbem.engine.api.Action.to_text`. Raises ``KeyError`` for an
    unknown language."""
    w = WORDS[lang]
    if lang == "en":
        return a.to_text()
    guard = f" {w.guard[0]}" if getattr(a, "guard", False) else ""
    if isinstance(a, PlaceTile):
        text = f"{first(w.kinds, 'tile')} {a.site} {a.rotation}"
        return f"{text} {first(w.roles, a.role)} {first(w.points, a.point)}" if a.role else text
    if isinstance(a, BuildGate):
        return f"{first(w.kinds, 'gate')} {a.site[:-1]} {first(w.points, a.site[-1])}{guard}"
    if isinstance(a, BuildWall):
        return f"{first(w.kinds, 'wall')} {first(w.ends, a.end)}{guard}"
    if a.end is None:
        return f"{w.no[0]} {first(w.kinds, 'tower')}"
    return f"{first(w.kinds, 'tower')} {first(w.ends, a.end)}"


def say(a: PlaceTile | BuildGate | BuildWall | PlaceTower) -> Msg:
    """``a`` as a message that is its order line in each language's words
    (:func:`pbem.engine.messages.said`; ``str()`` is the English): what a
    refusal or an example shows a player. An order the tables cannot write
    (a follower without a point, echoed back in a refusal when no tile is
    drawn) is shown as its English :meth:`to_text` in every language."""
    def write(lang: str) -> str:
        try:
            return order_text(a, lang)
        except StopIteration:
            return a.to_text()
    return said_by(write, LANGUAGES)


_EDGE_KINDS = "SMR"      # the canonical letters: street, market, residential area


def edge_letters(edges: str, lang: str) -> str:
    """A tile's edges (canonical letters, ``SMSR``, N E S W) in ``lang``'s
    letters (``KTKA`` in ``fi``); an unknown language writes them as they are."""
    if lang not in WORDS:
        return edges
    return edges.translate(str.maketrans(_EDGE_KINDS, WORDS[lang].edges))


def read_edges(word: str) -> str | None:
    """A word of four edge letters of one language (any case: ``smsr``,
    ``ktka``, ``SMSW``) as the canonical letters (``SMSR``); ``None`` when
    it is not one (letters of two languages mixed are not)."""
    if len(word) != 4:
        return None
    up = word.upper()
    for w in WORDS.values():
        if set(up) <= set(w.edges):
            return up.translate(str.maketrans(w.edges, _EDGE_KINDS))
    return None


def say_edges(text: str) -> Msg:
    """Text holding tile edges in canonical letters (``SMSR (0), SRRR
    (90)``: every run of four edge letters) written in each language's
    letters (:func:`said`); ``str()`` is ``text``."""
    def write(lang: str) -> str:
        return re.sub(r"\b[SMR]{4}\b", lambda m: edge_letters(m.group(0), lang), text)
    return said_by(write, LANGUAGES)


def say_end(end: str) -> Msg:
    """Wall end ``cw``/``ccw`` as each language's order word, the
    ``{end}`` of a log line or refusal (:func:`say_with`: ``myötä`` in
    ``fi``, ``Gegenuhrzeigersinn`` in ``de``; ``str()`` is ``end``)."""
    return say_with(lambda w: first(w.ends, end))


def say_with(write) -> Msg:
    """:func:`pbem.engine.messages.said` of ``write(words)`` for each
    language's :class:`Words` (``lambda w: first(w.roles, "citizen")``)."""
    return said_by(lambda lang: write(WORDS[lang]), LANGUAGES)


def say_or(items: list) -> str:
    """``a or b or c`` as a message (``or`` translated); one item as it is."""
    if len(items) == 1:
        return items[0]
    return Msg("{rest} or {last}", rest=say_or(items[:-1]), last=items[-1])
