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
from pbem.engine.fold import fold, spellings
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order, demolish, starve
from pbem.engine.lacitta.board import SITES
from pbem.engine.lacitta.words import WORDS

_SITE = re.compile(r"^[a-z]\d{1,2}$")
_COUNT = re.compile(r"^x?(\d)x?$")
_FILLER = frozenset(fold(f) for w in WORDS.values() for f in w.fillers)


def _norm(text: str) -> str:
    t = fold(text.strip())
    t = re.sub(r"[.;:!]+$", "", t)
    words = t.replace(",", " , ").split()
    # email politeness and glue: "please build a farm at F6"
    return " ".join(w for w in words if w not in _FILLER)


def _table(part: str) -> list[tuple[str, str]]:
    """Every language's ``part`` table as (normalised phrase, meaning),
    longest phrase first (so ``found new city`` wins over ``found``)."""
    pairs = {(_norm(form), meaning) for w in WORDS.values()
             for phrase, meaning in getattr(w, part).items() for form in spellings(phrase)}
    return sorted(pairs, key=lambda kv: (-len(kv[0]), kv))


_BUILDINGS = _table("buildings")
_CARDS = _table("cards")
_WISHES = dict(_table("wishes"))
_VERBS = _table("verbs")
_JOINS = frozenset(fold(j) for w in WORDS.values() for j in w.joins)


def _take(text: str, table) -> tuple[str | None, str]:
    for key, value in table:
        if text == key or text.startswith(key + " "):
            return value, text[len(key):].strip()
    return None, text


def _site(tok: str, text: str) -> str:
    if not _SITE.match(tok):
        raise OrderParseError(f"{tok!r} is not a site; sites are a column letter and a row number, "
                              f"like F6.", text=text)
    name = tok.upper()
    if name not in SITES:
        raise OrderParseError(f"There is no site {name} on the board.", text=text)
    return name


def _count(tok: str, text: str) -> int:
    m = _COUNT.match(tok)
    if not m or not 1 <= int(m.group(1)) <= 3:
        raise OrderParseError(f"{tok!r} is not a count (x1, x2 or x3).", text=text)
    return int(m.group(1))


def read(text: str) -> Order:
    """Parse one order line into an :class:`Order` (not yet checked against
    a position; cities are named by the site written). Raises
    :class:`OrderParseError`."""
    raw = text
    t = _norm(text)
    if not t:
        raise OrderParseError("The order is empty.", text=raw)
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
            raise OrderParseError(f"Cannot read {raw.strip()!r}: it does not start with an order word "
                                  f"(castle, gold, build, found, a card name, pass, wish, demolish, "
                                  f"starve; or the same in Finnish, Czech, Catalan or German: rakenna, postav, "
                                  f"construeix, baue ...).", text=raw)
    if verb == "gold":
        if toks:
            raise OrderParseError("'gold' takes nothing after it.", text=raw)
        return Order("gold")
    if verb == "pass":
        if toks:
            raise OrderParseError("'pass' takes nothing after it.", text=raw)
        return Order("pass")
    if verb == "castle":
        if len(toks) != 1:
            raise OrderParseError("Write 'castle' and one site, like: castle F6", text=raw)
        return Order("castle", _site(toks[0], raw))
    if verb == "build":
        kind, rest2 = _take(" ".join(toks), _BUILDINGS)
        if kind is None:
            raise OrderParseError("Build what? Write for example: build farm F6 (farm, quarry, market, "
                                  "statue, school, fountain; palazzo F6, dom F6 ... for political "
                                  "cards).", text=raw)
        toks = rest2.split()
        if len(toks) != 1:
            raise OrderParseError(f"Write one site after the building, like: build {kind} F6", text=raw)
        site = _site(toks[0], raw)
        if kind in D.SMALL:
            return Order("build", site, kind)
        return Order("card", site, kind)
    if verb == "found":
        if not toks:
            raise OrderParseError("Found where? Write for example: found F6 (or found F6 from E3)",
                                  text=raw)
        site = _site(toks[0], raw)
        if len(toks) == 1:
            return Order("found", site)
        if len(toks) == 3 and toks[1] in _JOINS:
            return Order("found", site, extra=(_site(toks[2], raw),))
        if len(toks) == 2 and _SITE.match(toks[1]):          # "perusta F6 E3"
            return Order("found", site, extra=(_site(toks[1], raw),))
        raise OrderParseError("Write: found F6, or found F6 from E3", text=raw)
    if verb == "wish":
        if len(toks) != 2 or toks[1] not in _WISHES:
            raise OrderParseError("Write: wish E3 culture (or education, health)", text=raw)
        return Order("wish", _site(toks[0], raw), _WISHES[toks[1]])
    if verb == "demolish":
        sites = [_site(x, raw) for x in toks if x != ","]
        if not sites:
            raise OrderParseError("Demolish what? Write: demolish F6 (or demolish F6 G6)", text=raw)
        return demolish(*sites)
    if verb == "starve":
        parts = [p.split() for p in " ".join(toks).split(",") if p.strip()]
        out = []
        for p in parts:
            if len(p) == 1:
                out.append((_site(p[0], raw), 1))
            elif len(p) == 2 and p[1].isdigit() and int(p[1]) > 0:
                out.append((_site(p[0], raw), int(p[1])))
            else:
                raise OrderParseError("Write: starve E3 2, J9 1 (city and number of citizens)", text=raw)
        if not out:
            raise OrderParseError("Write: starve E3 2, J9 1 (city and number of citizens)", text=raw)
        return starve(*out)
    raise OrderParseError(f"Cannot read {raw.strip()!r}.", text=raw)


