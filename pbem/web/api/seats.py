"""``/api/v1/games/<id>/seats/<n>`` (my seat's view: the public state and
my own hidden information only) and ``.../legal`` (the legal orders now,
as the order page's ``next.json`` computes them: text in my language,
label, site). Issue 28; docs/api.md."""
from __future__ import annotations

from flask import request

from pbem.boards import picker_orders
from pbem.engine import get_game
from pbem.i18n import translate
from pbem.service.core.held_text import held_lines
from pbem.service.core.models import ACTIVE
from pbem.service.play.queries import next_decision, pending_order
from pbem.web.api.access import lang, my_seat
from pbem.web.api.answers import refusal
from pbem.web.api.core import route
from pbem.web.api.games import ID
from pbem.web.api.schemas import LegalOrder, LegalOrders, LegalQuery, SeatView
from pbem.web.common import situation
from pbem.web.orders import label_in

SEAT = f"/v1/games/<{ID}:game_id>/seats/<int:number>"


def legal_orders(kind: str, actions, language: str) -> list[LegalOrder]:
    """``actions`` as the order page lists them (:func:`pbem.boards.
    picker_orders`, one per text), each ``text`` and ``label`` in
    ``language``'s command words."""
    engine = get_game(kind)
    first: dict = {}
    for a in actions:
        first.setdefault(a.to_text(), a)
    out = []
    for o in picker_orders(actions, lambda m: translate(m, language)):
        a = first[o["text"]]
        out.append(LegalOrder(**{**o, "text": engine.order_text(a, language),
                                 "label": label_in(engine, a, language)}))
    return out


def _decision(decision: dict | None, language: str) -> dict | None:
    if not decision:
        return None
    return {k: translate(v, language) if k in ("owes", "why", "rule") else v for k, v in decision.items()}


@route(SEAT, answers={"HTTP_200": SeatView}, tags=("seats",))
def seat_view(game_id: int, number: int):
    """My seat's view

    The state as this seat sees it (``view``: the public state and this
    seat's own hidden information, nothing of the other seats'), whether
    it owes a decision now and what (``decision``), its orders stored for
    this turn and the lines it holds for later decisions."""
    game, seat = my_seat(game_id, number)
    sit, language = situation(game), lang()
    to_move = game.status == ACTIVE and seat.index in sit.waiting
    view = sit.state.view(seat.index) if sit.state is not None else None
    pending = pending_order(game.id, seat.index, game.step) if to_move else None
    engine = get_game(game.kind)
    return SeatView(
        game=game.id, seat=seat.number, status=game.status, step=game.step,
        phase=translate(game.phase_message, language) if game.phase else "", to_move=to_move,
        deadline=game.deadline_at if game.status == ACTIVE else None, view=view,
        decision=_decision(view.get("decision"), language) if to_move and view else None,
        pending=pending.text if pending else None,
        held=[engine.held_text(line, language) for line in held_lines(game.id, seat.index)]
        if game.status == ACTIVE else [])


@route(f"{SEAT}/legal", answers={"HTTP_200": LegalOrders}, tags=("seats",), query=LegalQuery)
def legal(game_id: int, number: int):
    """The legal orders now

    The orders this seat may give now (none when it owes nothing), each
    as text in my command words, its label and its site. With
    ``?orders=<lines so far>`` (a game whose turn holds several
    decisions, Medina's two pieces): the next decision's orders after
    those lines, when the game allows dry runs (``preview``); a line that
    is refused is a 422 ``orders-refused`` problem."""
    game, seat = my_seat(game_id, number)
    text = request.context.query.orders
    nd = next_decision(game.id, seat.index, text, expected_step=None)
    result = nd.result
    if result.status == "preview" or not text.strip():
        actions = nd.actions if (nd.more or not text.strip()) else []
        return LegalOrders(game=game.id, seat=seat.number, step=game.step, to_move=bool(nd.actions) or nd.more,
                           preview=nd.preview, orders=legal_orders(game.kind, actions, lang()))
    raise refusal(result)
