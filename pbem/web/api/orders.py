"""``POST /api/v1/games/<id>/seats/<n>/orders`` (send orders, through the
same :func:`pbem.service.play.orders.submit_orders` as the order page and
mail; ``Idempotency-Key`` makes a retry safe) and ``.../orders/dry-run``
(check orders without sending them, on a game whose dry runs reveal
nothing: ``Game.previewable``, as the order page's preview). Issue 28;
docs/api.md."""
from __future__ import annotations

import json

from flask import Response, g, request

from pbem.engine import get_game
from pbem.service.play.api_orders import KeyReused, fingerprint, submit_once
from pbem.service.play.queries import next_decision
from pbem.web.api.access import lang, my_seat
from pbem.web.api.answers import lines_out, refusal, submission_answer
from pbem.web.api.core import route
from pbem.web.api.problems import PROBLEM_JSON, ApiProblem
from pbem.web.api.schemas import DryRunOut, KeyHeaders, OrdersIn, OrdersOut, Problem
from pbem.web.api.seats import SEAT, legal_orders
from pbem.i18n import translate


@route(f"{SEAT}/orders", methods=("POST",), scope="order", tags=("orders",), json=OrdersIn, headers=KeyHeaders,
       answers={"HTTP_200": OrdersOut, "HTTP_409": Problem, "HTTP_422": Problem})
def submit(game_id: int, number: int):
    """Send orders

    ``orders``: one order a line (Medina: both pieces of a turn), in any
    of the command languages; ``step``: the step they were written on (an
    older one is refused as stale, 409). Accepted: 200 with what was
    applied (``applied``), kept for later (``held``) and whether the turn
    resolved. Refused: 422 ``orders-refused`` with each line as read, why
    the failing one was refused, and the legal orders; nothing is kept.
    Send an ``Idempotency-Key`` header: the same key again (for a day)
    gets the same answer and changes nothing."""
    # locked and read once, for the access check and the orders (as the order page)
    game, seat = my_seat(game_id, number, locked=True)
    body = request.context.json
    key = request.headers.get("Idempotency-Key") or None
    asked = fingerprint(game.id, seat.index, body.orders, body.step)
    try:
        answer = submit_once(g.api_token.id, key, asked, game.id, seat.index, body.orders,
                             expected_step=body.step, answer=submission_answer(lang()), game=game)
    except KeyReused:
        raise ApiProblem("idempotency-key-reused", "This Idempotency-Key was sent before with another request; "
                                                   "use a new key for new orders.")
    headers = {"Idempotent-Replayed": "true"} if answer.replayed else {}
    mimetype = "application/json" if answer.status == 200 else PROBLEM_JSON
    return Response(json.dumps(answer.body, ensure_ascii=False), status=answer.status, mimetype=mimetype,
                    headers=headers)


@route(f"{SEAT}/orders/dry-run", methods=("POST",), tags=("orders",), json=OrdersIn,
       answers={"HTTP_200": DryRunOut, "HTTP_409": Problem, "HTTP_422": Problem})
def dry_run(game_id: int, number: int):
    """Check orders without sending them

    The same checks as sending, on a copy; nothing is stored. Only for a
    game whose dry runs reveal nothing hidden (no draws, no hidden cards;
    409 ``not-previewable`` otherwise). Answers each line as read,
    whether the seat owes another decision of this turn after them
    (``more``), that decision's legal orders and the seat's view with the
    lines applied."""
    game, seat = my_seat(game_id, number)
    if not get_game(game.kind).previewable:
        raise ApiProblem("not-previewable", "This game's dry runs could show a draw or a hidden card; "
                                            "send the orders instead.")
    body = request.context.json
    nd = next_decision(game.id, seat.index, body.orders, expected_step=body.step)
    if nd.result.status != "preview":
        raise refusal(nd.result)
    language = lang()
    return DryRunOut(status="ok", message=translate(nd.result.message, language),
                     lines=lines_out(nd.result, language), more=nd.more,
                     orders=legal_orders(game.kind, nd.actions, language), view=nd.view)
