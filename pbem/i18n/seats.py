"""Seat words as a reader's language writes them: the pattern that finds
"Seat 2" in a line already translated, so pages and mails can write the
player's name in its place. Used by the table of a page
(:mod:`pbem.web.table`) and by notices (:mod:`pbem.service.post.content`).
"""
from __future__ import annotations

import re
import pbem.i18n


def seat_words(lang: str) -> re.Pattern:
    """"Seat 2" / "seat 2" in language ``lang``: English's forms and the
    catalog's translations of the engines' ``"Seat {n}"`` / ``"seat {n}"``
    (:mod:`pbem.engine.phrases`); the seat number (1-based) is in the
    first non-empty group after group 1. Raises nothing; an unknown
    language gives the English forms."""
    t = pbem.i18n.translations(lang)   # looked up when called (tests put a catalog in its place)
    forms = {"Seat {n}", "seat {n}", t.gettext("Seat {n}"), t.gettext("seat {n}")}
    alternatives = []
    for form in sorted(forms, key=len, reverse=True):
        before, _, after = form.partition("{n}")
        alternatives.append(re.escape(before) + r"(\d{1,2})" + re.escape(after))
    return re.compile(r"\b()(?:" + "|".join(alternatives) + r")(?!\d)")
