"""The ``to:`` line of a reply (issue 26): ``to: Bruno, Carla`` or
``to: all`` starts a message to the table; what is above it is read as
orders, everything from it on is the message.

The word is read in every language pbem speaks, whatever the player's own
(:data:`TO_WORDS`: ``to``, Finnish ``kenelle``/``vastaanottajat``, Czech
``komu``, Catalan ``per a``/``destinataris``, German ``an``), and so is "everyone"
(:data:`ALL_WORDS`). Names are split at commas, semicolons, ``&`` and
each language's "and". Pure text: the service matches the names to seats.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: the word of a ``to:`` line, in every language (folded: lower case, no accents)
TO_WORDS = ("to", "kenelle", "vastaanottajat", "vastaanottaja", "komu", "per a", "destinataris", "destinatari",
            "an")
#: "everyone", in every language (folded)
ALL_WORDS = frozenset({"all", "everyone", "everybody", "kaikki", "kaikille", "kaikki pelaajat", "kaikille pelaajille",
                       "koko poyta", "koko poydalle", "vsichni", "vsem", "vsem hracum", "vsichni hraci",
                       "tots", "totes", "tots els jugadors", "tota la taula", "a tothom",
                       "tothom", "alle", "an alle", "alle spieler", "alle am tisch"})
_AND = re.compile(r"\s*(?:[,;&]|\s(?:and|ja|a|i|und)\s)\s*", re.IGNORECASE)
_LINE = re.compile(r"^\s*(" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in TO_WORDS)
                   + r")\s*:\s*(\S.*)$", re.IGNORECASE)


def fold(text: str) -> str:
    """``text`` compared loosely: lower case, accents dropped, spaces squeezed."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class ToLine:
    """A reply split at its ``to:`` line: ``before`` (lines above it: orders),
    ``names`` (as written, at least one), ``everyone`` (``to: all``),
    ``message`` (the text from the line after it on, blank ends trimmed)."""

    before: list[str]
    names: list[str]
    everyone: bool
    message: str


def names_of(text: str) -> list[str]:
    """The names of a ``to:`` line's value, split at commas and "and"."""
    return [n.strip(" .") for n in _AND.split(text.strip()) if n.strip(" .")]


def split(lines: list[str]) -> ToLine | None:
    """The reply ``lines`` split at their first ``to:`` line, or ``None``
    when there is none."""
    for i, line in enumerate(lines):
        m = _LINE.match(line)
        if m is None:
            continue
        names = names_of(m.group(2))
        message = "\n".join(lines[i + 1:]).strip("\n")
        return ToLine(before=[l for l in lines[:i]], names=names,
                      everyone=any(fold(n) in ALL_WORDS for n in names), message=message)
    return None


def is_to_line(line: str) -> bool:
    """Whether ``line`` is a ``to:`` line."""
    return _LINE.match(line) is not None
