"""What a player meant: order lines, and the greeting and sign-off around
them that are not orders.

Players write letters: ``Hi all,`` above the orders, ``Cheers`` / ``Bruno``
below them. Where the intent is plain these are set aside (and named back
in the answer, "ignored: Cheers / Bruno") instead of failing the turn:

- a **greeting**: the first line, when it is not an order and an order
  follows, and it is short (at most :data:`GREETING_WORDS` words) and reads
  like one (ends in ``,`` ``!`` ``:`` ``…`` or is a known greeting word);
- a **sign-off**: the last one or two paragraphs after a blank line, when
  none of their lines is an order, each is short (at most
  :data:`SIGNOFF_WORDS` words) and orders remain above them;
- **prose** anywhere (:func:`is_prose`, by the game's own order words in
  every language: "Thanks for the game!", "I'll take the gold this
  time."), when it is not an order; a line that looks like an order and
  fails stays, so the refusal names it. A line the game reads only as
  several orders ("palace grey B2, palace grey B3") becomes one line per
  order.

"Is an order" is the caller's predicate (the service asks the game's
order parser whether a line is in its command language); without one a
line is taken as an order, so nothing but a recognisable greeting is set
aside.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Collection, Sequence

from pbem.i18n import fold

__all__ = ["Reading", "holds_an_order", "is_prose", "split_letter", "GREETING_WORDS", "SIGNOFF_WORDS", "PROSE_WORDS"]

GREETING_WORDS = 6
SIGNOFF_WORDS = 4
#: at most this many sign-off lines (e.g. "Cheers", "Bruno", a phone number)
SIGNOFF_LINES = 4

_GREETING = re.compile(
    r"^(?:hi|hello|hey|dear|hallo|moin|servus|hej|hei|moi|terve|hola|buenos|buenas|bonjour|salut|coucou"
    r"|ciao|salve|buongiorno|olá|ola|oi|bom dia|boa tarde|goedemorgen|goedendag|dag|ahoj|dobrý den"
    r"|bon dia|hola a tots|привет|здравствуйте|cześć|witam|dzień dobry|god morgen|goddag|grüß|gruezi"
    r"|grüezi|good (?:morning|afternoon|evening))\b", re.IGNORECASE)


@dataclass
class Reading:
    """The new text of a reply, read: ``orders`` (the lines to submit, in
    order), ``ignored`` (greeting and sign-off lines set aside), ``found``
    (the quoted notice was located by its words, not by patterns),
    ``first_lines`` (the first non-blank lines of the whole mail, to quote
    back when no order was found)."""

    orders: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    found: bool = False
    first_lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.orders)


def _paragraphs(lines: Sequence[str]) -> list[list[str]]:
    paras: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paras[-1].append(line.strip())
        elif paras[-1]:
            paras.append([])
    return [p for p in paras if p]


def _looks_like_greeting(line: str) -> bool:
    n = len(line.split())
    return 0 < n <= GREETING_WORDS and (line.rstrip().endswith((",", "!", ":", "…", "...")) or
                                        _GREETING.match(line) is not None)


#: a chatty line: at least this many words when it holds an order word
PROSE_WORDS = 4
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SEVERAL = re.compile(r"\s*[,;]\s*")
#: a site or a count as orders write them: a letter or two and a number
_SITE = re.compile(r"^[^\W\d_]{1,2}\d{1,3}$")


def _tokens(line: str) -> list[str]:
    return [fold(t) for t in _TOKEN.findall(line)]


def is_prose(line: str, order_words: Collection[str]) -> bool:
    """Whether ``line`` is plainly prose, not a failed order: it names no
    site (``E6``, ``T21``, ``x2``), does not begin with a number or a word
    of the command language (``order_words``, folded:
    :meth:`Game.order_words`), and holds no such word at all ("See you in
    2 days!") or is a sentence of at least :data:`PROSE_WORDS` words that
    are mostly other words ("I'll take the gold this time."). ``False`` for
    every line when ``order_words`` is empty."""
    if not order_words:
        return False
    tokens = _tokens(line)
    if not tokens or any(_SITE.match(t) for t in tokens):
        return False
    if tokens[0] in order_words or any(c.isdigit() for c in tokens[0]):
        return False
    known = sum(t in order_words for t in tokens)
    return known == 0 or (len(tokens) >= PROSE_WORDS and 2 * known <= len(tokens))


def holds_an_order(line: str, is_order: Callable[[str], bool]) -> bool:
    """Whether the game reads ``line``, or one of its pieces between ``,``
    and ``;`` ("palace orange A2, palace black J7"), as an order."""
    pieces = [p for p in _SEVERAL.split(line.strip()) if p]
    return is_order(line) or (len(pieces) > 1 and any(is_order(p) for p in pieces))


def _one_per_line(lines: Sequence[str], is_order: Callable[[str], bool]) -> list[str]:
    """Each line holding several orders ("palace grey B2, palace grey B3")
    made into one line per order, when the game reads every piece and
    not the whole."""
    out: list[str] = []
    for line in lines:
        pieces = [p for p in _SEVERAL.split(line.strip()) if p]
        if len(pieces) > 1 and not is_order(line) and all(is_order(p) for p in pieces):
            out += pieces
        else:
            out.append(line)
    return out


def split_letter(lines: Sequence[str], is_order: Callable[[str], bool] | None = None,
                 order_words: Collection[str] = ()) -> tuple[list[str], list[str]]:
    """``(orders, ignored)`` from the new text's lines (blank lines keep
    paragraphs apart). Never drops a line that ``is_order`` accepts.

    With the game's ``order_words`` (:func:`is_prose`), plain prose
    anywhere is set aside too, and a line with several orders is split
    (:func:`_one_per_line`); when no line is left that looks like an
    order, ``orders`` is empty ("no orders found")."""
    if is_order is None:
        def is_order(line: str) -> bool:  # no vocabulary: only a plain greeting word is not an order
            return not (_GREETING.match(line) and line.rstrip().endswith((",", "!")))
    else:
        is_order = _remembered(is_order)  # the game's parser: each line read once
        if order_words:
            lines = _one_per_line(lines, is_order)
    orders, ignored = _letter(lines, is_order)
    if not order_words:
        return orders, ignored
    prose = {i for i, l in enumerate(orders) if not is_order(l) and is_prose(l, order_words)}
    if not prose:
        return orders, ignored
    kept = [l for i, l in enumerate(orders) if i not in prose]
    set_aside = [l for i, l in enumerate(orders) if i in prose]
    return kept, _in_order(lines, ignored + set_aside)


def _remembered(is_order: Callable[[str], bool]) -> Callable[[str], bool]:
    seen: dict[str, bool] = {}

    def remembered(line: str) -> bool:
        if line not in seen:
            seen[line] = is_order(line)
        return seen[line]
    return remembered


def _in_order(lines: Sequence[str], chosen: list[str]) -> list[str]:
    """``chosen`` (lines of ``lines``, stripped) in the order they stand in ``lines``."""
    left = Counter(chosen)
    out = []
    for line in lines:
        if left[line.strip()] > 0:
            left[line.strip()] -= 1
            out.append(line.strip())
    return out + list(left.elements())


def _letter(lines: Sequence[str], is_order: Callable[[str], bool]) -> tuple[list[str], list[str]]:
    """The greeting and sign-off rule: ``(orders, greeting and sign-off lines)``."""
    paras = _paragraphs(lines)
    ignored_top: list[str] = []
    ignored_bottom: list[str] = []
    if paras:
        first = paras[0][0]
        rest = [l for p in paras for l in p][1:]
        if (rest and not is_order(first) and _looks_like_greeting(first) and any(is_order(l) for l in rest)):
            ignored_top.append(first)
            paras[0] = paras[0][1:]
            paras = [p for p in paras if p]
    for _ in range(2):
        if len(paras) < 2:
            break
        last = paras[-1]
        if (len(last) + len(ignored_bottom) <= SIGNOFF_LINES
                and all(not is_order(l) and len(l.split()) <= SIGNOFF_WORDS for l in last)
                and any(is_order(l) for p in paras[:-1] for l in p)):
            ignored_bottom = last + ignored_bottom
            paras = paras[:-1]
        else:
            break
    orders = [l for p in paras for l in p]
    return orders, ignored_top + ignored_bottom
