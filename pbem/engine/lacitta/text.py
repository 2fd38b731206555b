"""Plain-text rendering of a La Città view (emails, order page) and the
order help.

Every line of :func:`view_text` is a :class:`Msg`; ``tr`` turns each into
text (``str``: English, as the golden playthroughs read it; the service
passes ``lambda m: pbem.i18n.translate(m, lang)``).
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.engine.lacitta.help import ORDER_HELP
from pbem.engine.lacitta.terms import BUILDING, CARD, PILE, WISH
from pbem.engine.messages import Msg, Msgn, said
from pbem.engine.phrases import Seat, and_list, join, seat

TILE = {"F1": Msg("field (1 grain)"), "F2": Msg("field (2 grain)"), "F3": Msg("field (3 grain)"),
        "M": Msg("mountain"), "L": Msg("lake")}
"""Landscape tile code -> its name (:data:`pbem.engine.lacitta.board.TILE_NAMES`)."""

def order_help() -> Msg:
    """The order help (a :class:`Msg`: :data:`pbem.engine.lacitta.help.ORDER_HELP`)."""
    return ORDER_HELP


def view_text(v: dict[str, Any], tr: Callable[[Any], str] = str) -> str:
    """The view as text: the viewer's private information first, then the
    public position; each line through ``tr`` (see the module)."""
    cities_by_owner: dict[int, list] = {}
    for c in v["cities"]:
        cities_by_owner.setdefault(c["owner"], []).append(c)
    lines: list[Any] = [Msg("La Città — {phase}", phase=v["phase"])]
    if v.get("private"):
        lines += _private(v, v["private"], cities_by_owner)
    lines += ["", _turn_line(v)]
    if v["voice"]:
        lines.append(_voice_line(v))
    lines.append(Msg("Political display: {cards} (deck {deck}, discards {discards}).",
                     cards=join([CARD[c] for c in v["display"]]) or Msg("empty"),
                     deck=v["deck_size"], discards=v["discard_size"]))
    lines.append("")
    for pl in v["players"]:
        lines.append(_player_line(v, pl))
        if pl["seat"] != v.get("viewer"):
            lines += [_Indent(_city_line(c, v)) for c in cities_by_owner.get(pl["seat"], [])]
    tiles = join([_tile(k, t) for k, t in v["landscape"].items()])
    piles = join([_pile(k, n) for k, n in v["supply"].items()])
    lines += ["", Msg("Landscape: {tiles}.", tiles=tiles), Msg("Supply: {piles}.", piles=piles)]
    return "\n".join(line.text(tr) if isinstance(line, _Indent) else tr(line) for line in lines) + "\n"


# the parts of a list are written by their own functions: pybabel does not
# find a Msg written inside a call inside another Msg's parameters
def _tile(slot: str, code: str) -> Msg:
    return Msg("{slot} {tile}", slot=slot, tile=TILE[code])


def _pile(pile: str, n: int) -> Msg:
    return Msg("{pile} {n}", pile=PILE[pile], n=n)


def _peek(card: str, wish: str) -> Msg:
    return Msg("card {n}: {wish}", n=card, wish=WISH[wish])


class _Indent:
    """A line printed two spaces in (the private block, other seats' cities)."""

    def __init__(self, msg: Any):
        self.msg = msg

    def text(self, tr: Callable[[Any], str]) -> str:
        return "  " + tr(self.msg)


def _private(v: dict, priv: dict, cities_by_owner: dict) -> list[Any]:
    p = priv["seat"]
    me = v["players"][p]
    harvest = Msg(" (+{n} Reiche Ernte)", n=me["harvest_food"]) if me["harvest_food"] else ""
    out: list[Any] = ["", Msg("You are {seat}.", seat=seat(p)), _Indent(Msg(
        "Gold {gold}, food {food}{harvest}, citizens {citizens}, action cards left {actions}, "
        "notables free {notables}, castles left {castles}.", gold=me["gold"], food=me["food"],
        harvest=harvest, citizens=me["citizens"], actions=me["action_cards"],
        notables=me["notables_free"], castles=me["castles_left"]))]
    if priv["peeked"]:
        cards = join([_peek(k, w) for k, w in priv["peeked"].items()])
        out.append(_Indent(Msg("Voice of the People cards you looked at: {cards}.", cards=cards)))
    if me["famine_next_year"]:
        out.append(_Indent(Msg("Famine: you lose the first political round of {when}.",
                               when=_when(v))))
    out += [_Indent(_city_line(c, v)) for c in cities_by_owner.get(p, [])]
    if str(p) in v.get("pending", {}):
        out.append(_Indent(Msg("You owe: {orders}.", orders=v["pending"][str(p)])))
    if p in v["current_seats"]:
        out.append(_Indent(Msg("It is your turn.")))
    return out


def _turn_line(v: dict) -> Msg:
    if v["current_seats"]:
        return Msg("Start player: {seat}. To play: {seats}.", seat=seat(v["start_player"]),
                   seats=join([seat(s) for s in v["current_seats"]]))
    return Msg("Start player: {seat}. The game is over.", seat=seat(v["start_player"]))


def _voice_line(v: dict) -> Msg:
    cards = join([WISH[c["wish"]] if c["face_up"] else Msg("face down") for c in v["voice"]])
    if v["wishes"]:
        return Msg("Voice of the People: {cards}. The people wish for {wishes}.", cards=cards,
                   wishes=and_list([WISH[w] for w in v["wishes"]]))
    return Msg("Voice of the People: {cards}.", cards=cards)


def _player_line(v: dict, pl: dict) -> Msg:
    famine = Msg(", famine: loses round 1 of {when}", when=_when(v)) if pl["famine_next_year"] else ""
    famine6 = Msg(", famine in year 6 (−5)") if pl["famine_year6"] else ""
    return Msgn("{seat}: {n} point, gold {gold}, food {food}, citizens {citizens}, action cards "
                "{actions}, political cards played {played}{famine}{famine6}.",
                "{seat}: {n} points, gold {gold}, food {food}, citizens {citizens}, action cards "
                "{actions}, political cards played {played}{famine}{famine6}.", pl["points"],
                seat=Seat(pl["seat"]), gold=pl["gold"], food=pl["food"], citizens=pl["citizens"],
                actions=pl["action_cards"], played=pl["political_played"], famine=famine,
                famine6=famine6)


def _when(v: dict) -> Msg:
    """The famine penalty falls in round 1 of the year after the famine."""
    return Msg("this year") if v.get("phase_key") == "political" else Msg("next year")


def _city_line(c: dict, v: dict) -> Msg:
    parts = []
    for b in (b for b in v["buildings"] if b["city"] == c["castle"]):
        notables = _notables([n["wish"] for n in b["notables"]]) if b["notables"] else ""
        if b["harvest"]:
            parts.append(Msg("{building} {site}{notables}+harvest", building=BUILDING[b["kind"]],
                             site=b["site"], notables=notables))
        else:
            parts.append(Msg("{building} {site}{notables}", building=BUILDING[b["kind"]],
                             site=b["site"], notables=notables))
    limit = Msg("no limit") if c["limit"] is None else Msg("limit {n}", n=c["limit"])
    a = c["arches"]
    return Msgn("City {castle}: {citizens} citizens, {n} building, {limit}; arches culture {culture} / "
                "education {education} / health {health}{complete}; {buildings}.",
                "City {castle}: {citizens} citizens, {n} buildings, {limit}; arches culture {culture} "
                "/ education {education} / health {health}{complete}; {buildings}.", c["buildings"],
                castle=c["castle"], citizens=c["citizens"], limit=limit, culture=a["culture"],
                education=a["education"], health=a["health"],
                complete=Msg(" (complete)") if c["complete"] else "", buildings=join(parts))


ARCH_LETTERS = {"en": {"culture": "c", "education": "e", "health": "h"},
                "fi": {"culture": "v", "education": "m", "health": "s"},
                "cs": {"culture": "k", "education": "v", "health": "z"},
                "ca": {"culture": "c", "education": "e", "health": "s"},
                "de": {"culture": "k", "education": "b", "health": "g"}}
"""A notable's arch as one letter, per language (docs/i18n/<lang>.md "Board
letters"; Finnish by the arch colours valkoinen, musta, sininen, as its
culture and education both start with k)."""


def _notables(wishes: list[str]) -> Msg:
    """``+e+h``: the notables on a building by their arches, in each language's letters."""
    return said({lang: "".join("+" + letters[w] for w in wishes) for lang, letters in ARCH_LETTERS.items()})
