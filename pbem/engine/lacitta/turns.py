"""Orders through the engine API: which are legal for a seat now, checking
one (a multi-part year-end order as a whole), applying it, and the order
taken for a missed deadline (docs/rules/lacitta.md "Missed deadlines").
Each phase's orders come from its rule module; :mod:`flow` applies them."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event, IllegalOrderError, NotYourTurnError
from pbem.engine.lacitta import castles, demolition, feeding, flow, migration, political
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.explain import not_legal
from pbem.engine.lacitta.geometry import ORDER
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def legal(s: "LaCittaState", seat: int) -> list[Order]:
    """Every legal order of ``seat`` now (empty when it owes none)."""
    if seat not in s.current_seats():
        return []
    ph = s.phase_name
    if ph == "setup":
        return castles.setup_orders(s)
    if ph == "political":
        return political.orders(s, seat) or [political.PASS]
    if ph == "migration":
        return migration.wish_orders(s)
    if ph == "yearend":
        if s.yearend[seat]["stage"] == "starve":
            return feeding.orders(s, seat)
        return demolition.orders(s, seat)
    return []


def is_legal(s: "LaCittaState", seat: int, action: Order) -> bool:
    """Whether ``action`` is among :func:`legal`'s orders (in a political
    round listing only its verb)."""
    cache = s._legal_cache
    if cache is not None and cache[0] == s._step and cache[1] == seat:
        acts = cache[2]
        for x in acts:
            if x is action:
                return True
        return action in acts
    if s.phase_name == "political" and seat in s.current_seats():
        return political.is_legal(s, seat, action)
    return action in legal(s, seat)


def apply_order(s: "LaCittaState", seat: int, action: Order) -> list[Event]:
    """Check and apply ``action``; raises :class:`NotYourTurnError` or
    :class:`IllegalOrderError` (with up to 12 legal orders) and changes
    nothing then."""
    if seat not in s.current_seats():
        raise NotYourTurnError(Msg("{seat} owes no order now ({phase}).", seat=Seat(seat),
                                   phase=s.phase()), text=action.to_text())
    if not isinstance(action, Order):
        raise IllegalOrderError(Msg("Not a La Città order."), text=str(action))
    multi = action.verb in ("demolish", "starve") and len(action.extra) > 1
    if multi:
        check_multi(s, seat, action)
    elif not (s.phase_name == "political" and action.verb == "pass") and not is_legal(s, seat, action):
        raise IllegalOrderError(not_legal(action), text=action.to_text(),
                                legal=[a.to_text() for a in s.legal_actions(seat)[:12]])
    s._step += 1
    s._legal_cache = None
    if multi:
        return flow.play_parts(s, seat, action)
    return flow.play(s, seat, action)


def check_multi(s: "LaCittaState", seat: int, action: Order) -> None:
    """Validate a multi-part ``demolish``/``starve`` order as a whole
    (raises :class:`IllegalOrderError` saying what is wrong)."""
    text = action.to_text()
    if s.phase_name != "yearend" or s.yearend.get(seat) is None:
        raise IllegalOrderError(Msg("'{verb}' orders come at the end of the year; now: {phase}.",
                                    verb=action.verb, phase=s.phase()), text=text)
    if action.verb == "demolish":
        demolition.check(s, seat, action, text)
    else:
        feeding.check(s, seat, action, text)


def _play_unchecked(s: "LaCittaState", seat: int, action: Order) -> list[Event]:
    return flow.play(s, seat, action)


def default_action(s: "LaCittaState", seat: int) -> Order:
    """Missed deadline: political round: pass; setup: the legal castle site
    with the most food (first in reading order); two-wish year: for each
    city the wish that takes the most citizens; demolition: cheapest
    buildings first; famine: citizens leave the cities with the most spare
    citizens first."""
    if seat not in s.current_seats():
        raise NotYourTurnError(Msg("{seat} owes no order now.", seat=Seat(seat)))
    ph = s.phase_name
    if ph == "political":
        return political.PASS
    if ph == "setup":
        food = s.terrain.food
        return max(s.legal_actions(seat), key=lambda a: (food[a.site], -ORDER[a.site]))
    if ph == "migration":
        return migration.default(s)
    if s.yearend[seat]["stage"] == "starve":
        return feeding.default(s, seat)
    return demolition.default(s, seat, _play_unchecked)
