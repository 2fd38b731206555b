"""The calendar feed of a player's deadlines (issue 25; docs/long-games.md).

- ``GET /calendar/<player id>.<secret>.ics``: the feed
  (:func:`pbem.service.play.calendar.feed`), no sign-in: calendar apps
  fetch it on their own. A wrong, revoked or turned-off secret is a 404,
  like a feed that never was.
- ``POST /account/calendar``: ``action`` ``on`` / ``renew`` / ``off`` for the
  signed-in player (the account page's calendar section,
  ``web/_calendar.html``, which the template global ``calendar_link`` fills).
"""
from __future__ import annotations

from flask import Blueprint, Response, abort, flash, g, redirect, request, url_for
from flask_babel import gettext

from pbem.service.accounts.calendar_link import calendar_url, player_of_feed, set_calendar
from pbem.service.play.calendar import feed as calendar_feed
from pbem.web.extensions import login_required
from pbem.web.locale import no_store

bp = Blueprint("calendar", __name__)
bp.add_app_template_global(calendar_url, "calendar_link")


@bp.route("/calendar/<token>.ics")
def feed(token: str):
    player = player_of_feed(token)
    if player is None:
        abort(404)
    response = no_store(Response(calendar_feed(player), mimetype="text/calendar"))
    response.headers["Content-Type"] = "text/calendar; charset=utf-8"
    response.headers["Content-Disposition"] = 'inline; filename="pbem.ics"'
    return response


@bp.route("/account/calendar", methods=["POST"])
@login_required
def account_calendar():
    action = request.form.get("action", "")
    if action not in ("on", "renew", "off"):
        flash(gettext("Choose what to do with your calendar link."), "error")
        return redirect(url_for("auth.account") + "#calendar")
    set_calendar(g.player.id, action)
    flash({"on": gettext("Your calendar link is ready: add it to your calendar app."),
           "renew": gettext("You have a new calendar link; the old one no longer works."),
           "off": gettext("Your calendar link is turned off.")}[action])
    return redirect(url_for("auth.account") + "#calendar")
