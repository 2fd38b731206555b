"""Spelling-tolerant matching of the words players write in orders.

A player on a phone may drop diacritics (``kylpyla`` for *kylpylä*,
``lazne`` for *lázně*) and a German player without umlauts writes ``ae oe ue
ss`` (``Buergernaehe``). :func:`fold` is applied to what the player wrote;
:func:`spellings` gives every folded form a glossary word is matched under.
Both are pure string functions; the games' keyword tables live in
``pbem/engine/<game>/words.py`` (docs/i18n/README.md).
"""
from __future__ import annotations

import unicodedata
from typing import Iterable

LANGUAGES = ("en", "fi", "cs", "ca", "de")
"""The languages orders may be written in, English (the canonical text) first."""

_BEFORE = str.maketrans({"ß": "ss", "’": "'", "‘": "'", "`": "'", "·": "", "ŀ": "l", "Ŀ": "l"})
_UMLAUT = (("ä", "ae"), ("ö", "oe"), ("ü", "ue"))


def fold(text: str) -> str:
    """``text`` in lower case without diacritics: ``ß`` -> ``ss``, Catalan
    ``l·l`` -> ``ll``, typographic apostrophes -> ``'``, and every letter
    with a combining mark to its base letter (``Lázně`` -> ``lazne``)."""
    t = text.lower().translate(_BEFORE)
    t = unicodedata.normalize("NFD", t)
    return "".join(c for c in t if not unicodedata.combining(c))


def vocabulary(phrases: Iterable[str], skip: Iterable[str] = ()) -> frozenset[str]:
    """The folded words of ``phrases`` (an iterable of glossary phrases,
    ``"take 2 gold"``, ``"Brot und Spiele"``) less the folded ``skip`` words
    (a table's fillers and joins) and numbers: what
    :meth:`pbem.engine.api.Game.order_words` returns."""
    skipped = {fold(w) for w in skip}
    out: set[str] = set()
    for phrase in phrases:
        for word in phrase.replace("'", " ").split():
            out |= {form for form in spellings(word) if form not in skipped and not form.isdigit()}
    return frozenset(out)


def spellings(word: str) -> set[str]:
    """The folded forms under which the glossary word ``word`` is read: the
    plain fold, and for a word with ä ö ü also its ae/oe/ue spelling
    (``Bürgernähe`` -> ``{"burgernahe", "buergernaehe"}``)."""
    low = word.lower()
    out = {fold(low)}
    if any(u in low for u, _ in _UMLAUT):
        for u, ae in _UMLAUT:
            low = low.replace(u, ae)
        out.add(fold(low))
    return out
