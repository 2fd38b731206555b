"""The order page of a seat, and its JSON view.

``GET /games/<id>/seat/<n>``: the board (inline SVG, legal sites
highlighted), the seat's private information and the public state, recent
history visible to this seat, the deadline in the player's zone, and the
legal orders: choose a label, click a highlighted site (board.js), or type
orders in the command language.

``POST /games/<id>/seat/<n>/review``: shows the orders in the command
language for confirmation (a dry run; nothing stored), or the refusal.
``POST /games/<id>/seat/<n>``: submits with the step the form was made on
(:func:`pbem.service.play.orders.submit_orders`); stale or illegal orders are
refused with what was read, why, and what is legal, keeping the text typed.

``GET /games/<id>/seat/<n>/view.json``: that seat's view only.

``GET /games/<id>/seat/<n>/next.json?orders=...&step=N``: after the lines
picked so far, whether the turn holds another decision and its legal orders
(the page builds Medina's two-piece turns on it; a dry run).

Only the player holding the seat may open any of these (403 otherwise).
"""
from __future__ import annotations

from collections import OrderedDict

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from pbem.boards import picker_orders
from pbem.i18n import translate
from pbem.service.core.echo import order_in, orders_in, reason_in, text_in
from pbem.service.core.errors import GameNotFound
from pbem.service.core.models import ACTIVE, FINISHED, INVITED
from pbem.service.core.snapshot import load_game
from pbem.service.core.held_text import held_lines
from pbem.service.play.held import CANCEL, game_holds
from pbem.service.play.orders import pending_seats, submit_orders
from pbem.service.play.submission import SubmitResult
from pbem.service.play.queries import next_decision, pending_order, preview_orders, visible_events
from pbem.web.common import (
    deadline_text, engine_of, get_game_or_404, my_seat, situation, time_left,
)
from pbem.web.extensions import PREVIEW_LIMIT, REVIEW_LIMIT, limiter, login_required, seat_key
from pbem.web.games import _board, table_context
from pbem.web.language import page_lang, translated
from pbem.web.locale import select_locale

bp = Blueprint("seat", __name__, template_folder="templates")

#: most order text accepted from a form (the service refuses long lines too)
MAX_TEXT = 10_000
#: seconds between reloads of the page of a seat waiting for others: a
#: player at the table sees the turn come to them (their email waits out
#: the live-play grace, docs/service.md). A seat whose orders are in but
#: may still replace them reloads only while its order field is empty
#: (order.js), so nothing typed is lost
WAITING_REFRESH = 20


def _step_field() -> int | None:
    try:
        return int(request.form.get("step", ""))
    except ValueError:
        return None


def _order_key() -> str:
    return f"orders:{g.player_id}" if g.get("player_id") is not None else request.remote_addr or "?"


def _say():
    """The page's translation of engine texts (``Msg``)."""
    lang = str(select_locale())
    return lambda text: translate(text, lang)


def _order_words(engine):
    """An order as the page's language writes it (``Game.order_text``):
    the legal-order list and the example in the order box."""
    lang = str(select_locale())
    return lambda action: engine.order_text(action, lang)


def _echo():
    """An order the service read or offers (:func:`pbem.service.core.echo.order_in`)
    in the page's language."""
    lang = str(select_locale())
    return lambda order: order_in(order, lang)


def label_in(engine, action, lang: str) -> str:
    """``action.label`` (the order without its site: "build farm", Die
    Stadt's "tile") in ``lang``'s command words, cut from
    ``Game.order_text``: the whole order without its site when the label
    is that in English, else as many of its first words as the English
    label takes of the English order (the words of both stand in the same
    places), else the label through the catalog."""
    def words(text: str) -> list[str]:
        site = (action.site or "").upper()
        return [w for w in text.split() if not site or w.upper() != site]

    label, english, own = action.label, words(action.to_text()), words(engine.order_text(action, lang))
    if label == " ".join(english):
        return " ".join(own)
    n = len(label.split())
    if label.split() == english[:n] and len(own) == len(english):
        return " ".join(own[:n])
    return translate(label, lang)


def _picker(engine, actions) -> list[dict]:
    """:func:`pbem.boards.picker_orders` in the page's language: each
    order's ``text`` (what a click fills in) and ``label`` (the chooser's
    option) in its command words."""
    lang = str(select_locale())
    first: dict = {}
    for a in actions:
        first.setdefault(a.to_text(), a)
    out = picker_orders(actions, _say())
    for o in out:
        a = first[o["text"]]
        o["text"], o["label"] = engine.order_text(a, lang), label_in(engine, a, lang)
    return out


