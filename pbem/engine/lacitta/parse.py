"""The La Città command language: text -> :class:`Order`, and why an order
is refused.  Forms and aliases: docs/rules/lacitta.md "Orders".

Case-insensitive; the words of every language in
:data:`pbem.engine.lacitta.words.WORDS` are read (English, Finnish, Czech,
Catalan, German: ``rakenna maatila J6`` = ``build farm J6``), with or without
diacritics (umlauts also as ae/oe/ue, ß as ss).  Sites are column letter +
row (``f7`` = ``F6``); a city is named by any of its sites (its castle is the
canonical name).
"""
from __future__ import annotations

import re

from pbem.engine.api import IllegalOrderError, NotYourTurnError, OrderParseError
from pbem.engine.fold import LANGUAGES, fold, spellings
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order, demolish, starve
from pbem.engine.lacitta.board import SITES
from pbem.engine.lacitta.explain import explain
from pbem.engine.lacitta.terms import CARD
from pbem.engine.lacitta.words import WORDS, first, order_text
from pbem.engine.messages import Msg, said_by
from pbem.engine.phrases import join, seat as seat_name

_SITE = re.compile(r"^[a-z]\d{1,2}$")
_COUNT = re.compile(r"^x?(\d)x?$")
_FILLER = frozenset(fold(f) for w in WORDS.values() for f in w.fillers)


def _norm(text: str) -> str:
    t = fold(text.strip())
    t = re.sub(r"[.;:!]+$", "", t)
    t = re.sub(r"\bl'(?=\w)", "", t)          # Catalan elided article: construeix l'estàtua
    words = t.replace(",", " , ").split()
    # email politeness and glue: "please build a farm at F6"
    return " ".join(w for w in words if w not in _FILLER)


def _table(*parts: str) -> list[tuple[str, str]]:
    """Every language's ``parts`` tables as (normalised phrase, meaning),
    longest phrase first (so ``found new city`` wins over ``found``)."""
    pairs = {(_norm(form), meaning) for w in WORDS.values() for part in parts
             for phrase, meaning in getattr(w, part).items() for form in spellings(phrase)}
    return sorted(pairs, key=lambda kv: (-len(kv[0]), kv))


_BUILDINGS = _table("buildings", "objects")
_CARDS = _table("cards")
_WISHES = dict(_table("wishes"))
_VERBS = _table("verbs")
_JOINS = frozenset(fold(j) for w in WORDS.values() for j in w.joins)
ORDER_WORDS = said_by(lambda lang: ", ".join(first(WORDS[lang].verbs, v) for v in (
    "castle", "gold", "build", "found", "pass", "wish", "demolish", "starve")), LANGUAGES)
"""The order words that start an order (not a card's), in each language's own words."""


def _say(*orders: Order) -> Msg:
    """``orders`` as order lines in every language's words (a :func:`said`
    message; several joined by ", "), for the examples in refusals."""
    return said_by(lambda lang: ", ".join(order_text(o, lang) for o in orders), LANGUAGES)


def _verb(meaning: str) -> Msg:
    return said_by(lambda lang: first(WORDS[lang].verbs, meaning), LANGUAGES)


def _wishes(*wishes: str) -> Msg:
    return said_by(lambda lang: ", ".join(first(WORDS[lang].wishes, w) for w in wishes), LANGUAGES)


_SMALL = said_by(lambda lang: ", ".join(first(WORDS[lang].buildings, k) for k in D.SMALL), LANGUAGES)
_ARCHES = _wishes("culture", "education", "health")
_FOUND, _FOUND_FROM = Order("found", "F6"), Order("found", "F6", extra=("E3",))
_CARD_EXAMPLE = {"bread and games": Order("bread", "F6", n=1), "golden age": Order("golden", "F6", n=1),
                 "rich harvest": Order("harvest", "F6")}


def _take(text: str, table) -> tuple[str | None, str]:
    for key, value in table:
        if text == key or text.startswith(key + " "):
            return value, text[len(key):].strip()
    return None, text


def _site(tok: str, text: str) -> str:
    if not _SITE.match(tok):
        raise OrderParseError(Msg("{word} is not a site; sites are a column letter and a row "
                                  "number, like F6.", word=repr(tok)), text=text)
    name = tok.upper()
    if name not in SITES:
        raise OrderParseError(Msg("There is no site {site} on the board.", site=name), text=text)
    return name


def _count(tok: str, text: str) -> int:
    m = _COUNT.match(tok)
    if not m or not 1 <= int(m.group(1)) <= 3:
        raise OrderParseError(Msg("{word} is not a count (x1, x2 or x3).", word=repr(tok)), text=text)
    return int(m.group(1))


