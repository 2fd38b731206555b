"""Build La Città positions from a compact text fixture (see README.md).

    s = position('''
        seats 2
        landscape T4=F3 T11=F1
        phase political year 1 round 1 seat 1
        city 1 I6 4: farm J6
        gold 1 0
        display palazzo, dom
        ''')
    events = play(s, "1: build quarry I7")
"""
from __future__ import annotations

from pbem.engine import get_game
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.board import SITES
from pbem.engine.lacitta.geometry import terrain
from pbem.engine.lacitta.state import LaCittaState

GAME = get_game("lacitta")


def _split_list(rest: str) -> list[str]:
    return [x.strip() for x in rest.split(",") if x.strip()]


def position(text: str, seed: int = 1) -> LaCittaState:
    lines = [ln.split("#", 1)[0].strip() for ln in text.strip().splitlines()]
    lines = [ln for ln in lines if ln]
    seats = 2
    setup = "beginner"
    for ln in lines:
        key, _, rest = ln.partition(" ")
        if key == "seats":
            seats = int(rest)
        if key == "setup":
            setup = rest.strip()
    base = GAME.new_state(seats, seed, setup=setup)
    d = base.to_dict()
    d["cities"] = []
    d["setup_order"] = []
    explicit_food = False
    supply_left: dict[str, int] = {}
    explicit_bank = False
    phase = ("political", 1, 1, 0)
    for ln in lines:
        key, _, rest = ln.partition(" ")
        rest = rest.strip()
        w = rest.split()
        if key in ("seats", "setup"):
            continue
        if key == "landscape":
            for item in w:
                slot, code = item.split("=")
                d["landscape"][slot] = code
        elif key == "phase":
            kind = w[0]
            kv = dict(zip(w[1::2], w[2::2]))
            phase = (kind, int(kv.get("year", 1)), int(kv.get("round", 1)), int(kv.get("seat", 1)) - 1)
        elif key == "start":
            d["start"] = int(rest) - 1
        elif key == "city":                      # city <seat> <castle> <citizens>: kind site, ...
            head, _, tail = rest.partition(":")
            seat, castle, citizens = head.split()
            blds = [[castle, "castle"]]
            for part in _split_list(tail):
                kind, site = part.split()
                blds.append([site.upper(), kind])
            # a later line for the same castle replaces the earlier one
            d["cities"] = [c for c in d["cities"] if c["castle"] != castle.upper()]
            d["cities"].append({"castle": castle.upper(), "owner": int(seat) - 1,
                                "citizens": int(citizens), "buildings": blds})
        elif key in ("gold", "food", "actions"):
            d[key] = [int(x) for x in w]
            explicit_food |= key == "food"
        elif key == "bank":
            d["bank"] = int(rest)
            explicit_bank = True
        elif key == "display":
            d["display"] = _split_list(rest)
        elif key == "deck":
            d["deck"] = _split_list(rest)
        elif key == "discard":
            d["discard"] = _split_list(rest)
        elif key == "voice":
            d["voice"] = w
        elif key == "voice_deck":
            d["voice_deck"] = w
        elif key == "peeked":                   # peeked <seat> <card positions 2..4>
            d["peeked"][int(w[0]) - 1] = [int(x) - 1 for x in w[1:]]
        elif key == "notable":                  # notable <site> <seat> <wish>
            d["notables"].append([w[0].upper(), int(w[1]) - 1, w[2]])
        elif key == "harvest":
            d["harvest"] = [x.upper() for x in w]
        elif key == "famine_next":
            for x in w:
                d["famine_next"][int(x) - 1] = True
        elif key == "famine6":
            for x in w:
                d["famine6"][int(x) - 1] = True
        elif key == "founded":
            for x in w:
                d["founded"][int(x) - 1] = True
        elif key == "played":                   # played <seat>: card, card
            seat, _, cards = rest.partition(":")
            d["played"][int(seat) - 1] = _split_list(cards)
        elif key == "supply":                   # supply <pile> <tiles left>
            supply_left[w[0]] = int(w[1])
        elif key == "setup_order":
            d["setup_order"] = [int(x) - 1 for x in w]
        else:
            raise ValueError(f"unknown fixture line: {ln!r}")
    kind, year, rnd, seat = phase
    d["phase"] = kind
    d["year"] = year
    d["round"] = rnd
    if kind == "setup":
        d["turn"] = d["setup_order"].index(seat) if d["setup_order"] else 0
    else:
        d["turn"] = (seat - d["start"]) % seats
    if len(d["voice"]) != 4 and kind != "setup":
        raise ValueError("fixture needs 4 voice cards")
    for c in d["cities"]:
        for site, _k in c["buildings"]:
            if site not in SITES:
                raise ValueError(f"fixture names {site}, which is not a site on the board")
    ter = terrain(d["landscape"])
    if not explicit_food:
        food = [0] * seats
        for c in d["cities"]:
            for site, k in c["buildings"]:
                if k in ("castle", "farm"):
                    food[c["owner"]] += ter.food[site]
        d["food"] = food
    used = {p: 0 for p in D.SUPPLY}
    for c in d["cities"]:
        for _site, k in c["buildings"]:
            if k != "castle":
                used[D.PILE[k]] += 1
    for pile, left in supply_left.items():
        used[pile] = D.SUPPLY[pile] - left
    d["used"] = used
    if not explicit_bank:
        d["bank"] = D.CITIZEN_BANK - sum(c["citizens"] for c in d["cities"])
    return LaCittaState.from_dict(GAME, d)


def play(state: LaCittaState, *orders: str) -> list:
    """Apply orders written ``"<seat>: <order>"`` (seat numbered from 1);
    returns all events."""
    events = []
    for o in orders:
        seat, _, text = o.partition(":")
        seat = int(seat) - 1
        action = GAME.parse_action(state, seat, text.strip())
        events += state.apply(seat, action)
    return events


def texts(events) -> list[str]:
    return [e.text for e in events]


def legal(state: LaCittaState, seat: int) -> set[str]:
    """Legal order texts of ``seat`` (numbered from 1)."""
    return {a.to_text() for a in state.legal_actions(seat - 1)}


def city(state: LaCittaState, castle: str):
    return state.cities[castle]