def _page(game, seat, *, text: str = "", result: SubmitResult | None = None, status: int = 200):
    """Render the order page; ``result`` is a refusal to show above the form."""
    engine = engine_of(game)
    sit = situation(game)
    if sit.state is None:
        return redirect(url_for("games.join" if not seat.joined else "games.show",
                                game_id=game.id, **({"number": seat.number} if not seat.joined else {})))
    state = sit.state
    view = state.view(seat.index)
    to_move = game.status == ACTIVE and seat.index in sit.waiting
    actions = state.legal_actions(seat.index) if to_move else []
    groups: "OrderedDict[str, list]" = OrderedDict()
    lang = str(select_locale())
    for action in actions:
        groups.setdefault(label_in(engine, action, lang), []).append(action)
    orders = _picker(engine, actions)
    sites = sorted({a.site for a in actions if a.site})
    zone = seat.player.timezone or game.timezone
    pending = pending_order(game.id, seat.index, game.step) if to_move else None
    # every order the turn waits for is in: the worker is resolving it right now
    resolving = bool(pending) and set(sit.waiting) <= set(pending_seats(game.id, game.step))
    scores = sorted(state.scores(), key=lambda s: (s.rank, s.seat)) if game.status == FINISHED else []
    table = table_context(game, view, seat.index)
    return render_template(
        "web/order.html", game=game, seat=seat, engine=engine, to_move=to_move, **table,
        decision=view.get("decision") if to_move else None,
        svg=_board(game.kind, table["named"], sites), view_text=engine.view_text(view, tr=_say()),
        order_words=_order_words(engine), order_in=_echo(),
        pending_text=text_in(engine, state, seat.index, pending.text, lang) if pending else "",
        groups=groups, orders=orders, scores=scores, resolving=resolving, text=text, result=result,
        waiting=[game.seat(i) for i in sit.waiting], pending=pending,
        deadline=deadline_text(game.deadline_at, zone),
        left=time_left(game.deadline_at) if game.status == ACTIVE else "", zone=zone,
        history=visible_events(game.id, seat.index, limit=40), help=engine.order_help(),
        # a waiting seat that may hold orders reloads by script, never over typed text
        refresh=3 if resolving else WAITING_REFRESH if game.status == ACTIVE and not to_move
        and not game_holds(engine) else None,
        waiting_refresh=WAITING_REFRESH,
        held=[engine.held_text(line, lang) for line in held_lines(game.id, seat.index)]
        if game.status == ACTIVE else [],
        holds=game.status == ACTIVE and game_holds(engine), cancel_held=CANCEL,
    ), status


@bp.route("/games/<int:game_id>/seat/<int:number>", methods=["GET"])
@login_required
def page(game_id: int, number: int):
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    if game.status == INVITED:
        return redirect(url_for("games.join", game_id=game.id, number=number) if not seat.joined
                        else url_for("games.show", game_id=game.id))
    return _page(game, seat, text=request.args.get("orders", "")[:MAX_TEXT])


@bp.route("/games/<int:game_id>/seat/<int:number>/review", methods=["POST"])
@login_required
@limiter.limit(REVIEW_LIMIT, key_func=seat_key)
def review(game_id: int, number: int):
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    text = (request.form.get("orders") or "")[:MAX_TEXT]
    result = preview_orders(game.id, seat.index, text, expected_step=_step_field())
    if result.status != "preview":
        return _page(game, seat, text=text, result=result, status=409 if result.status == "stale" else 422)
    state = situation(game).state
    view = state.view(seat.index)
    svg = _board(game.kind, table_context(game, view, seat.index)["named"], result.sites) if result.sites else None
    said = _echo()
    return render_template("web/confirm.html", game=game, seat=seat, result=result, text=text, order_in=said,
                           canonical="\n".join(said(o) for o in result.orders), step=game.step, svg=svg)


