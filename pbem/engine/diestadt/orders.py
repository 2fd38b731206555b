"""The Die Stadt command language (design 6.2): one order per line,
case-insensitive, words in any order; the words of every language in
:mod:`pbem.engine.diestadt.words` (English, Finnish, Czech, Catalan, German).

::

    tile F7 90 merchant E   the drawn tile on F7 turned 90, a merchant on its market at E
    tile F7 90              no follower          F7 90 citizen N   ('tile' may be left out)
    tile F7                 when only one rotation fits there
    tile F7 SMSR            the rotation by its edges after turning (N E S W; any language's letters)
    gate H3 N guard         the gate on the north edge of H3, with a guard
    wall cw guard           a piece at the clockwise end with a guard (refused when barred)
    wall ccw                the other end          wall F7 N   the piece named by its edge
    tower cw                a tower at that end (also 'tower F7 NE')    no tower
"""
from __future__ import annotations

import re

from pbem.engine.api import IllegalOrderError, NotYourTurnError, OrderParseError
from pbem.engine.diestadt import followers, placement, words
from pbem.engine.diestadt.actions import BuildGate, BuildWall, PlaceTile, PlaceTower
from pbem.engine.diestadt.explain import why_illegal
from pbem.engine.diestadt.grid import SIDE_NAMES, parse_space
from pbem.engine.diestadt.help import HELP  # noqa: F401  (the game's order help)
from pbem.engine.diestadt.terms import ROLE as ROLE_WORD
from pbem.engine.diestadt.tiles import DISTINCT_TURNS, TURNED
from pbem.engine.diestadt.wall_orders import end_named
from pbem.engine.fold import LANGUAGES
from pbem.engine.messages import Msg, said_by

_KIND, _ROLE, _POINT_WORDS, _END = words.KINDS, words.ROLES, words.POINTS, words.ENDS
_GUARD, _NO = words.GUARD, words.NO
KIND_WORDS = said_by(lambda lang: ", ".join(words.first(words.WORDS[lang].kinds, k)
                                            for k in ("tile", "gate", "wall", "tower")), LANGUAGES)
"""The words an order starts with, in each language's own words."""
ORDER_WORDS = said_by(lambda lang: ", ".join(
    [words.first(words.WORDS[lang].kinds, k) for k in ("tile", "gate", "wall", "tower")]
    + [words.first(words.WORDS[lang].roles, r) for r in ("citizen", "merchant", "overseer")]
    + [words.WORDS[lang].guard[0], words.WORDS[lang].no[0]]), LANGUAGES)
"""Every kind of order word (orders, followers, guard, none), in each language's own words."""
_ROLE_WORDS = words.say_with(lambda w: ", ".join(words.first(w.roles, r) for r in ("citizen", "merchant", "overseer")))


def _role_at(role: str, point: str) -> Msg:
    """``merchant NW`` in each language's words (``kauppias luode``)."""
    return words.say_with(lambda w: f"{words.first(w.roles, role)} {words.first(w.points, point)}")
_SIDES = frozenset(SIDE_NAMES)        # a gate or wall piece is on a side, never at a corner (NE)
_SPACE_SIDE = re.compile(r"^([a-z]{1,2}\d{1,2})([nesw]{1,2})$")


def _examples(legal: list, limit: int = 8) -> list[str]:
    out, seen = [], {}
    for a in legal:
        kind = (a.label, getattr(a, "rotation", None), getattr(a, "role", None), getattr(a, "guard", None))
        if seen.get(kind, 0) < 2:
            seen[kind] = seen.get(kind, 0) + 1
            out.append(a.to_text())
    return out[:limit]


def parse_order(state, seat: int, text: str, held: bool = False):
    """Read one order line for ``seat``. Raises :class:`OrderParseError`
    when the line is not an order, :class:`NotYourTurnError` when the seat
    owes nothing now, :class:`IllegalOrderError` with the reason otherwise
    (``wall cw guard`` where the guard is barred included). ``held``: the
    line was held for this decision (:mod:`~pbem.engine.diestadt.hold`), so
    a barred guard is left out and the piece built (docs/rules/diestadt.md
    "Guards")."""
    raw = text.strip()
    legal = state.legal_actions(seat)
    examples = _examples(legal)

    def bad(msg: Msg) -> OrderParseError:
        return OrderParseError(msg, text=raw, legal=examples)

    said = words.split(raw)
    if not said:
        raise bad(Msg("the order is empty"))
    got = _read_words(said, raw, bad)
    kind = got.pop("kind") or _implied_kind(state, got, raw, bad)
    if seat not in state.current_seats():
        who = state.current_seats()
        raise NotYourTurnError(Msg("the game is over") if not who else
                               Msg("it is seat {seat}'s decision, not yours", seat=who[0] + 1),
                               text=raw, legal=[])
    action = _build(state, seat, kind, raw, examples=examples, **got)
    if isinstance(action, BuildWall) and state.decision == "wall":
        action = _wall_at(action, legal, held)
    if action in legal:
        return action
    raise IllegalOrderError(Msg("'{order}' is not legal: {why}", order=words.say(action),
                                why=why_illegal(state, seat, action)),
                            text=raw, legal=_examples([a for a in legal if type(a) is type(action)] or legal))


