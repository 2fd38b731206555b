"""La Città position text: read and write a position as one fact per line.

Used by the scenario tests (format and examples in
``tests/engine/lacitta/README.md``) and by anyone setting up a position by
hand. ``load_position(text, game)`` starts from a new beginner game
(``seats``, ``setup`` and ``seed`` lines choose which), removes all cities,
then applies the lines; ``dump_position(state)`` writes every fact, so that
``load_position(dump_position(s), game)`` has the same views and legal
orders as ``s`` (and the same random generator: it plays on identically)::

    seats 2                              # 2..5 (default 2)
    setup experienced                    # default beginner
    seed 7                               # default: load_position's seed argument
    step 40                              # orders applied so far (default 0)
    landscape T4=F3 T11=F1 T10=M T3=L    # slots to override
    phase political year 1 round 5 seat 2  # political | setup | migration | yearend | over
    phase setup placement 3              # setup: the 3rd castle of setup_order is next
    start 1                              # start player (seats numbered from 1)
    city 1 I6 4: farm J6, market H6      # seat, castle, citizens: buildings (kind site)
    gold 1 3                             # per seat; also food, actions
    display palazzo, dom, golden age     # face-up political cards
    deck hospital, dom                   # political deck, top first ("deck" alone: empty)
    discard golden age
    played 1: dom, palazzo               # cards seat 1 played this year
    voice health culture education culture   # the 4 Voice cards, first face up
    voice_deck culture health ...        # the rest of the Voice deck, top first
    revealed                             # the Voice cards are face up (migration on)
    wishes health culture                # the wishes the revealed Voice names
    peeked 1 2 3                         # seat 1 looked at cards 2 and 3
    notable K6 1 culture                 # site, seat, wish
    harvest J6                           # farms with Reiche Ernte
    famine_next 2 / famine6 1 / famine_now 1 / founded 1   # seat flags
    wish_choice J6=culture M7=?          # migration: a two-wish choice per city
    yearend 2 starve 3                   # a seat's year-end stage and starving excess
    setup_order 1 2 2 1                  # experienced setup: castle placement order
    supply farm/quarry 0                 # tiles left in a pile
    bank 100                             # citizens in the bank (default: 130 minus the board)
    rng 9e3779b97f4a7c15                 # the random generator as stored: 16 hex digits
                                         # (seeds below 2**64) or h2:<key>:<counter> (default: from the seed)
    last F7 C3                           # the sites the latest order changed (marked on the board)

In ``phase``, ``seat`` is the seat on turn (political, setup, migration).
Food is computed from castles and farms unless a ``food`` line is given. A
later ``city`` line for the same castle replaces the earlier one. ``#``
starts a comment. A line that cannot be read raises ``ValueError`` naming it.
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.board import SITES
from pbem.engine.lacitta.geometry import terrain
from pbem.engine.lacitta.rng import from_text
from pbem.engine.lacitta.state import LaCittaState

PHASES = ("political", "setup", "migration", "yearend", "over")
_SEAT_FLAGS = ("famine_next", "famine6", "famine_now", "founded")
_CARD_LISTS = ("display", "deck", "discard")


def _split_list(rest: str) -> list[str]:
    return [x.strip() for x in rest.split(",") if x.strip()]


def _seat(word: str, n: int) -> int:
    seat = int(word) - 1
    if not 0 <= seat < n:
        raise ValueError(f"seat {word} is not one of 1..{n}")
    return seat


class _Reader:
    """The state dict being built, and what the lines said beyond it."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d
        self.n = d["seats"]
        self.phase = ("political", 1, 1, 0, None)
        self.food = False
        self.bank = False
        self.supply_left: dict[str, int] = {}

    # one method per line kind: (self, rest of the line, its words)
    def landscape(self, rest: str, w: list[str]) -> None:
        for item in w:
            slot, code = item.split("=")
            self.d["landscape"][slot] = code

    def phase_(self, rest: str, w: list[str]) -> None:
        if w[0] not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}")
        kv = dict(zip(w[1::2], w[2::2]))
        self.phase = (w[0], int(kv.get("year", 1)), int(kv.get("round", 1)),
                      _seat(kv.get("seat", "1"), self.n),
                      int(kv["placement"]) - 1 if "placement" in kv else None)

    def start(self, rest: str, w: list[str]) -> None:
        self.d["start"] = _seat(rest, self.n)

    def city(self, rest: str, w: list[str]) -> None:
        head, _, tail = rest.partition(":")
        seat, castle, citizens = head.split()
        castle = castle.upper()
        buildings = [[castle, "castle"]]
        for part in _split_list(tail):
            kind, site = part.split()
            buildings.append([site.upper(), kind])
        self.d["cities"] = [c for c in self.d["cities"] if c["castle"] != castle]
        self.d["cities"].append({"castle": castle, "owner": _seat(seat, self.n),
                                 "citizens": int(citizens), "buildings": buildings})

    def per_seat(self, key: str, w: list[str]) -> None:
        if len(w) != self.n:
            raise ValueError(f"{key} needs one number per seat ({self.n})")
        self.d[key] = [int(x) for x in w]
        self.food |= key == "food"

    def played(self, rest: str, w: list[str]) -> None:
        seat, _, cards = rest.partition(":")
        self.d["played"][_seat(seat, self.n)] = _split_list(cards)

    def peeked(self, rest: str, w: list[str]) -> None:
        self.d["peeked"][_seat(w[0], self.n)] = [int(x) - 1 for x in w[1:]]

    def notable(self, rest: str, w: list[str]) -> None:
        self.d["notables"].append([w[0].upper(), _seat(w[1], self.n), w[2]])

    def wish_choice(self, rest: str, w: list[str]) -> None:
        pairs = (item.split("=") for item in w)
        self.d["wish_choice"] = {site.upper(): None if wish == "?" else wish for site, wish in pairs}

    def yearend(self, rest: str, w: list[str]) -> None:
        self.d["yearend"][str(_seat(w[0], self.n))] = {"stage": w[1], "excess": int(w[2]) if w[2:] else 0}

    def supply(self, rest: str, w: list[str]) -> None:
        self.supply_left[w[0]] = int(w[1])

    def bank_(self, rest: str, w: list[str]) -> None:
        self.d["bank"] = int(rest)
        self.bank = True

    def line(self, key: str, rest: str) -> None:
        key = {"last": "last_sites"}.get(key, key)
        w = rest.split()
        simple: dict[str, Callable[[], Any]] = {
            "step": lambda: int(rest), "revealed": lambda: True, "wishes": lambda: w,
            "voice": lambda: w, "voice_deck": lambda: w, "rng": lambda: _rng_text(rest),
            "last_sites": lambda: [x.upper() for x in w],
            "harvest": lambda: [x.upper() for x in w],
            "setup_order": lambda: [_seat(x, self.n) for x in w],
            **{k: (lambda: _split_list(rest)) for k in _CARD_LISTS},
        }
        if key in simple:
            self.d[key] = simple[key]()
        elif key in _SEAT_FLAGS:
            for x in w:
                self.d[key][_seat(x, self.n)] = True
        elif key in ("gold", "food", "actions"):
            self.per_seat(key, w)
        elif key in ("phase", "bank"):
            getattr(self, key + "_")(rest, w)
        elif key in ("landscape", "start", "city", "played", "peeked", "notable",
                     "wish_choice", "yearend", "supply"):
            getattr(self, key)(rest, w)
        else:
            raise ValueError(f"unknown line {key!r}")

    def finish(self) -> dict[str, Any]:
        d, n = self.d, self.n
        kind, d["year"], d["round"], seat, placement = self.phase
        d["phase"] = kind
        if kind == "setup":
            if placement is None:
                placement = d["setup_order"].index(seat) if seat in d["setup_order"] else 0
            d["turn"] = placement
        else:
            d["turn"] = (seat - d["start"]) % n
        if kind == "migration":
            d["mig_index"] = (seat - d["start"]) % n
        if kind in ("political", "migration", "yearend") and len(d["voice"]) != D.VOICE_CARDS:
            raise ValueError(f"a position in year needs {D.VOICE_CARDS} voice cards")
        for c in d["cities"]:
            for site, _kind in c["buildings"]:
                if site not in SITES:
                    raise ValueError(f"{site} is not a site on the board")
        if not self.food:
            d["food"] = _food(d)
        d["used"] = _used(d, self.supply_left)
        if not self.bank:
            d["bank"] = D.CITIZEN_BANK - sum(c["citizens"] for c in d["cities"])
        return d