@bp.route("/games/<int:game_id>/seat/<int:number>", methods=["POST"])
@login_required
@limiter.limit("60 per minute", key_func=_order_key)
def submit(game_id: int, number: int):
    text = (request.form.get("orders") or "")[:MAX_TEXT]
    step = _step_field()
    if step is None:
        game = get_game_or_404(game_id)
        seat = my_seat(game, number)
        result = SubmitResult("refused", game.id, seat.index, game.step,
                              message=gettext("The form did not say which turn it was made on; please use the "
                                              "order page."))
        return _page(game, seat, text=text, result=result, status=400)
    # the game row is read once, locked, for the access check and the orders
    try:
        game = load_game(game_id, for_update=True)
    except GameNotFound:
        abort(404, gettext("There is no game %(game)s.", game=game_id))
    seat = my_seat(game, number)
    # the page's language is chosen now, from the player the seats brought
    # along: after the commit that row is expired and would be read again
    lang = page_lang()
    result = submit_orders(game.id, seat.index, text, expected_step=step, source="web", game=game)
    if not result.accepted:
        game = get_game_or_404(game_id)
        return _page(game, seat, text=text, result=result, status=409 if result.status == "stale" else 422)
    # nothing is read after the commit: the answer is the result's (no
    # template is rendered for the redirect either)
    flash(gettext("Sent: %(orders)s. %(after)s", orders="; ".join(orders_in(result.orders, lang)),
                  after=_after_sending(result)))
    # game_id, not game.id: the row expired at the commit and would be read again
    return redirect(url_for("seat.page", game_id=game_id, number=number))


def _after_sending(result: SubmitResult) -> str:
    """What to tell a seat after its orders were taken: the service's
    message, unless the seat still owes a decision of the same turn (Medina's
    second piece, a demolition after a famine), which the page then names
    (the engine's ``decision``, :attr:`SubmitResult.owes`) instead of
    calling the turn resolved."""
    if not result.goes_on:
        return translated(result.message)
    if result.owes:
        return gettext("Your turn goes on: %(owed)s", owed=translated(result.owes))
    return gettext("Your turn goes on: you have another decision to make.")


@bp.route("/games/<int:game_id>/seat/<int:number>/next.json")
@login_required
@limiter.limit("240 per minute", key_func=_order_key)
@limiter.limit(PREVIEW_LIMIT, key_func=seat_key)
def next_json(game_id: int, number: int):
    """The next decision of a turn being written (``?orders=<lines so
    far>&step=<form step>``), for a game whose turn holds several orders
    (Medina: two pieces): each line as read (``order`` in the page's
    words; ``error`` and ``why``, the reason alone, when refused;
    ``held``: kept for a later decision), whether the turn holds another
    decision (``more``), its legal orders in board.js's shape, and the board
    with the lines applied and those orders' sites highlighted. A dry run:
    nothing is stored. Game-independent (``State.turn_key``); for a game
    that is not ``previewable`` (La Città: draws, hidden cards) only the
    lines are checked (``preview`` false), so it is never a free peek."""
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    text = (request.args.get("orders") or "")[:MAX_TEXT]
    try:
        step = int(request.args.get("step", ""))
    except ValueError:
        step = None
    nd = next_decision(game.id, seat.index, text, expected_step=step)
    r, said, legal = nd.result, _echo(), _picker(engine_of(game), nd.actions)
    svg = panels = None
    if nd.view is not None:
        table = table_context(game, nd.view, seat.index)
        svg = _board(game.kind, table["named"], sorted({a.site for a in nd.actions if a.site}))
        panels = render_template("web/_panels.html", game=game, view_text="", **table)
    return jsonify({
        "status": "ok" if r.status == "preview" else r.status,
        "message": translated(r.message) if r.status != "preview" else "",
        "lines": [{"text": l.text, "order": said(l.order), "error": translated(l.error) if l.error else l.error,
                   "why": reason_in(l.error, page_lang()), "held": l.held} for l in r.lines],
        "preview": nd.preview, "more": nd.more, "legal": legal, "svg": svg,
        "label_texts": {o["label"]: o["label"] for o in legal},
        "view_text": engine_of(game).view_text(nd.view, tr=_say()) if nd.view is not None else None,
        "panels": panels, "decision": _decision(nd.view.get("decision")) if nd.view is not None else None,
    }), 200


def _decision(decision: dict | None) -> dict | None:
    """The engine's decision banner (``owes``, ``why``, ``rule``...) with
    its texts in the page's language."""
    if not decision:
        return decision
    return {k: translated(v) if k in ("owes", "why", "rule") else v for k, v in decision.items()}


@bp.route("/games/<int:game_id>/seat/<int:number>/view.json")
@login_required
def view_json(game_id: int, number: int):
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    sit = situation(game)
    if sit.state is None:
        return jsonify({"game": game.id, "seat": seat.number, "status": game.status, "view": None}), 200
    state = sit.state
    to_move = game.status == ACTIVE and seat.index in sit.waiting
    return jsonify({
        "game": game.id, "seat": seat.number, "status": game.status, "step": game.step, "phase": game.phase,
        "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
        "to_move": to_move, "view": state.view(seat.index),
        "legal": [{"label": a.label, "site": a.site, "text": a.to_text()}
                  for a in (state.legal_actions(seat.index) if to_move else [])],
    })
