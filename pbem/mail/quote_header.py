"""The header lines a client writes above a quoted message, found by shape,
in any language.

"On Mon, 23 Nov 2026 at 16:44, pbem <play@…> wrote:", "Le lun. 23 nov.
2026 à 16:44, pbem <…> a écrit :", "pbem napsal(a) dne 23. 11. 26 v
16:44:", an Outlook block of ``From:``/``Sent:``/``To:``/``Subject:`` fields
or ``-----Mensaje original-----``: whatever the language, such lines sit
directly above the quoted copy and each names the sender, carries a date or
time, ends with ``:``, or has the shape ``Field: value``. Knowing where the
quoted copy starts (:mod:`pbem.mail.quotes`), the lines above it that look
like that are the header, however a client wrapped them.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from .clutter import is_separator

__all__ = ["header_start", "looks_like_header_line"]

#: at most this many wrapped "On … wrote:" lines above the match (issue #13: 1–4)
MAX_WROTE_LINES = 4
#: an Outlook/forward block: separator + From, Sent, To, Cc, Subject, Date (+ a wrapped line)
MAX_BLOCK_LINES = 8

_DATE_TIME = re.compile(
    r"\d{1,2}[:.h]\d{2}\b"                       # 16:44, 16.44, 16h44
    r"|\b\d{1,4}[./-]\s?\d{1,2}[./-]\s?\d{2,4}\b"  # 23.11.2026, 2026-11-23, 23/11/26, 23. 11. 26
    r"|\b(?:19|20)\d{2}\b")                        # a year
# "From: x", "Päivämäärä: x", "À : x", "Per a: x", "Objet : x" (a field name of at most 3 words)
_FIELD = re.compile(r"^[*\s]*[^\W\d_][\w'.\-]*(?:[ /][\w'.\-]+){0,2}\s?:[ *]*(?:\S|$)")
_ADDRESS = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|<[^<>\s]*@|@[\w\-]+\.[\w.\-]*>")


def _strip_quote(line: str) -> str:
    return re.sub(r"^\s*(?:>\s?)+", "", line).strip()


def looks_like_header_line(line: str, sender_tokens: Iterable[str] = ()) -> bool:
    """True when ``line`` could be (part of) a quote header: it names the
    sender (``sender_tokens``: name, address, lower-case), or any address,
    carries a date or time, ends with ``:``, or is a ``Field: value`` line
    or a separator."""
    text = _strip_quote(line)
    if not text:
        return False
    if is_separator(text):
        return True
    low = text.casefold()
    if text.endswith(":") or _DATE_TIME.search(text) or _ADDRESS.search(text):
        return True
    if any(tok and tok in low for tok in sender_tokens):
        return True
    return _FIELD.match(text) is not None and len(text) <= 200


def header_start(lines: Sequence[str], match_start: int, sender_tokens: Iterable[str] = ()) -> int:
    """Index of the first header line directly above ``lines[match_start]``
    (the first line of the quoted copy); ``match_start`` when there is none.

    Blank lines between the header and the copy are passed over. Above
    them, a block of at most :data:`MAX_BLOCK_LINES` non-blank lines is
    the header when every line looks like one (:func:`looks_like_header_line`)
    and, beyond :data:`MAX_WROTE_LINES` lines, the block is made of
    ``Field: value`` lines (an Outlook or forward block). A blank line ends
    the block, except right under a separator line."""
    tokens = [t.casefold() for t in sender_tokens if t and len(t) >= 3]
    def blank(k: int) -> bool:
        return not _strip_quote(lines[k])

    i = match_start - 1
    while i >= 0 and blank(i):
        i -= 1
    top = match_start
    taken = 0
    while i >= 0 and taken < MAX_BLOCK_LINES:
        line = lines[i]
        if blank(i):
            # "-----Original Message-----" or "Begin forwarded message:", a blank, then the fields
            j = i - 1
            while j >= 0 and blank(j):
                j -= 1
            above = _strip_quote(lines[j]) if j >= 0 else ""
            if taken and (is_separator(above) or above.endswith(":")):
                i = j
                continue
            break
        if not looks_like_header_line(line, tokens):
            break
        if taken >= MAX_WROTE_LINES and not (_FIELD.match(_strip_quote(line)) or is_separator(_strip_quote(line))):
            break
        top = i
        taken += 1
        i -= 1
    return top
