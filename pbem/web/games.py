"""Games: create (host), join (invited seat), the public game page with the
event log, final scores and a replay, and the host's controls.

Routes:
``GET/POST /games/new``, ``GET/POST /games/<id>/join/<seat number>``,
``GET /games/<id>`` (``?step=N`` shows the board after N actions),
``POST /games/<id>/start|pause|resume|extend|cancel``,
``POST /games/<id>/replace`` (a new player, or a bot, takes a seat) and
``POST /games/<id>/invite/<seat number>`` (resend an invitation).
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import format_decimal, gettext, ngettext

from pbem.boards import render_svg
from pbem.engine import GAMES, get_game
from pbem.i18n import LANGUAGE_NAMES, supported
from pbem.service.accounts.addresses import clean_name, normalise_email
from pbem.service.accounts.zones import ZONES, zone_or_none
from pbem.service.core.bots import OFFERED_BOTS
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import ACTIVE, FINISHED, INVITED
from pbem.service.play import bot_seats, lifecycle, replacement
from pbem.service.play.queries import pending_order, visible_events
from pbem.service.play.reads import first_step
from pbem.service.play.replay import state_at
from pbem.service.post import mailprefs
from pbem.web.common import (
    deadline_text, get_game_or_404, seat_of, situation, time_left, viewer_zone,
)
from pbem.web import away
from pbem.web.bot_words import bot_choices, bot_word
from pbem.web.extensions import limiter, login_required
from pbem.web.language import said, translated
from pbem.web.locale import select_locale
from pbem.web.table import chip, chips, named_view, panel_templates, people, rules_template, seated

bp = Blueprint("games", __name__, template_folder="templates")
bp.add_app_template_filter(seated, "seated")
bp.add_app_template_global(chip, "chip")
bp.add_app_template_global(chips, "chips")
bp.add_app_template_global(mailprefs.gets_turn_mail, "gets_turn_mail")
bp.add_app_template_global(bot_word, "bot_word")
bp.add_app_template_global(bot_choices, "bot_choices")

#: rows of the seat table on the create form (the most any game takes)
MAX_SEATS = max((game.max_seats for game in GAMES.values()), default=5)
DEFAULT_DEADLINE_HOURS = 48
MAX_DEADLINE_HOURS = 24 * 30


def _kinds() -> list[dict]:
    return [{"name": name, "title": game.title, "min": game.min_seats, "max": game.max_seats,
             "options": dict(game.options), "word": game.option_word} for name, game in sorted(GAMES.items())]


def _board(kind: str, view: dict, highlight=()) -> str | None:
    """The board picture as SVG, its words in the page's language."""
    try:
        return render_svg(kind, view, highlight=highlight, lang=str(select_locale()))
    except KeyError:  # a game without a picture: the text view carries everything
        return None


def table_context(game, view: dict | None, you: int | None = None) -> dict:
    """What the templates need to draw the table around the board: the
    seats as people (``persons``, ``me``), the view with their names
    (``named``, for the board), the game's panel template and rules page."""
    persons = people(game, view, you)
    return {"persons": persons, "me": persons[you] if you is not None else None,
            "view": view or {}, "named": named_view(view, persons) if view else None,
            "panel_templates": panel_templates(game.kind), "rules_url": rules_url(game.kind)}


def rules_url(kind: str) -> str | None:
    """The rules summary of game ``kind`` (:func:`rules`), or None when no
    game of that name is registered."""
    return url_for("games.rules", kind=kind) if kind in GAMES else None


@bp.route("/rules/<kind>")
def rules(kind: str):
    """The rules of game ``kind`` in short, one section per phase (the
    game's own template ``rules/<kind>.html``, sections with ids the
    engines' ``rules_section`` names); a game without one gets
    ``rules/_generated.html``, made from its facts and order help, with a
    note saying so (docs/adding-a-game.md)."""
    if kind not in GAMES:
        abort(404, gettext("There is no rules summary for %(kind)s.", kind=repr(kind)))
    return render_template("web/rules.html", engine=get_game(kind),
                           body=[rules_template(kind), "rules/_generated.html"])