def read(text: str) -> Order:
    """Parse one order line into an :class:`Order` (not yet checked against
    a position; cities are named by the site written). Raises
    :class:`OrderParseError` (its message a :class:`Msg`)."""
    raw = text
    t = _norm(text)
    if not t:
        raise OrderParseError(Msg("The order is empty."), text=raw)
    card, rest = _take(t, _CARDS)
    if card:
        return _read_card(card, rest.split(), raw)
    verb, rest = _take(t, _VERBS)
    toks = rest.split()
    if verb is None:
        kind, rest2 = _take(t, _BUILDINGS)
        if kind:                                   # "palazzo F6", "farm F6"
            verb, toks = "build", [*_kind_words(kind), *rest2.split()]
        else:
            raise OrderParseError(Msg("Cannot read {order}: it does not start with an order word "
                                      "({words}) or a card's name.", order=repr(raw.strip()),
                                      words=ORDER_WORDS), text=raw)
    reader = _READERS.get(verb)
    if reader is None:
        raise OrderParseError(Msg("Cannot read {order}.", order=repr(raw.strip())), text=raw)
    return reader(verb, toks, raw)


def _read_alone(verb: str, toks: list[str], raw: str) -> Order:
    """``gold`` or ``pass``: the word alone."""
    if toks:
        raise OrderParseError(Msg("'{word}' takes nothing after it.", word=_verb(verb)), text=raw)
    return Order(verb)


def _read_castle(verb: str, toks: list[str], raw: str) -> Order:
    """``castle F6``: a castle placed in the experienced set-up."""
    if len(toks) != 1:
        raise OrderParseError(Msg("Write '{word}' and one site, like: {example}", word=_verb("castle"),
                                  example=_say(Order("castle", "F6"))), text=raw)
    return Order("castle", _site(toks[0], raw))


def _read_build(verb: str, toks: list[str], raw: str) -> Order:
    """``build farm F6`` (a small building) or ``build palazzo F6`` (a card's)."""
    kind, rest2 = _take(" ".join(toks), _BUILDINGS)
    if kind is None:
        raise OrderParseError(Msg("Build what? Write for example: {example} ({small}; {cards} ... "
                                  "for political cards).", example=_say(Order("build", "F6", "farm")),
                                  small=_SMALL, cards=_say(Order("card", "F6", "palazzo"),
                                                           Order("card", "F6", "dom"))), text=raw)
    toks = rest2.split()
    if len(toks) != 1:
        raise OrderParseError(Msg("Write one site after the building, like: {order}",
                                  order=_say(Order("build" if kind in D.SMALL else "card", "F6", kind))),
                              text=raw)
    site = _site(toks[0], raw)
    if kind in D.SMALL:
        return Order("build", site, kind)
    return Order("card", site, kind)


def _read_found(verb: str, toks: list[str], raw: str) -> Order:
    """``found F6``, ``found F6 from E3`` or ``found F6 E3``."""
    if not toks:
        raise OrderParseError(Msg("Found where? Write for example: {found} (or {found_from})",
                                  found=_say(_FOUND), found_from=_say(_FOUND_FROM)), text=raw)
    site = _site(toks[0], raw)
    if len(toks) == 1:
        return Order("found", site)
    if len(toks) == 3 and toks[1] in _JOINS:
        return Order("found", site, extra=(_site(toks[2], raw),))
    if len(toks) == 2 and _SITE.match(toks[1]):          # "perusta F6 E3"
        return Order("found", site, extra=(_site(toks[1], raw),))
    raise OrderParseError(Msg("Write: {found}, or {found_from}", found=_say(_FOUND),
                              found_from=_say(_FOUND_FROM)), text=raw)


def _read_wish(verb: str, toks: list[str], raw: str) -> Order:
    """``wish E3 culture``: a city's wish in migration."""
    if len(toks) != 2 or toks[1] not in _WISHES:
        raise OrderParseError(Msg("Write: {example} (or {others})", example=_say(Order("wish", "E3", "culture")),
                                  others=_wishes("education", "health")), text=raw)
    return Order("wish", _site(toks[0], raw), _WISHES[toks[1]])


def _read_demolish(verb: str, toks: list[str], raw: str) -> Order:
    """``demolish F6`` or ``demolish F6, G6``."""
    sites = [_site(x, raw) for x in toks if x != ","]
    if not sites:
        raise OrderParseError(Msg("Demolish what? Write: {one} (or {two})", one=_say(demolish("F6")),
                                  two=_say(demolish("F6", "G6"))), text=raw)
    return demolish(*sites)


def _read_starve(verb: str, toks: list[str], raw: str) -> Order:
    """``starve E3 2, J9``: citizens given up per city (1 when no number)."""
    parts = [p.split() for p in " ".join(toks).split(",") if p.strip()]
    out = []
    for p in parts:
        if len(p) == 1:
            out.append((_site(p[0], raw), 1))
        elif len(p) == 2 and p[1].isdigit() and int(p[1]) > 0:
            out.append((_site(p[0], raw), int(p[1])))
        else:
            raise OrderParseError(_STARVE_HOW, text=raw)
    if not out:
        raise OrderParseError(_STARVE_HOW, text=raw)
    return starve(*out)


