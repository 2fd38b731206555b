"""Why a La Città order is refused, in a player's words: each answer a
translatable :class:`~pbem.engine.messages.Msg` (docs/rules/lacitta.md).

``explain(state, seat, order)`` is called by :func:`pbem.engine.lacitta.parse.parse`
once an order has read well but is not among the legal orders. It only asks
the rule module of the phase (:mod:`castles`, :mod:`political`,
:mod:`migration`, :mod:`demolition`, :mod:`feeding`), which keeps each
reason beside the test it explains.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.lacitta import castles, demolition, feeding, migration, political
from pbem.engine.lacitta.actions import Order
from pbem.engine.lacitta.words import say
from pbem.engine.messages import Msg

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.lacitta.state import LaCittaState


def not_legal(o: Order) -> Msg:
    """The fallback answer: ``'…' is not legal now.``"""
    return Msg("{order} is not legal now.", order=say(o, quoted=True))


def explain(s: "LaCittaState", p: int, o: Order) -> Msg:
    """Why ``o`` is not legal for seat ``p`` now (a ``Msg``)."""
    ph = s.phase_name
    if ph == "setup":
        return castles.why_not_setup(s, o)
    if o.verb == "castle":
        return Msg("Castles are placed only during setup; now: {phase}. To start a new city: found F6.",
                   phase=s.phase())
    if ph == "migration":
        return migration.why_not(s, o)
    if ph == "yearend":
        if s.yearend[p]["stage"] == "starve":
            return feeding.why_not(s, p, o)
        return demolition.why_not(s, p, o)
    return political.why_not(s, p, o) or not_legal(o)