def _food(d: dict[str, Any]) -> list[int]:
    ter = terrain(d["landscape"])
    food = [0] * d["seats"]
    for c in d["cities"]:
        for site, kind in c["buildings"]:
            if kind in ("castle", "farm"):
                food[c["owner"]] += ter.food[site]
    return food


def _used(d: dict[str, Any], supply_left: dict[str, int]) -> dict[str, int]:
    used = {p: 0 for p in D.SUPPLY}
    for c in d["cities"]:
        for _site, kind in c["buildings"]:
            if kind != "castle":
                used[D.PILE[kind]] += 1
    for pile, left in supply_left.items():
        if pile not in D.SUPPLY:
            raise ValueError(f"no pile {pile!r}; piles: {', '.join(D.SUPPLY)}")
        used[pile] = D.SUPPLY[pile] - left
    return used


def _lines(text: str) -> list[str]:
    lines = [ln.split("#", 1)[0].strip() for ln in text.strip().splitlines()]
    return [ln for ln in lines if ln]


def load_position(text: str, game, seed: int = 1) -> LaCittaState:
    """The position ``text`` describes (format: this module's docstring), in
    ``game`` (the registered La Città, which also offers this as
    ``game.load_position(text)``); ``seed`` is used unless a ``seed`` line is
    given. Raises ``ValueError`` naming the first line it cannot read."""
    lines = _lines(text)
    head = {"seats": "2", "setup": "beginner", "seed": str(seed)}
    for ln in lines:
        key, _, rest = ln.partition(" ")
        if key in head:
            head[key] = rest.strip()
    base = game.new_state(int(head["seats"]), int(head["seed"]), setup=head["setup"])
    d = base.to_dict()
    d["cities"], d["setup_order"], d["last_sites"] = [], [], []
    reader = _Reader(d)
    for ln in lines:
        key, _, rest = ln.partition(" ")
        if key in head:
            continue
        try:
            reader.line(key, rest.strip())
        except (ValueError, IndexError, KeyError) as err:
            raise ValueError(f"cannot read position line {ln!r}: {err}") from None
    return LaCittaState.from_dict(game, reader.finish())