_READERS = {"gold": _read_alone, "pass": _read_alone, "castle": _read_castle, "build": _read_build,
            "found": _read_found, "wish": _read_wish, "demolish": _read_demolish, "starve": _read_starve}


_STARVE_HOW = Msg("Write: {example} (city and number of citizens)", example=_say(starve(("E3", 2), ("J9", 1))))


def _kind_words(kind: str) -> list[str]:
    return [kind]


def _read_card(card: str, toks: list[str], raw: str) -> Order:
    toks = [x for x in toks if x != ","]
    if card == "master builder":
        kind, rest = _take(" ".join(toks), _BUILDINGS)
        if kind is None or len(rest.split()) != 1:
            raise OrderParseError(Msg("Write: {example} (a building and a site)",
                                      example=_say(Order("master", "F6", "dom"))), text=raw)
        return Order("master", _site(rest.split()[0], raw), kind)
    if card == "citizens":
        if not toks:
            return Order("citizens", n=2)
        if len(toks) == 1 and toks[0] in ("2", "3"):
            return Order("citizens", n=int(toks[0]))
        raise OrderParseError(Msg("Write: {two} (free) or {three} (2 gold)", two=_say(Order("citizens", n=2)),
                                  three=_say(Order("citizens", n=3))), text=raw)
    if not toks:
        raise OrderParseError(Msg("{card} needs a site, like: {order}", card=CARD[card],
                                  order=_say(_CARD_EXAMPLE[card])), text=raw)
    site = _site(toks[0], raw)
    rest = toks[1:]
    if card == "rich harvest":
        if rest:
            raise OrderParseError(Msg("Write: {example} (the farm's site)",
                                      example=_say(Order("harvest", "F6"))), text=raw)
        return Order("harvest", site)
    n = 1
    if rest and _COUNT.match(rest[0]):
        n = _count(rest[0], raw)
        rest = rest[1:]
    if card == "golden age":
        if rest:
            raise OrderParseError(Msg("Write: {example} (a city and 1, 2 or 3 citizens)",
                                      example=_say(Order("golden", "E3", n=2))), text=raw)
        return Order("golden", site, n=n)
    wishes = []
    for w in rest:
        if w not in _WISHES:
            raise OrderParseError(Msg("{word} is not an arch colour ({wishes}).", wishes=_ARCHES,
                                      word=repr(w)), text=raw)
        wishes.append(_WISHES[w])
    return Order("bread", site, n=n, extra=tuple(sorted(wishes)))


def parse(state, seat: int, text: str) -> Order:
    """Read ``text`` and check it against ``state`` for ``seat``."""
    order = read(text)
    if seat not in state.current_seats():
        now = state.current_seats()
        who = join([seat_name(s) for s in now]) or Msg("nobody (the game is over)")
        raise NotYourTurnError(Msg("It is not your turn: {who} to play ({phase}).", who=who,
                                   phase=state.phase()), text=text)
    order = canonical(state, seat, order)
    if order.verb in ("demolish", "starve") and len(order.extra) > 1:
        state.check_multi(seat, order)
        return order
    if state.is_legal(seat, order):
        return order
    raise IllegalOrderError(explain(state, seat, order), text=text,
                            legal=[a.to_text() for a in state.legal_actions(seat)[:15]])


def canonical(state, seat: int, o: Order) -> Order:
    """Name cities by their castle, drop redundant parts, fill in the only
    possible choice ('found F6' with a single spare castle)."""
    v = o.verb
    city = state.city_of(o.site) if o.site else None
    if v in ("golden", "wish") and city is not None:
        return Order(v, city.castle, o.what, o.n, o.extra)
    if v == "starve":
        parts = []
        for s, k in o.extra:
            c = state.city_of(s)
            parts.append((c.castle if c else s, k))
        return starve(*parts)
    if v == "found" and o.site:
        legal = state._legal_set(seat)
        if o.extra:
            plain = Order("found", o.site)
            if plain in legal:
                giver = state.city_of(o.extra[0])
                only = [c for c in state.cities_of(seat) if c.spare() >= 1]
                if giver is not None and only and giver.castle == only[0].castle:
                    return plain
            c = state.city_of(o.extra[0])
            if c is not None:
                return Order("found", o.site, extra=(c.castle,))
    if v == "bread" and o.site and o.site in state.kind:
        arches = D.ARCHES[state.kind[o.site]]
        if len(arches) == 1 and all(w in arches for w in o.extra):
            return Order("bread", o.site, n=o.n)
        if len(o.extra) == 0 and len(arches) == 2 and o.n >= 1:
            return o     # explain() asks for colours
        if len(arches) == 2 and len(o.extra) == o.n:
            e = sum(1 for w in o.extra if w == "education")
            return Order("bread", o.site, n=o.n, extra=("education",) * e + ("health",) * (o.n - e))
    return o
