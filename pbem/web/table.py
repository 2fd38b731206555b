"""The table around the board: every seat as the person holding it (name
and seat colour), the view with those names for the board picture, log
lines that name players instead of "Seat 2", and the per-game panel and
rules templates, found by the game's name (``panels/<game>.html``,
``rules/<game>.html``) as board pictures are found by module name.

No game is named here: colours come from the board module
(:func:`pbem.boards.seat_colours`), everything else from the view.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from flask_babel import gettext
from markupsafe import Markup, escape

from pbem.boards import named_view as boards_named_view
from pbem.boards import seat_colours
from pbem.i18n.bot_names import seat_holder
from pbem.i18n.seats import seat_words
from pbem.web.language import page_lang
from pbem.web.locale import select_locale

@dataclass(frozen=True)
class Person:
    """Seat ``index`` (0-based; ``number`` as players count) held by
    ``name``, drawn in ``colour`` (``#rrggbb``); ``you`` when it is the
    reader's own seat."""

    index: int
    number: int
    name: str
    colour: str
    you: bool = False


def people(game, view: dict[str, Any] | None, you: int | None = None) -> list[Person]:
    """One :class:`Person` per seat of ``game`` (a service ``Game`` row)."""
    colours = seat_colours(game.kind, view or {"seats": len(game.seats)})
    out = []
    for seat in sorted(game.seats, key=lambda s: s.index):
        name = ((seat_holder(seat, page_lang()) if seat.player is not None else "")   # a bot's seat: issue 27
                or gettext("Seat %(number)s", number=seat.number))
        colour = colours[seat.index] if seat.index < len(colours) else "#777777"
        out.append(Person(seat.index, seat.number, name, colour, seat.index == you))
    return out


def named_view(view: dict[str, Any], persons: Iterable[Person]) -> dict[str, Any]:
    """A copy of ``view`` whose ``players`` carry each seat's ``name`` (the
    boards print it instead of "seat 2") and whose phase is in the page's
    language with the players named; the view itself is untouched."""
    persons = list(persons)
    return boards_named_view(view, {p.index: p.name for p in persons}, str(select_locale()))


def chip(person: Person) -> Markup:
    """The person's name with a dot of their seat colour (the colour is a
    decoration: the name carries the meaning)."""
    you = Markup(' <span class="you">{}</span>').format(gettext("(you)")) if person.you else ""
    return Markup('<span class="who" style="--seat:{c}" title="{seat}"><span class="dot" aria-hidden="true">'
                  '</span>{name}{you}</span>').format(c=person.colour, seat=gettext("seat %(number)s", number=person.number),
                                                      name=person.name, you=you)


def chips(persons: list[Person], seats: Iterable[Any]) -> Markup:
    """The name chips (:func:`chip`) of ``seats`` (objects with ``index``),
    comma-separated, as markup."""
    return Markup(", ").join(chip(persons[s.index]) for s in seats)


def seated(text: str, persons: Iterable[Person]) -> Markup:
    """``text`` (an engine's event or phase line) escaped, with every
    "Seat 2" / "seat 2" replaced by that seat's :func:`chip`."""
    by_number = {p.number: p for p in persons}
    plain = str(escape(text))

    def swap(m: re.Match) -> str:
        person = by_number.get(int(next(g for g in m.groups()[1:] if g)))
        if person is None:
            return m.group(0)
        if person.name in plain:       # "Cy took seat 3": keep the seat, add its colour
            return str(Markup('<span class="who seatword" style="--seat:{c}"><span class="dot" aria-hidden="true">'
                              '</span>{w}</span>').format(c=person.colour, w=m.group(0)))
        return str(chip(person))

    return Markup(seat_words(page_lang()).sub(swap, plain))


def panel_templates(kind: str) -> list[str]:
    """The player-panel template of game ``kind``, then the fallback (the
    text view alone): for Jinja's ``include`` of a list."""
    return [f"panels/{kind}.html", "panels/_text.html"]


def rules_template(kind: str) -> str:
    return f"rules/{kind}.html"
