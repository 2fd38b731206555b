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

__all__ = ["copy_start", "header_start", "looks_like_header_line"]

#: at most this many wrapped "On … wrote:" lines above the match (issue #13: 1–4)
MAX_WROTE_LINES = 4
#: a header: an attribution over one or two forward blocks (separator + From, Sent, To, Cc, Subject, Date)
MAX_HEADER_LINES = 18
#: at most this many lines of an older notice's opening between a header and the notice's words
MAX_OPENING_LINES = 6

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


def _is_field(text: str) -> bool:
    return _FIELD.match(text) is not None or is_separator(text)


def header_start(lines: Sequence[str], match_start: int, sender_tokens: Iterable[str] = ()) -> int:
    """Index of the first header line directly above ``lines[match_start]``
    (the first line of the quoted copy); ``match_start`` when there is none.

    Blank lines between the header and the copy are passed over. Above
    them, a block of non-blank lines is the header when every line looks
    like one (:func:`looks_like_header_line`), no more than
    :data:`MAX_WROTE_LINES` in a row are other than ``Field: value`` lines
    or separators ("On … wrote:" wrapped), and it has at most
    :data:`MAX_HEADER_LINES` lines (an attribution over a forward block
    over another: a reply to a forwarded notice). A blank line ends the
    block, except right under a separator or a line ending in ``:``."""
    tokens = [t.casefold() for t in sender_tokens if t and len(t) >= 3]

    def blank(k: int) -> bool:
        return not _strip_quote(lines[k])

    i = match_start - 1
    while i >= 0 and blank(i):
        i -= 1
    top = match_start
    taken = run = 0
    while i >= 0 and taken < MAX_HEADER_LINES:
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
        text = _strip_quote(lines[i])
        if not looks_like_header_line(lines[i], tokens):
            break
        run = 0 if _is_field(text) else run + 1
        if run > MAX_WROTE_LINES:
            break
        top = i
        taken += 1
        i -= 1
    return top


def _strong(lines: Sequence[str], top: int, end: int, tokens: Sequence[str]) -> bool:
    """Whether ``lines[top:end]`` is surely a header: two ``Field: value``
    lines, or a line ending in ``:`` that carries a date, a time, an address
    or the sender's name ("Am … schrieb pbem:")."""
    texts = [_strip_quote(l) for l in lines[top:end] if _strip_quote(l)]
    if sum(1 for t in texts if _FIELD.match(t)) >= 2:
        return True
    return any(t.endswith(":") and (_DATE_TIME.search(t) or _ADDRESS.search(t)
                                    or any(tok in t.casefold() for tok in tokens)) for t in texts)


def copy_start(lines: Sequence[str], match_start: int, sender_tokens: Iterable[str] = ()) -> tuple[int, int]:
    """``(copy, header)``: where an unquoted copy really starts and where the
    header above it starts. When the notice's words were first found lower
    than the copy's first line (an older notice whose opening differs, a
    line a legacy charset garbled), up to :data:`MAX_OPENING_LINES`
    non-blank lines above ``match_start`` are the copy's too when a sure
    header (:func:`_strong`) sits directly above them: a client writes its
    header right above the message it quotes, never the player's text
    between them."""
    tokens = [t.casefold() for t in sender_tokens if t and len(t) >= 3]
    top = header_start(lines, match_start, tokens)
    if top < match_start and _strong(lines, top, match_start, tokens):
        return match_start, top
    seen = 0
    for x in range(match_start - 1, -1, -1):
        if not _strip_quote(lines[x]):
            continue
        seen += 1
        if seen > MAX_OPENING_LINES:
            break
        h = header_start(lines, x, tokens)
        if h < x and _strong(lines, h, x, tokens):
            return x, h
    return match_start, top
