"""Games: create (host), join (invited seat), the public game page with the
event log, final scores and a replay, and the host's controls.

Routes:
``GET/POST /games/new``, ``GET/POST /games/<id>/join/<seat number>``,
``GET /games/<id>`` (``?step=N`` shows the board after N actions),
``POST /games/<id>/start|pause|resume|extend``.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from pbem.boards import render_svg
from pbem.engine import GAMES, get_game
from pbem.service import lifecycle
from pbem.service.addresses import clean_name, normalise_email
from pbem.service.errors import ServiceError
from pbem.service.models import ACTIVE, FINISHED, INVITED
from pbem.service.replay import state_at
from pbem.service.web_queries import pending_order, visible_events
from pbem.web.common import (
    deadline_text, get_game_or_404, seat_of, situation, time_left, viewer_zone,
)
from pbem.web.extensions import limiter, login_required
from pbem.web.zones import ZONES, zone_or_none

bp = Blueprint("games", __name__, template_folder="templates")

#: rows of the seat table on the create form (the most any game takes)
MAX_SEATS = max((game.max_seats for game in GAMES.values()), default=5)
DEFAULT_DEADLINE_HOURS = 48
MAX_DEADLINE_HOURS = 24 * 30


def _kinds() -> list[dict]:
    return [{"name": name, "title": game.title, "min": game.min_seats, "max": game.max_seats,
             "options": dict(game.options)} for name, game in sorted(GAMES.items())]


def _board(kind: str, view: dict, highlight=()) -> str | None:
    try:
        return render_svg(kind, view, highlight=highlight)
    except KeyError:  # a game without a picture: the text view carries everything
        return None


def _host_key() -> str:
    return f"host:{g.player_id}" if g.get("player_id") is not None else request.remote_addr or "?"


@bp.route("/games/new", methods=["GET", "POST"])
@login_required
@limiter.limit("20 per hour", key_func=_host_key, methods=["POST"])
def new():
    me = g.player
    form = {"kind": next(iter(sorted(GAMES)), ""), "title": "", "deadline_hours": str(DEFAULT_DEADLINE_HOURS),
            "timezone": me.timezone or "UTC",
            "seats": [{"name": me.name, "email": me.email}] + [{"name": "", "email": ""}] * (MAX_SEATS - 1),
            "options": {}}
    problem = None
    if request.method == "POST":
        f = request.form
        form["kind"] = f.get("kind", "")
        form["title"] = (f.get("title") or "").strip()[:100]
        form["deadline_hours"] = (f.get("deadline_hours") or "").strip()
        form["timezone"] = f.get("timezone", "")
        form["seats"] = [{"name": clean_name(f.get(f"seat-{i}-name")),
                          "email": (f.get(f"seat-{i}-email") or "").strip()[:320]} for i in range(MAX_SEATS)]
        form["options"] = {k[4:]: v for k, v in f.items() if k.startswith("opt-")}
        try:
            game_id = _create(form)
        except ServiceError as err:
            problem = str(err)
        else:
            flash("The game is created and the invitations are on their way.")
            return redirect(url_for("games.show", game_id=game_id))
    return render_template("web/new_game.html", kinds=_kinds(), form=form, zones=ZONES, problem=problem,
                           max_seats=MAX_SEATS), 422 if problem else 200


def _create(form: dict) -> int:
    kind = form["kind"]
    if kind not in GAMES:
        raise ServiceError("Please choose a game.")
    engine = get_game(kind)
    # the form names each game's options "<kind>-<option>"; the game checks them (create_game)
    options = {option: form["options"][f"{kind}-{option}"] for option in engine.options
               if f"{kind}-{option}" in form["options"]}
    seats = []
    for i, row in enumerate(form["seats"]):
        if not row["name"] and not row["email"]:
            continue
        if not row["email"]:
            raise ServiceError(f"Seat row {i + 1} ({row['name']}) needs an email address.")
        try:
            email = normalise_email(row["email"])
        except ServiceError as err:
            raise ServiceError(f"Seat row {i + 1}: {err}") from None
        seats.append(lifecycle.SeatSpec(email=email, name=row["name"]))
    try:
        hours = float(form["deadline_hours"].replace(",", "."))
    except ValueError:
        raise ServiceError("The turn deadline must be a number of hours.") from None
    if not 1 <= hours <= MAX_DEADLINE_HOURS:
        raise ServiceError(f"The turn deadline must be between 1 and {MAX_DEADLINE_HOURS} hours.")
    zone = zone_or_none(form["timezone"])
    if zone is None:
        raise ServiceError("Please choose the game's time zone from the list.")
    game = lifecycle.create_game(kind, g.player.email, seats, options=options,
                                 deadline_seconds=int(hours * 3600), timezone=zone,
                                 title=form["title"])
    return game.id


@bp.route("/games/<int:game_id>/join/<int:number>", methods=["GET", "POST"])
@login_required
def join(game_id: int, number: int):
    game = get_game_or_404(game_id)
    seat = seat_of(game, number)
    if seat.player_id != g.player.id:
        abort(403, "This invitation is for someone else. Sign in with the link from your own email.")
    if request.method == "POST":
        lifecycle.join_game(game.id, seat.index, player_id=g.player.id)
        flash("You have joined the game." if game.status == INVITED else "You are in.")
        game = get_game_or_404(game_id)
        if game.status != INVITED:
            return redirect(url_for("seat.page", game_id=game.id, number=number))
        return redirect(url_for("games.show", game_id=game.id))
    return render_template("web/join.html", game=game, seat=seat, engine=get_game(game.kind),
                           hours=game.deadline_seconds / 3600)


@bp.route("/games/<int:game_id>")
def show(game_id: int):
    game = get_game_or_404(game_id)
    zone = viewer_zone(game)
    sit = situation(game)
    mine = [s for s in game.seats if g.player is not None and s.player_id == g.player.id]
    replay = None
    if sit.state is not None:
        first = get_game(game.kind).new_state(len(game.seats), game.seed, **game.options).step
        try:
            step = int(request.args.get("step", game.step))
        except ValueError:
            step = game.step
        step = max(first, min(game.step, step))
        state = sit.state if step == game.step else state_at(game.id, step)
        replay = {"step": step, "first": first, "last": game.step, "phase": state.phase(),
                  "svg": _board(game.kind, state.view(None)),
                  "text": get_game(game.kind).view_text(state.view(None)),
                  "events": visible_events(game.id, None, limit=None, until_step=step)}
    scores = []
    if game.status == FINISHED and sit.state is not None:
        scores = sorted(sit.state.scores(), key=lambda s: (s.rank, s.seat))
    sent = {s.index for s in game.seats
            if game.status == ACTIVE and s.index in sit.waiting and pending_order(game.id, s.index, game.step)}
    return render_template(
        "web/game.html", game=game, engine=get_game(game.kind), replay=replay, mine=mine,
        waiting=sit.waiting, sent=sent, scores=scores, zone=zone,
        deadline=deadline_text(game.deadline_at, zone),
        left=time_left(game.deadline_at) if game.status == ACTIVE else "",
        is_host=g.player is not None and game.host_id == g.player.id,
        log=visible_events(game.id, None, limit=200))


def _host_action(game_id: int, fn, done: str, **kw):
    game = get_game_or_404(game_id)
    if g.player.id != game.host_id:
        abort(403, "Only the host of this game can do that.")
    try:
        fn(game.id, by_player_id=g.player.id, **kw)
    except ServiceError as err:
        flash(str(err), "error")
    else:
        flash(done)
    return redirect(url_for("games.show", game_id=game.id))


@bp.route("/games/<int:game_id>/start", methods=["POST"])
@login_required
def start(game_id: int):
    return _host_action(game_id, lifecycle.start_game, "The game has started; the first turn notices are out.")


@bp.route("/games/<int:game_id>/pause", methods=["POST"])
@login_required
def pause(game_id: int):
    return _host_action(game_id, lifecycle.pause_game, "The game is paused; the clock has stopped.")


@bp.route("/games/<int:game_id>/resume", methods=["POST"])
@login_required
def resume(game_id: int):
    return _host_action(game_id, lifecycle.resume_game, "The game runs again.")


@bp.route("/games/<int:game_id>/extend", methods=["POST"])
@login_required
def extend(game_id: int):
    try:
        hours = float((request.form.get("hours") or "").replace(",", "."))
    except ValueError:
        hours = 0
    if not 0 < hours <= 24 * 14:
        flash("An extension is a number of hours between 1 and 336.", "error")
        return redirect(url_for("games.show", game_id=game_id))
    return _host_action(game_id, lifecycle.extend_deadline, f"The deadline is {hours:g} h later.",
                        seconds=int(hours * 3600))