def _read_words(said: list[str], raw: str, bad) -> dict:
    """What each word of the order line names: ``kind``, ``role``, ``end``,
    ``space``, ``edges``, ``point``, ``rotation``, ``guard`` and ``no``
    (None or False when not said). ``bad(msg)`` makes the
    :class:`OrderParseError` raised for a word that names nothing."""
    got: dict = dict(kind=None, role=None, end=None, space=None, edges=None, point=None,
                     rotation=None, guard=False, no=False)
    for w in said:
        m = _SPACE_SIDE.match(w)
        if w in _KIND and got["kind"] is None:
            got["kind"] = _KIND[w]
        elif w in _ROLE and got["role"] is None:
            got["role"] = _ROLE[w]
        elif w in _GUARD:
            got["guard"] = True
        elif w in _NO:
            got["no"] = True
        elif w in _END and got["end"] is None:
            got["end"] = _END[w]
        elif w in _POINT_WORDS and got["point"] is None:
            got["point"] = _POINT_WORDS[w]
        elif w in ("0", "90", "180", "270") and got["rotation"] is None:
            got["rotation"] = int(w)
        elif words.read_edges(w) and got["edges"] is None:
            got["edges"] = words.read_edges(w)
        elif parse_space(w) is not None and got["space"] is None:
            got["space"] = w.upper()
        elif m and parse_space(m.group(1)) is not None and got["space"] is None and got["point"] is None:
            got["space"], got["point"] = m.group(1).upper(), m.group(2).upper()
        elif re.fullmatch(r"[a-z]+\d+", w):
            raise bad(Msg("could not read '{word}' in '{order}' (spaces are A1-AN40, e.g. T20)",
                          word=w, order=raw))
        else:
            raise bad(Msg("could not read '{word}' in '{order}' (the order words are {words})",
                          word=w, order=raw, words=ORDER_WORDS))
    return got


def _implied_kind(state, got: dict, raw: str, bad) -> str:
    """The order kind a line without an order word means: a tile for a
    follower, rotation or edges, a wall piece for an end, no tower for
    "no", and for a bare space what the decision owed asks for."""
    if got["role"] is not None or got["rotation"] is not None or got["edges"] is not None:
        return "tile"
    if got["end"] is not None:
        return "wall"
    if got["no"]:
        return "tower"
    if got["space"] is not None:
        return {"gate": "gate", "wall": "wall"}.get(state.decision, "tile")
    raise bad(Msg("'{order}' is not a Die Stadt order: start with {words}", order=raw,
                  words=KIND_WORDS))


def _wall_at(action: BuildWall, legal: list, held: bool) -> BuildWall:
    """The legal wall order at ``action``'s end (its edge filled in); for a
    held line whose guard is barred now, the piece without it, marked
    ``asked_guard``. Unchanged when no legal order matches (refused then)."""
    for a in legal:
        if a.end == action.end and a.guard == action.guard:
            return a
    if held and action.guard:
        for a in legal:
            if a.end == action.end and not a.guard:
                return BuildWall(a.end, False, a.site, asked_guard=True)
    return action