def _host_key() -> str:
    return f"host:{g.player_id}" if g.get("player_id") is not None else request.remote_addr or "?"


@bp.route("/games/new", methods=["GET", "POST"])
@login_required
@limiter.limit("20 per hour", key_func=_host_key, methods=["POST"])
def new():
    me = g.player
    form = {"kind": next(iter(sorted(GAMES)), ""), "title": "", "deadline_hours": str(DEFAULT_DEADLINE_HOURS),
            "timezone": me.timezone or "UTC",
            # an invitee's language: their own, or their browser's at the first sign-in, unless the host says
            "seats": [{"name": me.name, "email": me.email, "language": me.language, "bot": ""}]
            + [{"name": "", "email": "", "language": "", "bot": ""}] * (MAX_SEATS - 1),
            "options": {}, "bot_takeover": True, **away.SETTING_DEFAULTS}
    problem = None
    if request.method == "POST":
        f = request.form
        form["kind"] = f.get("kind", "")
        form["title"] = (f.get("title") or "").strip()[:100]
        form["deadline_hours"] = (f.get("deadline_hours") or "").strip()
        form["timezone"] = f.get("timezone", "")
        form["seats"] = [{"name": clean_name(f.get(f"seat-{i}-name")),
                          "email": (f.get(f"seat-{i}-email") or "").strip()[:320],
                          "language": supported(f.get(f"seat-{i}-language")) or "",
                          "bot": f.get(f"seat-{i}-who") if f.get(f"seat-{i}-who") in OFFERED_BOTS else ""}
                         for i in range(MAX_SEATS)]
        form["bot_takeover"] = f.get("bot_takeover") == "on"
        form["options"] = {k[4:]: v for k, v in f.items() if k.startswith("opt-")}
        form.update(away.settings_form(f))
        try:
            game_id = _create(form)
        except ServiceError as err:
            problem = said(err)
        else:
            flash(gettext("The game is created and the invitations are on their way."))
            return redirect(url_for("games.show", game_id=game_id))
    return render_template("web/new_game.html", kinds=_kinds(), form=form, zones=ZONES, problem=problem,
                           languages=_invitee_languages(),
                           max_seats=MAX_SEATS), 422 if problem else 200


def _invitee_languages() -> dict:
    """The language choices of an invitee row: first "their own" (``""``:
    the player's, or their browser's at the first sign-in), then each language."""
    return {"": gettext("Their own language"), **LANGUAGE_NAMES}


def _create(form: dict) -> int:
    kind = form["kind"]
    if kind not in GAMES:
        raise ServiceError(gettext("Please choose a game."))
    engine = get_game(kind)
    # the form names each game's options "<kind>-<option>"; the game checks them (create_game)
    options = {option: form["options"][f"{kind}-{option}"] for option in engine.options
               if f"{kind}-{option}" in form["options"]}
    seats = []
    for i, row in enumerate(form["seats"]):
        if row.get("bot"):   # a bot instead of a person (issue 27)
            seats.append(lifecycle.SeatSpec(bot=row["bot"]))
            continue
        if not row["name"] and not row["email"]:
            continue
        if not row["email"]:
            raise ServiceError(gettext("Seat row %(row)s (%(name)s) needs an email address.",
                                       row=i + 1, name=row["name"]))
        try:
            email = normalise_email(row["email"])
        except ServiceError as err:
            raise ServiceError(gettext("Seat row %(row)s: %(problem)s", row=i + 1, problem=said(err))) from None
        seats.append(lifecycle.SeatSpec(email=email, name=row["name"], language=row.get("language") or None))
    if not form["deadline_hours"] and any(s.bot for s in seats):
        hours = None   # the default; none for one person against bots (issue 27)
    else:
        try:
            hours = float(form["deadline_hours"].replace(",", "."))
        except ValueError:
            raise ServiceError(gettext("The turn deadline must be a number of hours.")) from None
    if hours is not None and not 1 <= hours <= MAX_DEADLINE_HOURS:
        raise ServiceError(gettext("The turn deadline must be between 1 and %(most)s hours.",
                                   most=MAX_DEADLINE_HOURS))
    zone = zone_or_none(form["timezone"])
    if zone is None:
        raise ServiceError(gettext("Please choose the game's time zone from the list."))
    game = lifecycle.create_game(kind, g.player.email, seats, options=options,
                                 deadline_seconds=int(hours * 3600) if hours else None, timezone=zone,
                                 title=form["title"], bot_takeover=form.get("bot_takeover", True),
                                 **away.settings(form))
    return game.id