def _kind_words(kind: str) -> list[str]:
    return [kind]


def _read_card(card: str, toks: list[str], raw: str) -> Order:
    toks = [x for x in toks if x != ","]
    if card == "master builder":
        kind, rest = _take(" ".join(toks), _BUILDINGS)
        if kind is None or len(rest.split()) != 1:
            raise OrderParseError("Write: master builder dom F6 (a building and a site)", text=raw)
        return Order("master", _site(rest.split()[0], raw), kind)
    if card == "citizens":
        if not toks:
            return Order("citizens", n=2)
        if len(toks) == 1 and toks[0] in ("2", "3"):
            return Order("citizens", n=int(toks[0]))
        raise OrderParseError("Write: citizens 2 (free) or citizens 3 (2 gold)", text=raw)
    if not toks:
        raise OrderParseError(f"{D.CARD_TITLE[card]} needs a site, like: {card} F6", text=raw)
    site = _site(toks[0], raw)
    rest = toks[1:]
    if card == "rich harvest":
        if rest:
            raise OrderParseError("Write: rich harvest F6 (the farm's site)", text=raw)
        return Order("harvest", site)
    n = 1
    if rest and _COUNT.match(rest[0]):
        n = _count(rest[0], raw)
        rest = rest[1:]
    if card == "golden age":
        if rest:
            raise OrderParseError("Write: golden age E3 x2 (a city and 1, 2 or 3 citizens)", text=raw)
        return Order("golden", site, n=n)
    wishes = []
    for w in rest:
        if w not in _WISHES:
            raise OrderParseError(f"{w!r} is not an arch colour (culture, education, health).", text=raw)
        wishes.append(_WISHES[w])
    return Order("bread", site, n=n, extra=tuple(sorted(wishes)))


def parse(state, seat: int, text: str) -> Order:
    """Read ``text`` and check it against ``state`` for ``seat``."""
    order = read(text)
    if seat not in state.current_seats():
        now = state.current_seats()
        who = ", ".join(f"seat {s + 1}" for s in now) or "nobody (the game is over)"
        raise NotYourTurnError(f"It is not your turn: {who} to play ({state.phase()}).", text=text)
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


