"""Spectators and game records (issue 25; docs/long-games.md).

- ``GET /watch/<game id>.<secret>``: the spectator page: the public view
  (``state.view(None)``) and the public log, one turn behind when the
  host says so (:func:`pbem.service.play.spectators.shown_step`); no
  orders, messages or private panels. A wrong or revoked secret is a 404.
- ``POST /games/<id>/spectators``: the host's switch (``action`` ``on`` /
  ``renew`` / ``off``, ``delay`` ticked: one turn behind).
- ``GET /games/<id>/record.json`` and ``record.txt``: the whole record of a
  game that is over (public, like the game page); while it runs, 403.
- ``GET /games/<id>/seat/<number>/record.json`` and ``record.txt``: the
  seat's own record while the game runs (its player only), the whole one
  once it is over.
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from pbem.engine import get_game
from pbem.service.core.errors import ServiceError
from pbem.service.play.queries import visible_events
from pbem.service.play.record import OVER, game_record, record_text
from pbem.service.play.replay import state_at
from pbem.service.play.spectators import set_watchable, shown_step, spectator_url, watched_game
from pbem.web.common import deadline_text, get_game_or_404, my_seat
from pbem.web.extensions import login_required
from pbem.web.games import _board, table_context
from pbem.web.language import page_lang, said, translated
from pbem.web.locale import no_store

bp = Blueprint("watch", __name__)
bp.add_app_template_global(spectator_url, "spectator_link")


@bp.route("/watch/<token>")
def page(token: str):
    game = watched_game(token)
    if game is None:
        abort(404)
    step = shown_step(game)
    state = state_at(game.id, step) if game.state is not None else None
    view = state.view(None) if state is not None else None
    table = table_context(game, view)
    scores = []
    if game.status == "finished" and state is not None and step == game.step:
        scores = sorted(state.scores(), key=lambda s: (s.rank, s.seat))
    return no_store(render_template(
        "web/watch.html", game=game, engine=get_game(game.kind), step=step, behind=step != game.step,
        phase=state.phase() if state is not None else "", **table,
        svg=_board(game.kind, table["named"]) if view else None,
        view_text=get_game(game.kind).view_text(view, tr=translated) if view else "",
        deadline=deadline_text(game.deadline_at, game.timezone) if game.status == "active" else "",
        scores=scores, over=game.status in OVER,
        log=visible_events(game.id, None, limit=200, until_step=step)))


@bp.route("/games/<int:game_id>/spectators", methods=["POST"])
@login_required
def switch(game_id: int):
    game = get_game_or_404(game_id)
    if g.player.id != game.host_id:
        abort(403, gettext("Only the host of this game can do that."))
    action = request.form.get("action", "")
    try:
        set_watchable(game.id, action, delay=request.form.get("delay") == "yes", by_player_id=g.player.id)
    except ServiceError as err:
        flash(said(err), "error")
    else:
        flash({"on": gettext("Spectators can watch with the link below."),
               "renew": gettext("The spectator link is new; the old one no longer works."),
               "off": gettext("The game can no longer be watched.")}.get(action, ""))
    return redirect(url_for("games.show", game_id=game_id) + "#spectators")


def _download(rec_json: dict | None, text: str | None, game, what: str):
    name = f"pbem-{game.kind}-{game.id}{'-seat' + str(rec_json['seat']) if rec_json and 'seat' in rec_json else ''}"
    if rec_json is not None:
        body, mimetype, ext = json.dumps(rec_json, ensure_ascii=False, indent=1) + "\n", "application/json", "json"
    else:
        body, mimetype, ext = text, "text/plain", "txt"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.{ext}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _record(game_id: int, fmt: str):
    game = get_game_or_404(game_id)
    if game.status not in OVER:
        abort(403, gettext("While a game runs, only its players can download their own record (on the game page, "
                           "signed in)."))
    if fmt == "json":
        return _download(game_record(game.id), None, game, fmt)
    return _download(None, record_text(game.id, page_lang()), game, fmt)


@bp.route("/games/<int:game_id>/record.txt")
def record(game_id: int):
    return _record(game_id, "txt")


@bp.route("/games/<int:game_id>/record.json")
def record_json(game_id: int):
    return _record(game_id, "json")


def _seat_record(game_id: int, number: int, fmt: str):
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    index = None if game.status in OVER else seat.index
    if fmt == "json":
        return _download(game_record(game.id, index), None, game, fmt)
    return _download(None, record_text(game.id, page_lang(), index), game, fmt)


@bp.route("/games/<int:game_id>/seat/<int:number>/record.txt")
def seat_record(game_id: int, number: int):
    return _seat_record(game_id, number, "txt")


@bp.route("/games/<int:game_id>/seat/<int:number>/record.json")
def seat_record_json(game_id: int, number: int):
    return _seat_record(game_id, number, "json")
