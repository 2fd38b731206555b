"""Catalan elision and contraction where a filled-in value meets the text.

A Catalan template cannot know what is filled in after its "de", "a" or
"per": "la ciutat de {castle}" needs "d'E9" but "de B3"; "una peça de
{palace}" needs "del palau gris" when the palace is "el palau gris".
:func:`fill` formats a template like ``str.format`` and settles the joins
between the template's own words and each value filled in (never the
inside of a value: an order a player wrote is quoted as written):

- "de" is elided before a vowel sound: a word starting with a vowel or h +
  vowel (not the semivowels i, u, hi, hu before a vowel: "de iode"), a site
  whose letter's name starts with a vowel (A, E, F "efa", H "hac", I, L,
  M, N, O, R, S, U, X "ics": "d'E9", "d'F6", but "de B3", "de W12") and the
  numbers 1 and 11 ("d'1", "d'11");
- "de", "a", "per" + "el"/"els" contract ("del", "al", "pel", "dels" ...),
  and a bare "seient 2" after them gets its article ("del seient 2").
"""
from __future__ import annotations

import re
from string import Formatter
from typing import Any

_V = "aeoàáèéíïòóúAEOÀÁÈÉÍÏÒÓÚ"
_NOT_V = r"(?![aeiouàáèéíïòóúAEIOU])"
_VOWEL_START = re.compile(
    rf"[{_V}]|[iuIU]{_NOT_V}|[hH](?:[{_V}]|[iuIU]{_NOT_V})"   # a word starting with a vowel sound
    r"|[AEFHILMNORSUX]\d"                                     # a site: E9, F6, S12
    r"|(?:1|11)\b(?![.,]\d)")                                 # d'1, d'11
_PREP_END = re.compile(r"(?:^|(?<=[^\w'’]))(de|De|a|A|per|Per) $")
_ARTICLE = re.compile(r"(el|els) ")
_SEAT = re.compile(r"seient \d")
_JOINED = {"de": "del", "a": "al", "per": "pel"}


def join(before: str, value: str) -> str:
    """``before + value`` with the Catalan elision or contraction where they meet."""
    m = _PREP_END.search(before)
    if not m:
        return before + value
    prep, head = m.group(1), before[:m.start(1)]
    joined = _JOINED[prep.lower()]
    if prep[0].isupper():
        joined = joined.capitalize()
    art = _ARTICLE.match(value)
    if art:                                            # de el palau -> del palau
        return head + joined + ("s" if art.group(1) == "els" else "") + value[art.end() - 1:]
    if _SEAT.match(value):                             # de seient 2 -> del seient 2
        return head + joined + " " + value
    if prep.lower() == "de" and _VOWEL_START.match(value):
        return head + prep[0] + "'" + value            # de E9 -> d'E9
    return before + value


def fill(template: str, params: dict[str, Any]) -> str:
    """``template.format(**params)`` with :func:`join` at each value."""
    out = ""
    for literal, field, spec, conv in Formatter().parse(template):
        out += literal
        if field is None:
            continue
        one = "{" + field + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
        out = join(out, one.format(**params))
    return out