def explain(s, p: int, o: Order) -> str:
    """Why ``o`` is not legal for seat ``p`` now, in a player's words."""
    v = o.verb
    ph = s.phase_name
    text = o.to_text()
    if ph == "setup":
        if v != "castle":
            return f"During setup the only order is 'castle F6' (now: {s.phase()})."
        return _site_problem(s, p, o.site, castle=True) or f"{o.site} cannot take a castle now."
    if v == "castle":
        return f"Castles are placed only during setup; now: {s.phase()}. To start a new city: found F6."
    if ph == "migration":
        if v != "wish":
            return "Now each city's wish is chosen: wish E3 culture."
        if o.site not in s.wish_choice:
            return f"{o.site} is not one of your cities that needs a wish now."
        if o.what not in s.wishes:
            return f"The people wish for {' and '.join(s.wishes)} this year, not {o.what}."
        return f"The wish for the city at {o.site} is already chosen."
    if ph == "yearend":
        stage = s.yearend[p]["stage"]
        if stage == "starve":
            if v != "starve":
                return (f"{s.yearend[p]['excess']} of your citizens must leave for lack of food first: "
                        f"starve E3 1.")
            castle, k = o.extra[0]
            c = s.cities.get(castle)
            if c is None or c.owner != p:
                return f"{castle} is not one of your cities."
            ex = s.yearend[p]["excess"]
            if k > ex:
                return f"Only {ex} citizen{'s' if ex > 1 else ''} must leave."
            return f"The city at {castle} has only {c.citizens} citizens."
        if v != "demolish":
            return "Now buildings without citizens must be demolished: demolish F6."
        site = o.site
        c = s.city_of(site)
        if c is None or c.owner != p:
            return f"{site} is not one of your buildings."
        if site == c.castle:
            return "The castle goes only with the city's last citizen."
        if len(c.sites) <= c.citizens:
            return f"The city at {c.castle} has a citizen for every building; nothing to demolish there."
        return (f"Demolishing {site} would cut the city at {c.castle} in two; demolish from the edge: "
                f"{', '.join(s.removable(c))}.")
    # political round
    if v in ("wish", "demolish", "starve"):
        return f"'{o.verb}' orders come at the end of the year; now: {s.phase()}."
    if v == "pass":
        return "You may pass only when no other order is legal."
    if v in ("gold", "build", "found") and s.actions[p] <= 0:
        return "You have no action card left this year (gold, build and found use one)."
    card = {"card": o.what, "master": "master builder", "bread": "bread and games",
            "golden": "golden age", "harvest": "rich harvest", "citizens": "citizens"}.get(v)
    if card and card not in s.display:
        shown = ", ".join(D.CARD_TITLE[c] for c in s.display) or "none"
        return f"No {D.CARD_TITLE[card]} card is in the display (display: {shown})."
    gold = s.gold[p]
    if v == "build":
        if o.what not in D.SMALL:
            return f"An action card builds only small buildings; a {o.what} needs its political card."
        return _build_problem(s, p, o.site, o.what) or f"{text!r} is not legal now."
    if v == "card":
        cost = D.CARD_COST[o.what]
        if gold < cost:
            return f"{D.CARD_TITLE[o.what]} costs {cost} gold; you have {gold}."
        return _build_problem(s, p, o.site, o.what) or f"{text!r} is not legal now."
    if v == "master":
        cost = D.MASTER_COST[D.BUILDINGS[o.what][0]]
        if gold < cost:
            return f"Großer Baumeister costs {cost} gold for a {o.what}; you have {gold}."
        return _build_problem(s, p, o.site, o.what) or f"{text!r} is not legal now."
    if v == "found":
        if s.founded[p]:
            return "You have already founded a city this year (one new city per year)."
        if s.castles_left(p) <= 0:
            return "You have no castle left (at most four cities)."
        givers = [c for c in s.cities_of(p) if c.spare() >= 1]
        if not givers:
            return "None of your castles has a spare citizen to send to the new city."
        prob = _site_problem(s, p, o.site, castle=True)
        if prob:
            return prob
        if not o.extra and len(givers) > 1:
            return ("Say which castle gives the spare citizen: "
                    + " or ".join(f"found {o.site} from {c.castle}" for c in givers) + ".")
        if o.extra and all(c.castle != o.extra[0] for c in givers):
            return f"{o.extra[0]} is not one of your castles with a spare citizen."
        return f"{text!r} is not legal now."
    if v == "bread":
        cost = D.NOTABLE_COST[o.n]
        site = o.site
        c = s.city_of(site)
        if c is None or c.owner != p:
            return f"{site} is not one of your buildings."
        arches = D.ARCHES[s.kind[site]]
        if not arches:
            return f"A notable goes only on a building with arches; the {s.kind[site]} at {site} has none."
        if s.notables_free(p) < o.n:
            return f"You have {s.notables_free(p)} notables left this year."
        if gold < cost:
            return f"{o.n} notables cost {cost} gold; you have {gold}."
        if len(arches) == 2 and len(o.extra) != o.n:
            return (f"Say the colour of each notable on the hospital, like: "
                    f"bread and games {site} x{o.n} " + " ".join(["education"] * o.n) + ".")
        return f"Those colours do not match the {s.kind[site]}'s arches."
    if v == "golden":
        c = s.cities.get(o.site)
        if c is None or c.owner != p:
            return f"{o.site} is not one of your cities."
        cost = D.NOTABLE_COST[o.n]
        if gold < cost:
            return f"{o.n} citizens cost {cost} gold; you have {gold}."
        cap = s.capacity(c)
        return (f"The city at {c.castle} would exceed its limit of {cap} citizens "
                f"(it has {c.citizens}).")
    if v == "harvest":
        if s.year >= D.YEARS:
            return "Reiche Ernte may not be played in the last year."
        c = s.city_of(o.site)
        if c is None or c.owner != p or s.kind.get(o.site) != "farm":
            return f"{o.site} is not one of your farms."
        if o.site in s.harvest:
            return f"The farm at {o.site} already has a Reiche Ernte this year."
        if s.notables_free(p) < 1:
            return "You have no notable left this year."
        return f"The farm at {o.site} produces no food to double."
    if v == "citizens" and o.n == 3 and gold < 2:
        return f"Looking at all three cards costs 2 gold; you have {gold}."
    return f"{text!r} is not legal now."