@bp.route("/games/<int:game_id>/join/<int:number>", methods=["GET", "POST"])
@login_required
def join(game_id: int, number: int):
    game = get_game_or_404(game_id)
    seat = seat_of(game, number)
    if seat.player_id != g.player.id:
        if replacement.gave_away(game, seat, g.player):
            return render_template("web/seat_given.html", game=game, seat=seat), 410
        abort(403, gettext("This invitation is for someone else. Sign in with the link from your own email."))
    if request.method == "POST":
        lifecycle.join_game(game.id, seat.index, player_id=g.player.id)
        flash(gettext("You have joined the game.") if game.status == INVITED else gettext("You are in."))
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
        first = first_step(game.id, game.step)   # from the stored moves: no set-up replayed
        try:
            step = int(request.args.get("step", game.step))
        except ValueError:
            step = game.step
        step = max(first, min(game.step, step))
        state = sit.state if step == game.step else state_at(game.id, step)
        view = state.view(None)
        table = table_context(game, view)
        replay = {"step": step, "first": first, "last": game.step, "phase": state.phase(),
                  "svg": _board(game.kind, table["named"]), "table": table, "view": view,
                  "text": get_game(game.kind).view_text(view, tr=translated),
                  "events": visible_events(game.id, None, limit=None, until_step=step)}
    scores, breakdown = [], []
    if game.status == FINISHED and sit.state is not None:
        scores = sorted(sit.state.scores(), key=lambda s: (s.rank, s.seat))
        breakdown = sit.state.score_breakdown() or []   # where the points come from, if the game says
    sent = {s.index for s in game.seats
            if game.status == ACTIVE and s.index in sit.waiting and pending_order(game.id, s.index, game.step)}
    you = mine[0].index if mine else None
    return render_template(
        "web/game.html", game=game, engine=get_game(game.kind), replay=replay, mine=mine,
        **table_context(game, replay["view"] if replay else None, you),
        waiting=sit.waiting, sent=sent, scores=scores, breakdown=breakdown, zone=zone,
        deadline=deadline_text(game.deadline_at, zone),
        left=time_left(game.deadline_at) if game.status == ACTIVE else "",
        is_host=g.player is not None and game.host_id == g.player.id, languages=_invitee_languages(),
        log=visible_events(game.id, None, limit=200))


def _host_action(game_id: int, fn, done: str, **kw):
    game = get_game_or_404(game_id)
    if g.player.id != game.host_id:
        abort(403, gettext("Only the host of this game can do that."))
    try:
        fn(game.id, by_player_id=g.player.id, **kw)
    except ServiceError as err:
        flash(said(err), "error")
    else:
        flash(done)
    return redirect(url_for("games.show", game_id=game.id))


@bp.route("/games/<int:game_id>/start", methods=["POST"])
@login_required
def start(game_id: int):
    return _host_action(game_id, lifecycle.start_game,
                        gettext("The game has started; the first turn notices are out."))


@bp.route("/games/<int:game_id>/pause", methods=["POST"])
@login_required
def pause(game_id: int):
    return _host_action(game_id, lifecycle.pause_game, gettext("The game is paused; the clock has stopped."))


@bp.route("/games/<int:game_id>/resume", methods=["POST"])
@login_required
def resume(game_id: int):
    return _host_action(game_id, lifecycle.resume_game, gettext("The game runs again."))