def _rng_text(rest: str) -> str:
    """A generator line read as the state stores it (rng.from_text checks it)."""
    text = rest.strip().lower()
    if not text.startswith("h2:"):
        text = f"{int(text, 16):016x}"
    return from_text(text).to_text()


def _seats(flags: list[bool]) -> str:
    return " ".join(str(i + 1) for i, on in enumerate(flags) if on)


def _phase_line(s: LaCittaState) -> str:
    kind = s.phase_name
    if kind == "setup":
        return f"phase setup year {s.year} round {s.round} placement {s.turn + 1}"
    if kind == "migration":
        seat = s.order()[s.mig_index] if s.mig_index < s.n else s.start
    else:
        seat = (s.start + s.turn) % s.n
    return f"phase {kind} year {s.year} round {s.round} seat {seat + 1}"


def dump_position(s: LaCittaState) -> str:
    """Every fact of ``s`` as position text (read back by
    :func:`load_position`)."""
    out = [f"seats {s.n}", f"setup {s.setup}", f"seed {s.seed}", f"step {s.step}",
           "landscape " + " ".join(f"{k}={v}" for k, v in s.landscape.items()),
           _phase_line(s), f"start {s.start + 1}"]
    for c in s.cities.values():
        rest = ", ".join(f"{s.kind[x]} {x}" for x in c.sites if x != c.castle)
        out.append(f"city {c.owner + 1} {c.castle} {c.citizens}: {rest}".rstrip())
    out += [f"{k} " + " ".join(map(str, getattr(s, k))) for k in ("gold", "food", "actions")]
    out += [f"{k} " + ", ".join(getattr(s, k)) for k in _CARD_LISTS]
    out += [f"played {p + 1}: " + ", ".join(cards) for p, cards in enumerate(s.played) if cards]
    out += [f"voice {' '.join(s.voice)}", f"voice_deck {' '.join(s.voice_deck)}"]
    out += ["revealed"] * bool(s.revealed) + [f"wishes {' '.join(s.wishes)}"] * bool(s.wishes)
    out += [f"peeked {p + 1} " + " ".join(str(i + 1) for i in ix) for p, ix in enumerate(s.peeked) if ix]
    out += [f"notable {site} {who + 1} {wish}" for site, who, wish in s.notables]
    out += [f"harvest {' '.join(s.harvest)}"] * bool(s.harvest)
    out += [f"{k} {_seats(getattr(s, k))}" for k in _SEAT_FLAGS if any(getattr(s, k))]
    if s.wish_choice:
        out.append("wish_choice " + " ".join(f"{c}={w or '?'}" for c, w in s.wish_choice.items()))
    out += [f"yearend {p + 1} {ye['stage']} {ye['excess']}" for p, ye in s.yearend.items()]
    if s.setup_order:
        out.append("setup_order " + " ".join(str(p + 1) for p in s.setup_order))
    out += [f"supply {p} {D.SUPPLY[p] - s.used[p]}" for p in D.SUPPLY]
    out += [f"last {' '.join(s.last_sites)}"] * bool(s.last_sites)
    out += [f"bank {s.bank}", f"rng {s.rng.to_text()}"]
    return "\n".join(out) + "\n"