def _site_problem(s, p: int, site: str, castle: bool = False) -> str | None:
    if site in s.occ:
        return f"{site} is already built on."
    if not s.usable(site):
        return f"{site} is not used in a {s.n}-player game."
    if castle and s.near.get(site):
        near = min((x for x in s.occ), key=lambda x: _dist(site, x))
        return (f"{site} is too close to the {s.kind[near]} at {near}: a castle needs at least 3 free "
                f"sites between it and every other city.")
    return None


def _dist(a: str, b: str) -> int:
    from pbem.engine.lacitta.geometry import DIST
    return DIST[a][b]


def _build_problem(s, p: int, site: str, kind: str) -> str | None:
    prob = _site_problem(s, p, site)
    if prob:
        return prob
    mine = s.cities_of(p)
    if not mine:
        return "You have no city to build in."
    city = None
    for n in SITES[site].neighbours:
        c = s.city_of(n)
        if c is not None and c.owner == p:
            city = c
            break
    if city is None:
        names = ", ".join(c.castle for c in mine)
        if len(mine) == 1:
            return f"{site} is not next to your city at {names}."
        return f"{site} is not next to any of your cities ({names})."
    for n in SITES[site].neighbours:
        c = s.city_of(n)
        if c is not None and c is not city:
            who = "your" if c.owner == p else f"seat {c.owner + 1}'s"
            return (f"{site} is next to {who} city at {c.castle}: cities may not touch "
                    f"(at least one free site between).")
    if s.supply_left(kind) <= 0:
        return f"No {D.PILE[kind]} tiles are left in the supply."
    if kind == "market":
        if any(s.kind[x] == "market" for x in city.sites):
            return f"The city at {city.castle} already has a market (one per city)."
    elif city.spare() < 1:
        return (f"The castle at {city.castle} has no spare citizen ({city.citizens} citizens, "
                f"{len(city.sites)} buildings); one must stay in the castle.")
    if kind in D.NEEDS_WATER and not s.terrain.water[site]:
        return f"A {kind} must stand next to water; {site} is not."
    return None
