"""The Medina command language: one placement per line, case-insensitive.

::

    palace orange E5     a palace piece (grey, black, brown, orange)
    dome E5              claim the palace under construction at E5
    stable F6            a stable next to a palace
    merchant G2          a merchant at an end of the merchant chain
    wall W12             a wall piece on wall space W12

Words may come in any order (``E5 orange palace``); the piece and colour
words of every language in :data:`pbem.engine.medina.words.WORDS` are read
too, with or without diacritics (Finnish ``palatsi oranssi E5``, Czech
``palác oranžový E5``, Catalan ``palau taronja E5``, German ``Palast orange
E5``). ``palace E5`` without a colour is read when exactly one colour may go
there.
"""
from __future__ import annotations

import re

from pbem.engine.api import IllegalOrderError, NotYourTurnError, OrderParseError
from pbem.engine.fold import LANGUAGES
from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place
from pbem.engine.medina.help import HELP  # noqa: F401  (the game's order help)
from pbem.engine.medina.terms import PIECE
from pbem.engine.medina.turns import refusal
from pbem.engine.medina.pieces import PALACE_COLOURS
from pbem.engine.medina.words import COLOURS, KINDS, WORDS, first, say, word
from pbem.engine.messages import Msg, said_by
from pbem.engine.phrases import seat as seat_name
KIND_WORDS = said_by(lambda lang: ", ".join(first(WORDS[lang].kinds, k) for k in (
    "palace", "dome", "stable", "merchant", "wall")), LANGUAGES)
"""The words of the pieces an order places, in each language's own words."""
COLOUR_WORDS = said_by(lambda lang: ", ".join(first(WORDS[lang].colours, c) for c in PALACE_COLOURS), LANGUAGES)
"""The palace colours, in each language's own words."""


def _examples(legal: list[Place], limit: int = 8) -> list[str]:
    """A short, varied sample of legal orders: two of each kind of order."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for a in legal:
        if seen.get(a.label, 0) < 2:
            seen[a.label] = seen.get(a.label, 0) + 1
            out.append(a.to_text())
    return out[:limit]


_SPLIT = re.compile(r"[\s,;:.!]+")


def parse_order(state, seat: int, text: str) -> Place:
    """Read one order line for ``seat`` in ``state``.

    Raises :class:`OrderParseError` when the line is not an order,
    :class:`NotYourTurnError` when ``seat`` owes nothing, and
    :class:`IllegalOrderError` (with the reason,
    :func:`pbem.engine.medina.turns.refusal`) when it is not legal now.
    Every refusal's message is a :class:`Msg`.
    """
    raw = text.strip()
    legal = state.legal_actions(seat)
    found = _read(raw, legal)
    if not isinstance(found, Place):
        raise OrderParseError(found, text=raw, legal=_examples(legal))
    if seat not in state.current_seats():
        who = state.current_seats()
        raise NotYourTurnError(
            Msg("the game is over") if not who else
            Msg("it is {seat}'s turn, not yours", seat=seat_name(who[0])), text=raw, legal=[])
    why = refusal(state, seat, found)
    if why is not None:
        raise IllegalOrderError(Msg("'{order}' is not legal: {why}", order=say(found), why=why),
                                text=raw, legal=_examples(_near(legal, found)))
    return found


def _read(raw: str, legal: list[Place]) -> Place | Msg:
    """The placement ``raw`` names, or why it names none (``legal`` tells
    the colour of ``palace E5``)."""
    words = [word(w) for w in _SPLIT.split(raw) if w]
    if not words:
        return Msg("the order is empty")
    kind = colour = site = number = None
    unknown = []
    for w in words:
        if w in KINDS and kind is None:
            kind = KINDS[w]
        elif w in COLOURS and colour is None:
            colour = COLOURS[w]
        elif site is None and (B.parse_square(w) is not None or B.parse_wall(w) is not None):
            site = w.upper()
        elif w.isdecimal() and number is None:
            number = int(w)
        else:
            unknown.append(w)
    if kind is None and colour is not None:
        kind = "palace"  # "orange E5"
    if kind is None and site is not None and site.startswith("W"):
        kind = "wall"    # "W12"
    if kind is None:
        return Msg("'{order}' is not a Medina order: start with {words}", order=raw, words=KIND_WORDS)
    if kind == "wall" and site is None and number is not None and 1 <= number <= B.WALLS:
        site = f"W{number}"
    return _placement(raw, kind, colour, site, unknown, legal)


def _placement(raw: str, kind: str, colour: str | None, site: str | None,
               unknown: list[str], legal: list[Place]) -> Place | Msg:
    """The placement of ``kind`` read from ``raw``, or what is wrong with it."""
    if any(w in KINDS for w in unknown):
        return Msg("'{order}' holds more than one order: write one order per line", order=raw)
    if unknown:
        bad = unknown[0]
        if re.fullmatch(r"[a-z]\d+", bad):
            return Msg("could not read '{word}' in '{order}' (squares are A1-P11, wall spaces "
                       "W1-W54)", word=bad, order=raw)
        return Msg("could not read '{word}' in '{order}'", word=bad, order=raw)
    if site is None:
        if kind == "wall":
            return Msg("'{order}' names no site: add a wall space such as W12", order=raw)
        return Msg("'{order}' names no site: add a square such as E5", order=raw)
    is_wall = site.startswith("W")
    if kind == "wall" and not is_wall:
        return Msg("walls go on wall spaces W1-W54, not on square {site}", site=site)
    if kind != "wall" and is_wall:
        return Msg("a {piece} goes on a square (A1-P11), not on wall space {site}",
                   piece=PIECE[kind], site=site)
    if kind == "palace" and colour is None:
        fits = [a for a in legal if a.kind == "palace" and a.site == site]
        if len(fits) != 1:
            return Msg("say which colour: '{example}' ({colours})",
                       example=say(Place("palace", site, "orange")), colours=COLOUR_WORDS)
        colour = fits[0].colour
    if kind != "palace" and colour is not None:
        return Msg("only palace pieces have a colour; write '{order}'", order=say(Place(kind, site)))
    return Place(kind, site, colour)


def _near(legal: list[Place], action: Place) -> list[Place]:
    """Legal orders of the same kind first, so the refusal shows what fits."""
    same = [a for a in legal if a.kind == action.kind and a.colour == action.colour]
    return same + [a for a in legal if a not in same] if same else legal
