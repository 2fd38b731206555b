"""The political rounds: one seat at a time plays an action card, takes a
political card from the display, or passes (la-citta.fi.txt "5.
Poliittiset kierrokset 1-5", "A. Toimintakorttien pelaaminen", "B.
Poliittikkakorttien pelaaminen", "Pelaajan poliittisen kierroksen loppu";
RULINGS.md "A choice with only one legal outcome is never asked").

:func:`orders` lists a seat's orders from the rule modules
(:mod:`building`, :mod:`castles`, :mod:`cards`); :func:`apply` plays one;
:func:`why_not` says why one is refused, asking the same modules.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.lacitta import building, cards, castles, feeding
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.terms import CARD
from pbem.engine.lacitta.words import say
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat, join

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState

GOLD = Order("gold")
PASS = Order("pass")
#: action card verbs (each uses one of the year's action cards)
ACTION_VERBS = ("gold", "build", "found")
#: order verb -> the political card it takes (``card`` names its building card)
CARD_OF = {"master": "master builder", "bread": "bread and games", "golden": "golden age",
           "harvest": "rich harvest", "citizens": "citizens"}


def has_action_card(s: "LaCittaState", p: int) -> bool:
    """``p`` has an action card left this year (gold, build and found use one)."""
    return s.actions[p] > 0


def orders(s: "LaCittaState", p: int, only: str | None = None, what: str = "") -> list[Order]:
    """Legal political-round orders of ``p`` (empty: ``p`` must pass);
    ``only``/``what`` limit the listing to one verb (and building or card)
    for a quick check.

    Hot path of random play: each city's frontier, its water sites and its
    small-building orders are cached (:func:`building.front_entry`); card
    and master builder orders are made once per site."""
    acts: list[Order] = []
    mine = s.cities_of(p)
    room = building.gather(s, mine)
    if has_action_card(s, p) and only in (None, "gold", "build", "found"):
        if only in (None, "gold"):
            acts.append(GOLD)
        building.list_action_builds(s, room, only, what, acts)
        if only in (None, "found"):
            castles.list_found(s, p, mine, acts)
    want = CARD_OF.get(only or "", what if only == "card" else None)
    if only is not None and want is None:
        return acts
    _card_orders(s, p, mine, room, only, what, want, acts)
    return acts


def _card_orders(s: "LaCittaState", p: int, mine: list, room: tuple, only: str | None, what: str,
                 want: str | None, acts: list) -> None:
    """Append the orders of each political card in the display (``want``:
    that card only)."""
    gold = s.gold[p]
    seen = set()
    for card in s.display:
        if card in seen or (want is not None and card != want):
            continue
        seen.add(card)
        if card in D.CARD_COST:
            building.list_card(s, room, card, gold, acts)
        elif card == "master builder":
            building.list_master(s, room, gold, only, what, acts)
        else:
            cards.LISTING[card](s, p, mine, gold, acts)


def is_legal(s: "LaCittaState", p: int, action: Order) -> bool:
    """Whether ``action`` is legal for the current seat ``p`` (lists only its verb)."""
    acts = orders(s, p, only=action.verb, what=action.what)
    return action in acts or (action.verb == "pass" and not orders(s, p))


def apply(s: "LaCittaState", p: int, a: Order, forced: bool = False) -> list[Event]:
    """Play ``a`` for ``p`` (``forced``: ``p`` was not asked, it was the only order)."""
    v = a.verb
    if v == "pass":
        return _pass(s, p, forced)
    if forced:
        ev = apply(s, p, a)
        return [Event(Msg("{seat} has only one legal order: {order}.", seat=Seat(p), order=say(a)),
                      kind="forced", data={"seat": p, "order": a.to_text()}), *ev]
    if v in ACTION_VERBS:
        s.actions[p] -= 1
        if v == "gold":
            s.gold[p] += 2
            return [Event(Msg("{seat} plays an action card and takes 2 gold (now {gold}).",
                              seat=Seat(p), gold=s.gold[p]), kind="gold", data={"seat": p})]
        if v == "build":
            return building.build(s, p, a.site, a.what, 0, Msg("action card"))
        return castles.found(s, p, a)
    card = a.what if v == "card" else CARD_OF[v]
    cards.take(s, card)
    s.played[p].append(card)
    if v in ("card", "master"):
        return building.build_by_card(s, p, a)
    return cards.RULES[v][2](s, p, a, CARD[card])


def _pass(s: "LaCittaState", p: int, forced: bool) -> list[Event]:
    """The top political card goes face down unplayed."""
    card = cards.draw(s)
    if card is not None:
        s.played[p].append(card)
    if forced:
        text = Msg("{seat} has no other order and passes: the top political card goes face "
                   "down unplayed.", seat=Seat(p))
    else:
        text = Msg("{seat} passes: the top political card goes face down unplayed.", seat=Seat(p))
    return [Event(text, kind="pass", data={"seat": p, "forced": forced})]


def only_order(s: "LaCittaState", p: int) -> Order | None:
    """``p``'s order when it has exactly one legal order (then it is not
    asked); else None, and the listing is kept as this step's legal orders."""
    acts = orders(s, p)
    if not acts:
        return PASS
    if len(acts) == 1:
        return acts[0]
    s._legal_cache = (s._step, p, acts, None)
    return None


def settle_turn(s: "LaCittaState", p: int, ev: list[Event]) -> bool:
    """Take ``p``'s turn without asking when a famine skips it or it has one
    order (events appended to ``ev``); True when it was taken."""
    if s.round == 1 and s.famine_next[p]:
        ev += feeding.famine_skip(s, p)
        return True
    only = only_order(s, p)
    if only is not None:
        ev += apply(s, p, only, forced=True)
        return True
    return False


def next_turn(s: "LaCittaState", ev: list[Event]) -> bool:
    """Move to the next seat that must decide, taking the turns it need
    not be asked (events appended to ``ev``); True once round 5 is over."""
    while True:
        s.turn += 1
        if s.turn >= s.n:
            s.turn = 0
            s.round += 1
            if s.round > D.ROUNDS:
                return True
        if not settle_turn(s, (s.start + s.turn) % s.n, ev):
            return False


def why_not(s: "LaCittaState", p: int, o: Order) -> Msg | None:
    """Why ``o`` is refused in a political round, or None when no rule
    module has a sentence for it."""
    v = o.verb
    if v in ("wish", "demolish", "starve"):
        return Msg("'{verb}' orders come at the end of the year; now: {phase}.", verb=o.verb,
                   phase=s.phase())
    if v == "pass":
        return Msg("You may pass only when no other order is legal.")
    if v in ACTION_VERBS and not has_action_card(s, p):
        return Msg("You have no action card left this year (gold, build and found use one).")
    card = o.what if v == "card" else CARD_OF.get(v)
    if card and card not in s.display:
        shown = join([CARD[c] for c in s.display]) or Msg("none")
        return Msg("No {card} card is in the display (display: {shown}).", card=CARD[card],
                   shown=shown)
    if v in ("build", "card", "master"):
        return building.why_not(s, p, o)
    if v == "found":
        return castles.why_not_found(s, p, o)
    if v in cards.RULES:
        return cards.RULES[v][3](s, p, o)
    return None
