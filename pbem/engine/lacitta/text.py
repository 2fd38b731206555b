"""Plain-text rendering of a La Città view (emails, order page) and the
order help."""
from __future__ import annotations

from typing import Any

from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.board import TILE_NAMES

ORDER_HELP = """\
La Città orders — one per line, upper or lower case.

Setup (experienced game)
  castle F6                      place a castle (at least 3 free sites from every other castle)

Action cards (3 a year)
  gold                           take 2 gold
  build farm F6                  a small building, free: farm, quarry, market, statue, school,
                                 fountain (German: Bauernhof, Steinbruch, Markt, Statue,
                                 Klosterschule, Brunnen)
  found F6                       a new city: castle at F6, one spare citizen from one of your castles
  found F6 from E3               ... naming the castle that gives the citizen, when several could

Political cards (from the display of 7)
  palazzo F6    hospital F6    bathhouse F6    dom F6    university F6
                                 build that building (1, 1, 1, 3, 3 gold; Badhaus, Universität)
  master builder dom F6          Großer Baumeister: any building, small 1 / medium 2 / large 4 gold
  bread and games F6 x2          Brot und Spiele: 1, 2 or 3 notables on the building at F6
                                 (0, 2 or 5 gold); on a hospital say each notable's arch:
  bread and games F6 x2 education health
  golden age E3 x3               Goldene Zeiten: 1, 2 or 3 citizens (0, 2 or 5 gold) into the
                                 city whose castle is at E3 (any site of the city works)
  rich harvest F6                Reiche Ernte: double the farm at F6 this year (not in year 6)
  citizens 2 / citizens 3        Bürgernähe: look at 2 (free) or all 3 (2 gold) hidden Voice cards
  pass                           only when nothing else is legal (then the engine plays it
                                 for you): the top political card face down, no effect

End of the year (asked only when there is a real choice)
  wish E3 culture                two-wish year: the wish your city at E3 uses (culture,
                                 education, health; Kultur, Bildung, Gesundheit)
  demolish F6 G6                 buildings without citizens that go (from the edge)
  starve E3 2, J9 1              famine: how many citizens leave which city

Examples:  build market D6   |   dom F6   |   golden age E3 x2   |   found J9 from E3
Sites are the coordinates printed on the board picture (column letter, row number).
"""


def order_help() -> str:
    return ORDER_HELP


def _seat(p: int) -> str:
    return f"seat {p + 1}"


def view_text(v: dict[str, Any]) -> str:
    lines: list[str] = []
    viewer = v.get("viewer")
    priv = v.get("private")
    cities_by_owner: dict[int, list] = {}
    for c in v["cities"]:
        cities_by_owner.setdefault(c["owner"], []).append(c)
    lines.append(f"La Città — {v['phase']}")
    if priv:
        p = priv["seat"]
        me = v["players"][p]
        lines.append("")
        lines.append(f"You are {_seat(p)}.")
        lines.append(f"  Gold {me['gold']}, food {me['food']}"
                     + (f" (+{me['harvest_food']} Reiche Ernte)" if me["harvest_food"] else "")
                     + f", citizens {me['citizens']}, action cards left {me['action_cards']}, "
                       f"notables free {me['notables_free']}, castles left {me['castles_left']}.")
        if priv["peeked"]:
            lines.append("  Voice of the People cards you looked at: "
                         + ", ".join(f"card {k}: {w}" for k, w in priv["peeked"].items()) + ".")
        if me["famine_next_year"]:
            lines.append(f"  Famine: you lose the first political round of {_when(v)}.")
        for c in cities_by_owner.get(p, []):
            lines.append("  " + _city_line(c, v))
        if str(p) in v.get("pending", {}):
            lines.append(f"  You owe: {v['pending'][str(p)]}.")
        if p in v["current_seats"]:
            lines.append("  It is your turn.")
    lines.append("")
    lines.append(f"Start player: {_seat(v['start_player'])}. "
                 + ("To play: " + ", ".join(_seat(s) for s in v["current_seats"]) + "."
                    if v["current_seats"] else "The game is over."))
    if v["voice"]:
        lines.append("Voice of the People: " + ", ".join(
            (c["wish"] if c["face_up"] else "face down") for c in v["voice"]) + "."
                     + (f" The people wish for {' and '.join(v['wishes'])}." if v["wishes"] else ""))
    lines.append("Political display: " + (", ".join(D.CARD_TITLE[c] for c in v["display"]) or "empty")
                 + f" (deck {v['deck_size']}, discards {v['discard_size']}).")
    lines.append("")
    for pl in v["players"]:
        p = pl["seat"]
        lines.append(f"{_seat(p).capitalize()}: {pl['points']} point{'' if pl['points'] == 1 else 's'}, gold {pl['gold']}, food {pl['food']}, "
                     f"citizens {pl['citizens']}, action cards {pl['action_cards']}, "
                     f"political cards played {pl['political_played']}"
                     + (f", famine: loses round 1 of {_when(v)}" if pl["famine_next_year"] else "")
                     + (", famine in year 6 (−5)" if pl["famine_year6"] else "") + ".")
        if p != viewer:
            for c in cities_by_owner.get(p, []):
                lines.append("  " + _city_line(c, v))
    lines.append("")
    lines.append("Landscape: " + ", ".join(f"{k} {TILE_NAMES[t]}" for k, t in v["landscape"].items()) + ".")
    lines.append("Supply: " + ", ".join(f"{k} {n}" for k, n in v["supply"].items()) + ".")
    return "\n".join(lines) + "\n"


def _when(v: dict) -> str:
    """The famine penalty falls in round 1 of the year after the famine."""
    return "this year" if v.get("phase_key") == "political" else "next year"


def _city_line(c: dict, v: dict) -> str:
    blds = [b for b in v["buildings"] if b["city"] == c["castle"]]
    parts = []
    for b in blds:
        extra = ""
        if b["notables"]:
            extra = "+" + "+".join(n["wish"][0] for n in b["notables"])
        if b["harvest"]:
            extra += "+harvest"
        parts.append(f"{b['kind']} {b['site']}{extra}")
    limit = "no limit" if c["limit"] is None else f"limit {c['limit']}"
    a = c["arches"]
    return (f"City {c['castle']}: {c['citizens']} citizens, {c['buildings']} building{'s' if c['buildings'] != 1 else ''}, {limit}; "
            f"arches culture {a['culture']} / education {a['education']} / health {a['health']}"
            + (" (complete)" if c["complete"] else "") + "; " + ", ".join(parts) + ".")