def _build(state, seat, kind, raw, *, space, rotation, edges, role, point, guard, no, end, examples):
    """The order of ``kind`` the words name (its edge or corner looked up
    among the legal orders); ``OrderParseError`` when a word it needs is missing."""
    def bad(msg: Msg) -> OrderParseError:
        return OrderParseError(msg, text=raw, legal=examples)

    if kind == "tile":
        if space is None:
            raise bad(Msg("'{order}' names no space: write e.g. '{example}'", order=raw,
                          example=words.say(PlaceTile("F7", 90))))
        return _tile(state, seat, raw, space, rotation, edges, role, point, no, bad)
    if kind == "gate":
        if space is None or point not in _SIDES:
            raise bad(Msg("name the gate's edge by space and side, e.g. '{example}'",
                          example=words.say(BuildGate("H3N"))))
        return BuildGate(f"{space}{point}", guard)
    if kind == "wall":
        if end is None and space is not None and point in _SIDES:
            site = f"{space}{point}"
            for a in state.legal_actions(seat):
                if isinstance(a, BuildWall) and a.site == site:
                    end = a.end
            if end is None:
                raise IllegalOrderError(Msg("{site} is at neither end of the wall now", site=site),
                                        text=raw, legal=examples)
        if end is None:
            raise bad(Msg("say which end of the wall: '{cw}' or '{ccw}'", cw=words.say(BuildWall("cw")),
                          ccw=words.say(BuildWall("ccw"))))
        if state.decision == "wall":
            ends = {a.end: a.site for a in state.legal_actions(seat)}
            end = end_named(ends, end)
            return BuildWall(end, guard, ends.get(end))
        return BuildWall(end, guard)
    if no:
        return PlaceTower(None)
    if end is None and space is not None and point is not None:
        corner = f"{space}{point}"
        for a in state.legal_actions(seat):
            if isinstance(a, PlaceTower) and a.site == corner:
                return a
        raise IllegalOrderError(Msg("{site} is at neither end of the wall now", site=corner),
                                text=raw, legal=examples)
    if end is None:
        raise bad(Msg("say which end: '{cw}', '{ccw}', or '{none}'", cw=words.say(PlaceTower("cw")),
                      ccw=words.say(PlaceTower("ccw")), none=words.say(PlaceTower(None))))
    for a in state.legal_actions(seat):
        if isinstance(a, PlaceTower) and a.end == end:
            return a
    return PlaceTower(end)


def _tile(state, seat, raw, space, rotation, edges, role, point, no, bad) -> PlaceTile:
    tile = state.drawn
    if tile is None:
        return PlaceTile(space, rotation or 0, role, point)
    sp = parse_space(space)
    fits = sorted({q for s, q in placement.placements(state, tile) if s == sp})
    if rotation is None and edges is not None:
        cands = [q for q in DISTINCT_TURNS[tile] if TURNED[tile][q].edges == edges]
        if not cands:
            raise bad(Msg("the drawn tile cannot be turned to show {edges}; it shows {shown}",
                          edges=words.say_edges(edges), shown=words.say_edges(", ".join(
                              f"{TURNED[tile][q].edges} ({90 * q})" for q in DISTINCT_TURNS[tile]))))
        if len(cands) > 1:
            raise bad(Msg("{edges} fits the drawn tile in {n} ways: write the rotation, {rotations}",
                          edges=words.say_edges(edges), n=len(cands), rotations=words.say_or([str(90 * q) for q in cands])))
        rotation = 90 * cands[0]
    if rotation is None:
        if len(fits) != 1:
            raise bad(Msg("say how the tile is turned on {space}: {rotations}", space=space,
                          rotations=", ".join(str(90 * q) for q in fits) if fits
                          else Msg("it fits there in no rotation")))
        rotation = 90 * fits[0]
    q = _same_turn(tile, rotation // 90)
    rotation = 90 * q
    if role is None or no:
        if point is not None and role is None:
            raise bad(Msg("say which follower stands at {point}: {roles}", point=point, roles=_ROLE_WORDS))
        return PlaceTile(space, rotation)
    turned = TURNED[tile][q]
    if sp is None or (sp, q) not in set(placement.placements(state, tile)):
        return PlaceTile(space, rotation, role, point or "N")
    opts = [o for o in followers.follower_options(state, sp, turned) if o[0] == role]
    if point is None:
        if len(opts) == 1 and state.supply[seat] > 0:
            return PlaceTile(space, rotation, role, opts[0][1])
        raise bad(Msg("say where the {role} stands: {where}", role=ROLE_WORD[role],
                      where=words.say_or([_role_at(role, o[1]) for o in opts]) if opts
                      else Msg("no {role} can stand on the tile there", role=ROLE_WORD[role])))
    rtype = followers.ROLE_TYPE[role]
    region = turned.region_at(point, rtype)
    if region is not None:
        for groups in followers.groups(state, sp, turned):
            if region in groups[0]:
                for o in opts:
                    if o[2] in groups[0]:
                        return PlaceTile(space, rotation, role, o[1])
    return PlaceTile(space, rotation, role, point)


def _same_turn(tile: int, q: int) -> int:
    """The listed rotation that looks the same as ``q`` (P01 and P06 look the same all round)."""
    t = TURNED[tile][q]
    for k in DISTINCT_TURNS[tile]:
        if TURNED[tile][k].slots == t.slots and TURNED[tile][k].building_region == t.building_region:
            return k
    return q
