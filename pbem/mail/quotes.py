"""Finding pbem's own notice quoted in a reply, by matching its words.

pbem sent the notice the player answers and knows its text. Whatever a
client does to it — quote it with ``>`` or not, re-wrap it, turn its HTML
part into text, put a header of any language above it — the copy is still
the notice's words in the notice's order. So both texts are compared as
*word streams* (letters and digits only, case-folded; punctuation, quote
markers, Markdown escapes and line breaks do not count):

1. **Start.** The copy starts at the first body line from which at least
   :data:`MIN_RUN` words (or the whole notice, if shorter) equal a run of
   the notice's words beginning within its first :data:`START_WINDOW`
   words. A player's own orders never match: an order list copied from
   the notice's legal orders does not start near the notice's top.
2. **Extent.** Each following line is part of the copy when its words are
   found, in order, ahead of the last matched position (a re-wrapped line
   is a contiguous piece of the stream), when most of its words are in the
   notice (html2text noise, a link turned into its text), or when it is
   quoted at least as deeply as the copy's first line. Any other line is
   new text: under a ``>`` quote that is an interleaved or bottom-posted
   answer; after an unquoted copy, what follows its last matched line.

:func:`find_notice` returns a :class:`QuoteMatch` (or ``None``); the header
above the copy is :func:`pbem.mail.quote_header.header_start`'s job.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

__all__ = ["QuoteMatch", "find_notice", "words", "MIN_RUN", "START_WINDOW"]

#: words that must match for a copy to start
MIN_RUN = 10
#: the copy must start within the notice's first this many words
START_WINDOW = 80
#: how far ahead of the last matched word a line may be found (clients drop pictures, tables)
LOOKAHEAD = 2500
#: a line not found in order is still the notice's when this share of its words is in it
FUZZY_SHARE = 0.8
#: ... and has at least this many words (order lines are shorter)
FUZZY_MIN_WORDS = 8
#: at most this many places of a line's rarest word or trigram are compared (bounds the work per line)
MAX_CANDIDATES = 32
#: an unquoted line under a ``>`` copy is the notice's only when it starts this close to where the quote stopped
#: (a client wrapped a quoted line without quoting the rest)
CONTINUATION = 2

#: a word: letters and digits, with the "?" or U+FFFD a legacy charset put for a letter it lacks
_WORD = re.compile(r"(?:[^\W_]|[?\ufffd])+")
_QUOTE = re.compile(r"^\s*((?:>\s?)*)")


def _key(token: str) -> str:
    """A word as compared: its ASCII letters and digits, lower-cased, so that
    "Città", "CITTÀ", "Citt?" (ISO-8859-2, windows-1250), "CittÃ" (UTF-8
    read as Latin-1) and "Citt\ufffd" are one word (``citt``); a word with
    no ASCII letter (Cyrillic) is kept whole, case-folded."""
    if token.isascii():
        return token.replace("?", "").lower()
    token = unicodedata.normalize("NFC", token)
    plain = "".join(c for c in token if c.isascii() and c != "?")
    if plain:
        return plain.lower()
    return "".join(c for c in token if c not in "?\ufffd").casefold()


def words(text: str) -> list[str]:
    """The word stream of ``text``: runs of letters and digits, each
    compared by :func:`_key` (case, diacritics and a lossy ``?`` do not count)."""
    return [k for k in (_key(t) for t in _WORD.findall(text)) if k]


def depth(line: str) -> int:
    """How many ``>`` quote ``line``."""
    return _QUOTE.match(line).group(1).count(">")


@dataclass(frozen=True)
class QuoteMatch:
    """The notice's copy in a reply's lines: it starts at line ``start``
    (0-based), its last line is ``end - 1``, and ``new_lines`` are the
    indexes at or after ``start`` that are *not* the notice (an answer
    written between or under quoted lines), in order."""

    start: int
    end: int
    new_lines: tuple[int, ...] = field(default=())
    variant: int = 0


class _Stream:
    """One variant of the notice as a word stream, indexed by word and by
    trigram. :meth:`find` looks a sequence up at the places of its rarest
    word or trigram and tries at most :data:`MAX_CANDIDATES` of them, so a
    line costs a bounded number of comparisons whatever the notice repeats
    (a refusal echoing a sender's 100 lines of one word); ``work`` counts
    the comparisons made."""

    def __init__(self, text: str):
        self.words = words(text)
        self.vocab = set(self.words)
        self.grams: dict[tuple[str, ...], list[int]] = {}
        self.at: dict[str, list[int]] = {}
        self.work = 0
        for i, w in enumerate(self.words):
            self.at.setdefault(w, []).append(i)
            if i + 3 <= len(self.words):
                self.grams.setdefault(tuple(self.words[i:i + 3]), []).append(i)

    def _anchor(self, seq: Sequence[str]) -> tuple[int, Sequence[int]]:
        """``(offset, positions)``: the rarest trigram of ``seq`` (its single
        words when shorter than three) and where it stands in the notice."""
        best: tuple[int, Sequence[int]] | None = None
        if len(seq) >= 3:
            keys = [(k, self.grams.get(tuple(seq[k:k + 3]), ())) for k in range(len(seq) - 2)]
        else:
            keys = [(k, self.at.get(w, ())) for k, w in enumerate(seq)]
        for k, places in keys:
            if best is None or len(places) < len(best[1]):
                best = (k, places)
                if not places:
                    break
        return best

    def find(self, seq: Sequence[str], lo: int, hi: int) -> int | None:
        """The first position ``p`` in ``[lo, hi]`` with ``words[p:p+len(seq)] == seq``
        among the first :data:`MAX_CANDIDATES` places of its anchor from
        ``lo`` on (``None`` beyond them)."""
        n = len(seq)
        if n == 0:
            return None
        k, places = self._anchor(seq)
        seq = list(seq)
        i = bisect_left(places, lo + k)  # positions ascend
        for p in places[i:i + MAX_CANDIDATES]:
            p -= k
            if p > hi:
                break
            self.work += 1
            if self.words[p:p + n] == seq:
                return p
        return None


def _start(streams: list[_Stream], line_words: list[list[str]]) -> tuple[int, int, int] | None:
    """(line, variant, position after that line's words) where the copy starts."""
    for i, lw in enumerate(line_words):
        if not lw:
            continue
        for v, s in enumerate(streams):
            need = min(MIN_RUN, len(s.words))
            if need < 3:
                continue
            run: list[str] = []
            j = i
            while len(run) < need and j < len(line_words):
                run += line_words[j]
                j += 1
            if len(run) < need:
                continue
            p = s.find(run[:need], 0, START_WINDOW)
            if p is not None:
                return i, v, p + len(lw)
    return None


def _belongs(s: _Stream, lw: list[str], pos: int, ahead: int = LOOKAHEAD) -> tuple[bool, int]:
    """Is a line with words ``lw`` the notice's, read from ``pos`` on? (yes?, new pos)

    Short lines must be found in order: an order line's words are all in
    the notice (its legal orders), so only their place tells them apart."""
    at = s.find(lw, pos, pos + ahead)
    if at is not None:
        return True, at + len(lw)
    if len(lw) < FUZZY_MIN_WORDS:
        return False, pos
    # the line straddles a spot the client changed: its first words in order,
    # or most of its words in the notice
    head = s.find(lw[:4], pos, pos + ahead)
    if head is not None:
        return True, head + 4
    known = sum(1 for w in lw if w in s.vocab)
    return known >= FUZZY_SHARE * len(lw), pos


def _streams(notice_texts: Sequence[str]) -> list[_Stream]:
    return list(_indexed(tuple(notice_texts)))


@lru_cache(maxsize=2)
def _indexed(notice_texts: tuple[str, ...]) -> tuple[_Stream, ...]:
    """The notice's texts indexed once for a reply (the finder and
    :func:`notice_lines` read the same ones)."""
    return tuple(s for s in (_Stream(t) for t in notice_texts if t and t.strip()) if len(s.words) >= 3)


def _quote_top(lines: Sequence[str], start: int, base_depth: int) -> int:
    """The first line of the run of lines quoted at least ``base_depth``
    deep that holds ``lines[start]``: the quote's lines above where the
    notice's words were first found (a forward block, an older notice's
    other opening) are the quote's too."""
    while start > 0 and depth(lines[start - 1]) >= base_depth:
        start -= 1
    return start


def find_notice(lines: Sequence[str], notice_texts: Sequence[str], *,
                stats: dict | None = None) -> QuoteMatch | None:
    """Where a copy of the notice (any of ``notice_texts``: its plain part,
    its HTML part as text) is in ``lines``, or ``None`` when there is none.
    Linear in the body's length: each line is looked up in a trigram index
    at no more than :data:`MAX_CANDIDATES` places. ``stats``, when given,
    receives ``comparisons``: how many places were compared."""
    streams = _streams(notice_texts)
    for s in streams:
        s.work = 0
    try:
        return _find(lines, streams)
    finally:
        if stats is not None:
            stats["comparisons"] = sum(s.work for s in streams)


def _find(lines: Sequence[str], streams: list[_Stream]) -> QuoteMatch | None:
    if not streams:
        return None
    line_words = [words(l) for l in lines]
    found = _start(streams, line_words)
    if found is None:
        return None
    start, v, pos = found
    s = streams[v]
    others = [o for o in streams if o is not s]
    quoted = depth(lines[start]) > 0
    base_depth = depth(lines[start])
    first = _quote_top(lines, start, base_depth) if quoted else start
    last_in = start
    new: list[int] = []
    for j in range(start + 1, len(lines)):
        lw = line_words[j]
        if not lw:
            continue
        if quoted and depth(lines[j]) >= base_depth:
            ok, pos = True, _belongs(s, lw, pos)[1]  # a line inside the quote is never new text
        elif quoted:
            ok, pos = _belongs(s, lw, pos, CONTINUATION)
        else:
            ok, pos = _belongs(s, lw, pos)
            if not ok and others and len(lw) >= FUZZY_MIN_WORDS:  # never an order line
                ok = any(_belongs(o, lw, 0)[0] for o in others)
        if ok:
            last_in = j
        else:
            new.append(j)
    end = last_in + 1
    if not quoted:
        # an unquoted copy: unmatched lines inside it are the client's noise,
        # what follows its last matched line is new text
        new = [j for j in new if j >= end]
    return QuoteMatch(first, end, tuple(new), v)


def notice_lines(lines: Sequence[str], notice_texts: Sequence[str], min_words: int = 4) -> set[int]:
    """Indexes of ``lines`` that are a line of the notice itself: at least
    ``min_words`` words found together, in order, in one of ``notice_texts``
    (a player's order copied from the legal-order list is one too: the
    caller keeps what the game reads as an order)."""
    streams = _streams(notice_texts)
    out = set()
    for i, line in enumerate(lines):
        lw = words(line)
        if len(lw) >= min_words and any(s.find(lw, 0, len(s.words)) is not None for s in streams):
            out.add(i)
    return out
