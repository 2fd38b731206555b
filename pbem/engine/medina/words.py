"""The Medina command language's words, one table per language.

A Medina order is a few words in any order (``palatsi oranssi E5``), so each
:class:`Words` maps single words to the English piece kinds and palace
colours of :mod:`pbem.engine.medina.orders`. The first word listed for a
meaning is the one :func:`order_text` writes; the others are accepted too.
Terms and their sources (the Finnish rule text, the German original's
Palast, Kuppel, Stall, Händler, Mauer) are in ``docs/i18n/<lang>.md``; Czech
and Catalan have no Medina rule text, so their words are ours, marked so
there. Case and diacritics do not matter (:mod:`pbem.engine.fold`). Adding a
language is adding a table to :data:`WORDS` (docs/i18n/README.md); no word
may have two meanings (tests/engine/medina/test_medina_words.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.fold import LANGUAGES, fold, spellings
from pbem.engine.medina.actions import Place
from pbem.engine.messages import Msg, said_by


@dataclass(frozen=True)
class Words:
    """One language's words: ``kinds`` maps a word to a piece kind
    (``palace dome stable merchant wall``), ``colours`` to a palace colour
    (``grey black brown orange``)."""

    lang: str
    kinds: dict[str, str]
    colours: dict[str, str]


EN = Words(
    "en",
    kinds={"palace": "palace", "building": "palace", "dome": "dome", "roof": "dome",
           "rooftop": "dome", "claim": "dome", "stable": "stable", "merchant": "merchant",
           "meeple": "merchant", "wall": "wall"},
    colours={"grey": "grey", "gray": "grey", "black": "black", "brown": "brown", "orange": "orange"},
)

FI = Words(
    "fi",
    kinds={"palatsi": "palace", "palatsipala": "palace", "kupoli": "dome", "talli": "stable",
           "asukas": "merchant", "kauppias": "merchant", "muuri": "wall", "muuripala": "wall"},
    colours={"harmaa": "grey", "musta": "black", "ruskea": "brown", "oranssi": "orange"},
)

CS = Words(
    "cs",
    kinds={"palác": "palace", "kopule": "dome", "kupole": "dome", "stáj": "stable",
           "obchodník": "merchant", "kupec": "merchant", "hradba": "wall", "zeď": "wall"},
    colours={"šedý": "grey", "šedá": "grey", "šedé": "grey", "šedou": "grey",
             "černý": "black", "černá": "black", "černé": "black", "černou": "black",
             "hnědý": "brown", "hnědá": "brown", "hnědé": "brown", "hnědou": "brown",
             "oranžový": "orange", "oranžová": "orange", "oranžové": "orange", "oranžovou": "orange"},
)

CA = Words(
    "ca",
    kinds={"palau": "palace", "cúpula": "dome", "estable": "stable", "mercader": "merchant",
           "muralla": "wall", "mur": "wall"},
    colours={"gris": "grey", "negre": "black", "negra": "black", "marró": "brown",
             "taronja": "orange"},
)

DE = Words(
    "de",
    kinds={"Palast": "palace", "Palastteil": "palace", "Kuppel": "dome", "Stall": "stable",
           "Händler": "merchant", "Mauer": "wall", "Mauerteil": "wall"},
    colours={"grau": "grey", "schwarz": "black", "braun": "brown", "orange": "orange"},
)

WORDS: dict[str, Words] = {w.lang: w for w in (EN, FI, CS, CA, DE)}
"""Every language orders may be written in; ``en`` is the canonical text."""


def _lookup(part: str) -> dict[str, str]:
    return {form: meaning for w in WORDS.values() for word, meaning in getattr(w, part).items()
            for form in spellings(word)}


KINDS: dict[str, str] = _lookup("kinds")
"""Every folded word for a piece kind, in any language -> the kind."""
COLOURS: dict[str, str] = _lookup("colours")
"""Every folded word for a palace colour, in any language -> the colour."""


def word(w: str) -> str:
    """A word as written by a player, folded for :data:`KINDS` and :data:`COLOURS`."""
    return fold(w)


def first(table: dict[str, str], meaning: str) -> str:
    """The word a table writes for ``meaning`` (its first listed)."""
    return next(k for k, v in table.items() if v == meaning)


def order_text(a: Place, lang: str = "en") -> str:
    """``a`` written in ``lang`` (``Place("palace", "E5", "orange")`` in
    ``cs`` -> ``palác oranžový E5``); ``en`` is :meth:`Place.to_text`.
    Raises ``KeyError`` for an unknown language."""
    w = WORDS[lang]
    kind = first(w.kinds, a.kind)
    if a.colour is None:
        return f"{kind} {a.site}"
    return f"{kind} {first(w.colours, a.colour)} {a.site}"


def say(a: Place) -> Msg:
    """``a`` as a message that is its order line in each language's words
    (:func:`pbem.engine.messages.said`; ``str()`` is the English): what a
    refusal or an example shows a player (``palatsi oranssi E5``)."""
    return said_by(lambda lang: order_text(a, lang), LANGUAGES)
