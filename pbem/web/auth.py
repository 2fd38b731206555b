"""Signing in without passwords.

- ``GET /signin/<token>``: checks an emailed link (signed, expiring, single
  use) and shows a "Continue" button; the link is used up only by the
  ``POST`` of that button, so mail scanners that open links do not burn it.
  A player already signed in as the link's player goes straight on. A
  link from a turn email (its token names a seat) signs in for that seat's
  pages only (:mod:`pbem.web.scope`).
- ``GET/POST /signin``: "send me a sign-in link" by email address
  (exactly one address; rate limited per mailbox and per client).
- ``POST /signout``: signs this device out; a copy of its session cookie
  stops working too, other devices stay signed in.
- ``POST /signout/everywhere`` (on the account page): every session of the
  player ends (:mod:`pbem.web.sessions`).
- ``GET/POST /account``: name, time zone and language of the signed-in
  player (choosing a language sets ``language_chosen``).

The first sign-in takes the browser's language and time zone
(:mod:`pbem.web.first_signin`); a page for a visitor whose link names a
player speaks that player's language (:func:`pbem.web.locale.speak_to`).
"""
from __future__ import annotations

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext, refresh

from pbem.mail.tokens import BadToken, ExpiredToken
from pbem.i18n import LANGUAGE_NAMES
from pbem.service.accounts import profile
from pbem.service.accounts.addresses import mailbox_key
from pbem.service.accounts.first_signin import needs_browser_zone, take_browser_defaults
from pbem.service.accounts.players import find_player
from pbem.service.accounts.signin import check_signin, safe_path, send_signin_link, use_signin
from pbem.service.accounts.zones import ZONES
from pbem.service.core.errors import ServiceError
from pbem.web import first_signin, scope, sessions
from pbem.web.locale import no_store, speak_to
from pbem.web.extensions import limiter, login_required
from pbem.web.language import page_lang, said

bp = Blueprint("auth", __name__, template_folder="templates")
# after the session's player is read (extensions.init_app runs first)
bp.before_app_request(scope.enforce)

#: per client address
SEND_LIMIT = "5 per minute; 20 per hour"
#: per mailbox asked for (so one inbox cannot be flooded from many clients, nor
#: through many ``+tag`` spellings of its address: see addresses.mailbox_key)
SEND_LIMIT_PER_ADDRESS = "3 per 15 minutes; 10 per day"
#: attempts to use sign-in links, per client
USE_LIMIT = "20 per minute; 200 per day"


def _address_key() -> str:
    return "signin-address:" + mailbox_key(request.form.get("email") or "")


def sign_in_as(player_id: int) -> None:
    # nothing from before the sign-in survives it; a new session name and the player's version
    sessions.start(find_player(player_id))


def _token_problem(err: Exception) -> str:
    if isinstance(err, ExpiredToken):
        return gettext("This sign-in link has expired.")
    if err.__class__.__name__ == "UsedTokenError":
        return gettext("This sign-in link has been used already: each link works once.")
    if err.__class__.__name__ == "SeatNotHeld":
        return gettext("This link is for a seat you no longer hold: another player has taken it over.")
    return gettext("This sign-in link is not valid (it may have been cut short by your mail program).")


@bp.route("/signin/<token>", methods=["GET"])
@limiter.limit(USE_LIMIT)
def link(token: str):
    try:
        claim, player, email = check_signin(token)
    except BadToken as err:
        # an already signed-in player clicking an old link loses nothing
        return render_template("web/signin.html", problem=_token_problem(err), email="",
                               next="/"), 410
    nxt = safe_path((claim.subject or {}).get("next") if isinstance(claim.subject, dict) else "/")
    if player is not None and g.player is not None and g.player.id == player.id:
        return redirect(nxt)
    speak_to(player)  # an invitee: the language the host chose for them
    return no_store(render_template("web/signin_confirm.html", token=token, player=player, email=email, next=nxt,
                           ask_zone=needs_browser_zone(player), zone_field=first_signin.ZONE_FIELD))


@bp.route("/signin/<token>", methods=["POST"])
@limiter.limit(USE_LIMIT)
def use(token: str):
    try:
        browser = first_signin.browser()
        result = use_signin(token, with_player=lambda player: take_browser_defaults(player, browser))
    except BadToken as err:
        return render_template("web/signin.html", problem=_token_problem(err), email="", next="/"), 410
    sessions.forget_if_ended()
    if result.seat is None:
        sign_in_as(result.player_id)
    else:
        scope.add_seat(result.player_id, result.seat, sign_in_as)
        if scope.SEATS_KEY in session:
            flash(gettext("This link from a turn email opens seat %(number)s of game #%(game)s only: its game "
                          "page and order page. For your other games and your account, sign in with your "
                          "address.", number=result.seat[1] + 1, game=result.seat[0]))
    return redirect(result.next_path)


@bp.route("/signin", methods=["GET"])
def signin():
    if g.player is not None and request.args.get("next"):
        return redirect(safe_path(request.args.get("next")))
    note = (gettext("You are signed in from a turn email, for that seat's pages only. To open this page, "
                    "ask for a sign-in link for your address.") if scope.seat_only() else None)
    return render_template("web/signin.html", email="", next=safe_path(request.args.get("next")), note=note)


@bp.route("/signin", methods=["POST"])
@limiter.limit(SEND_LIMIT)
@limiter.limit(SEND_LIMIT_PER_ADDRESS, key_func=_address_key)
def send_link():
    email = (request.form.get("email") or "").strip()[:320]
    nxt = safe_path(request.form.get("next"))
    try:
        email = send_signin_link(email, nxt, language=page_lang())
    except ServiceError as err:
        return render_template("web/signin.html", email=email, next=nxt,
                               problem=said(err)), 422
    # the same answer whether or not the address is known: the page tells nobody who plays here
    return render_template("web/signin_sent.html", email=email)


@bp.route("/signout", methods=["POST"])
def signout():
    # the cookie's player, also for a seat-only session (g.player_id is None outside its seats)
    pid = session.get("player_id")
    player = find_player(pid) if isinstance(pid, int) else None
    if player is not None and sessions.holds(player):  # an ended session has nothing left to end
        sessions.end_here(player.id)
    session.clear()
    flash(gettext("You are signed out on this device."))
    return redirect(url_for("dashboard.index"))


@bp.route("/signout/everywhere", methods=["POST"])
@login_required
def signout_everywhere():
    sessions.end_everywhere(g.player.id)
    flash(gettext("You are signed out on every device and browser. Sign in again with a link from your email."))
    return redirect(url_for("dashboard.index"))


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account():
    player = g.player
    problem = None
    if request.method == "POST":
        try:
            saved = profile.set_account(player.id, name=request.form.get("name"),
                                        timezone=request.form.get("timezone"), language=request.form.get("language"))
        except ServiceError as err:
            problem = said(err)
        else:
            refresh()  # the message below is in the language just chosen
            flash(gettext("Saved. Deadlines are shown in %(zone)s.", zone=saved.timezone))
            return redirect(url_for("auth.account"))
    return render_template("web/account.html", player=player, zones=ZONES, problem=problem,
                           languages=LANGUAGE_NAMES,
                           session_days=f"{current_app.permanent_session_lifetime.total_seconds() / 86400:g}")