@bp.route("/games/<int:game_id>/extend", methods=["POST"])
@login_required
def extend(game_id: int):
    try:
        hours = float((request.form.get("hours") or "").replace(",", "."))
    except ValueError:
        hours = 0
    if not 0 < hours <= 24 * 14:
        flash(gettext("An extension is a number of hours between 1 and 336."), "error")
        return redirect(url_for("games.show", game_id=game_id))
    return _host_action(game_id, lifecycle.extend_deadline,
                        ngettext("The deadline is %(hours)s hour later.", "The deadline is %(hours)s hours later.",
                                 hours, hours=format_decimal(hours)),
                        seconds=int(hours * 3600))


@bp.route("/games/<int:game_id>/invite/<int:number>", methods=["POST"])
@login_required
@limiter.limit("30 per hour", key_func=_host_key)
def resend(game_id: int, number: int):
    """Send seat ``number`` a new invitation (host only; the service allows
    one per seat every ten minutes)."""
    game = get_game_or_404(game_id)
    seat = seat_of(game, number)
    return _host_action(game_id, lambda gid, **kw: replacement.resend_invitation(gid, seat.index, **kw),
                        gettext("A new invitation is on its way to %(email)s.", email=seat.player.email))


@bp.route("/games/<int:game_id>/replace", methods=["POST"])
@login_required
@limiter.limit("30 per hour", key_func=_host_key)
def replace(game_id: int):
    """A new player (``email``, ``name``) is given seat ``seat`` (its
    number) and invited to take it; the player who leaves is told
    (:func:`pbem.service.play.replacement.replace_player`, which checks the
    address and the game)."""
    game = get_game_or_404(game_id)
    if g.player.id != game.host_id:
        abort(403, gettext("Only the host of this game can do that."))
    number = request.form.get("seat", "")
    seat = next((s for s in game.seats if str(s.number) == number.strip()), None)
    bot = request.form.get("who") or ""
    if seat is not None and bot in OFFERED_BOTS:   # a bot takes the seat (issue 27)
        return _host_action(game_id, lambda gid, **kw: bot_seats.give_to_bot(gid, seat.index, bot, **kw),
                            gettext("Seat %(number)s is played by a bot (%(bot)s) from now on. %(before)s has "
                                    "been told.", number=seat.number, bot=bot_word(bot), before=seat.player.name))
    email = (request.form.get("email") or "").strip()[:320]
    if seat is None or not email:
        flash(gettext("Choose the seat and give the new player's email address."), "error")
        return redirect(url_for("games.show", game_id=game_id))
    name = clean_name(request.form.get("name"))
    return _host_action(
        game_id, lambda gid, **kw: replacement.replace_player(gid, seat.index, email, name,
                                                           language=supported(request.form.get("language")), **kw),
        gettext("Seat %(number)s is offered to %(name)s: an invitation is on its way, and the seat is theirs "
                "once they accept it. %(before)s has been told.", name=name or email, before=seat.player.name,
                number=seat.number))


@bp.route("/games/<int:game_id>/takeover", methods=["POST"])
@login_required
def takeover(game_id: int):
    """The host turns the bots' take-over on or off (the ``bot_takeover`` box; issue 27)."""
    on = request.form.get("bot_takeover") == "on"
    return _host_action(game_id, lambda gid, **kw: bot_seats.set_takeover(gid, on, **kw),
                        gettext("The take-over setting is saved."))


@bp.route("/games/<int:game_id>/cancel", methods=["POST"])
@login_required
def cancel(game_id: int):
    """End the game for everyone, without scores. The form's ``confirm``
    box must be ticked (the confirmation step)."""
    if request.form.get("confirm") != "yes":
        get_game_or_404(game_id)
        flash(gettext("Tick the box to confirm that the game ends for everyone."), "error")
        return redirect(url_for("games.show", game_id=game_id))
    return _host_action(game_id, lifecycle.cancel_game, gettext("The game is cancelled; every player is told."))
