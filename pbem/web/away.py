"""Absences on the pages (issue 25; docs/long-games.md).

- ``POST /account/absences``: the signed-in player declares an absence for
  all their games (the account page's section, ``web/_absences.html``);
- ``POST /games/<id>/absences``: for this game only (the game page's
  section, ``web/_away.html``; a seat of the game only);
- ``POST /account/absences/<id>/withdraw``: withdraw one of one's own.

Days are the player's own, in their time zone. Template globals:
``own_absences(player)``, ``budget_days(player)``, ``away_seats(game)``
(seat index -> until), ``cap_days(game)``. The pages call the service
(:mod:`pbem.service.play.absence_views`); they write no table.
"""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date
from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask_babel import gettext

from pbem.service.core.errors import ServiceError
from pbem.service.play import absence_views
from pbem.service.play.absences import AbsenceError, withdraw as withdraw_absence
from pbem.web import language
from pbem.web.common import deadline_text, get_game_or_404
from pbem.web.extensions import login_required

bp = Blueprint("away", __name__)


def _away_seats(game):
    """Seat index -> until, once per request and game."""
    cache = g.setdefault("_away_seats", {})
    if game.id not in cache:
        cache[game.id] = absence_views.away_seats(game)
    return cache[game.id]


def _when(when, game=None) -> str:
    """An instant in the reader's zone and language, as deadlines are written."""
    zone = (g.player.timezone if g.get("player") is not None and g.player.timezone
            else (game.timezone if game is not None else "UTC"))
    return deadline_text(when, zone)


def _span(start, end) -> tuple[str, str]:
    """An absence's ends for its owner, in their zone and the page's
    language: the first and the last day (``end`` is the midnight after
    it) when both ends fall on midnight, as the form and an away line
    without times give them; else both instants (:func:`_when`)."""
    zone = g.player.timezone if g.get("player") is not None and g.player.timezone else "UTC"
    try:
        here = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        here = ZoneInfo("UTC")
    first, after = start.astimezone(here), end.astimezone(here)
    if first.time() != dt.time(0) or after.time() != dt.time(0) or after <= first:
        return _when(start), _when(end)
    g.shown_zone = zone
    last = (after - dt.timedelta(days=1)).date()
    lang = language.page_lang()
    return format_date(first.date(), "full", locale=lang), format_date(last, "full", locale=lang)


bp.add_app_template_filter(_when, "when_here")
bp.add_app_template_global(_span, "absence_days")
bp.add_app_template_global(lambda player: absence_views.own(player.id), "own_absences")
bp.add_app_template_global(absence_views.budget_days_left, "budget_days")
bp.add_app_template_global(_away_seats, "away_seats")
bp.add_app_template_global(absence_views.cap_days_left, "cap_days")


def _refusal(err: AbsenceError) -> str:
    return {
        "date": gettext("Please give the first and the last day of your absence."),
        "order": gettext("The last day of an absence cannot come before the first."),
        "past": gettext("That absence is over already."),
        "long": gettext("An absence may last a year at most."),
        "many": gettext("You have three absences waiting already; withdraw one first."),
        "game": gettext("You have no seat in this game."),
    }.get(err.code, str(err))


def _declare(game_id: int | None) -> bool:
    try:
        absence_views.declare_days(g.player.id, request.form.get("first", ""), request.form.get("last", ""),
                                   g.player.timezone or "UTC", game_id=game_id,
                                   bot_after_cap=request.form.get("bot") == "on")   # issue 27
    except AbsenceError as err:
        flash(_refusal(err), "error")
        return False
    flash(gettext("Your absence is recorded. The other players see only that you are away, and until when."))
    return True


@bp.route("/account/absences", methods=["POST"])
@login_required
def declare_all():
    _declare(None)
    return redirect(url_for("auth.account") + "#absences")


@bp.route("/games/<int:game_id>/absences", methods=["POST"])
@login_required
def declare_here(game_id: int):
    game = get_game_or_404(game_id)
    if not any(s.player_id == g.player.id for s in game.seats):
        abort(403, gettext("You have no seat in this game."))
    _declare(game.id)
    return redirect(url_for("games.show", game_id=game.id) + "#away")


@bp.route("/account/absences/<int:absence_id>/withdraw", methods=["POST"])
@login_required
def withdraw(absence_id: int):
    if not withdraw_absence(g.player.id, absence_id):
        abort(404)  # no such absence, or another player's: the same answer
    flash(gettext("Your absence is withdrawn."))
    back = request.form.get("back", "")
    return redirect(back if back.startswith("/") and not back.startswith("//") else url_for("auth.account") + "#absences")


#: the new-game form's absence cap (days) and grace (hours) as first shown
SETTING_DEFAULTS = {"absence_cap_days": "14", "grace_hours": "24"}


def settings_form(f) -> dict:
    """The new-game form's long-game fields as typed (kept to show again);
    a form without them (an older page, a script) gets the service's
    defaults: a 14-day cap and no grace."""
    if "absence_cap_days" not in f:
        return {"absence_cap_days": "14", "grace_hours": "0"}
    return {"absence_cap_days": (f.get("absence_cap_days") or "").strip()[:4],
            "grace_hours": (f.get("grace_hours") or "0").strip()[:4]}


def settings(form: dict) -> dict:
    """``create_game``'s ``absence_cap_days`` and ``grace_hours`` from the
    form; raises :class:`ServiceError` with the page's sentence."""
    from pbem.service.play.lifecycle import MAX_CAP_DAYS, MAX_GRACE_HOURS

    try:
        cap = int(form["absence_cap_days"])
        grace = int(form["grace_hours"])
    except ValueError:
        raise ServiceError(gettext("The absence limit and the grace must be whole numbers.")) from None
    if not 0 <= cap <= MAX_CAP_DAYS:
        raise ServiceError(gettext("The absence limit must be between 0 and %(most)s days.", most=MAX_CAP_DAYS))
    if not 0 <= grace <= MAX_GRACE_HOURS:
        raise ServiceError(gettext("The grace must be between 0 and %(most)s hours.", most=MAX_GRACE_HOURS))
    return {"absence_cap_days": cap, "grace_hours": grace}
