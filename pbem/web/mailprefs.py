"""Mail preferences and one-click unsubscribe (issue 13; docs/web.md
"Mail preferences").

- ``GET/POST /mail/preferences/<token>``: the player's mail preferences,
  reached from the link in every mail's footer without signing in (the
  token names the player and grants nothing else;
  :func:`pbem.service.core.links.preferences_token`). Every move / my turn only /
  a daily digest at an hour / none (web only); "never invite me again";
  after a hard bounce, "mail to me works again".
- ``POST /mail/unsubscribe/<token>``: RFC 8058 one-click unsubscribe, the
  target of ``List-Unsubscribe``: no cookie and no CSRF token (a mail
  provider posts ``List-Unsubscribe=One-Click`` on the player's behalf);
  sets the preference to ``my_turn`` and "never invite me again": no more
  news, digests or invitations, while the seats the player holds still get
  "your move" (issue 29: a seat must not stop hearing of its turns unless
  the player turns turn mail off on the preferences page). ``GET`` there
  only shows the page, "only my turns" offered first: link scanners fetch
  every URL in a mail and must not unsubscribe anyone.

The pages reached by a token are sent ``Cache-Control: no-store`` and
``Referrer-Policy: no-referrer`` (:func:`pbem.web.locale.no_store`).
- ``/account/mail``: the same page for the signed-in player.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext

from pbem.service.accounts import preferences as mail_preferences
from pbem.service.accounts.players import find_player
from pbem.service.core import links
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player
from pbem.web.extensions import csrf, login_required
from pbem.web.language import said
from pbem.web.locale import no_store, speak_to

bp = Blueprint("mailprefs", __name__)

MODE_LABELS = {
    "every": lazy_gettext("Every move: a mail when it is your move and when something happens in your games"),
    "my_turn": lazy_gettext("My turn only: a mail when you are asked to move, your own missed turns, the final "
                            "scores"),
    "digest": lazy_gettext("A daily digest: your turns at once, everything else in one mail a day, at the hour "
                           "below"),
    "none": lazy_gettext("None, not even my turns: I watch my games on the web. Your deadlines still pass, and "
                         "the other players see that you get no turn mail."),
}
#: the modes as the unsubscribe page offers them: fewer mails before none
UNSUBSCRIBE_ORDER = ("my_turn", "none", "digest", "every")
#: each mode's short name, for the "Saved" message
MODE_NAMES = {
    "every": lazy_gettext("Every move"),
    "my_turn": lazy_gettext("My turn only"),
    "digest": lazy_gettext("A daily digest"),
    "none": lazy_gettext("None"),
}


def _player(token: str) -> Player:
    player_id = links.read_preferences_token(token)
    player = find_player(player_id) if player_id is not None else None
    if player is None:
        abort(404)
    speak_to(player)  # the page of a mail's link speaks its reader's language
    return player


def _save(player: Player) -> str | None:
    """Store the posted form for ``player`` (the one the token or the
    session names: :func:`pbem.service.accounts.preferences.
    set_mail_preferences`, which also clears a hard bounce when the player
    ticks "mail to me works again"); a problem to show, or ``None``."""
    form = request.form
    try:
        mail_preferences.set_mail_preferences(player.id, form.get("notify_mode", ""), form.get("digest_hour"),
                                         no_invites=form.get("no_invites") == "on",
                                         mail_works=form.get("mail_works") == "on")
        if "talk_mail" in form:  # table talk mail (issue 26)
            mail_preferences.set_talk_mail(player.id, form.get("talk_mail"))
    except ServiceError as err:
        return said(err)
    return None


def _page(player: Player, action: str):
    problem = _save(player) if request.method == "POST" else None
    if request.method == "POST" and problem is None:
        flash(gettext("Saved: %(mode)s.", mode=MODE_NAMES[player.notify_mode]))
        return redirect(action)
    unsubscribe = request.args.get("unsubscribe") == "1"
    modes = {mode: MODE_LABELS[mode] for mode in (UNSUBSCRIBE_ORDER if unsubscribe else MODE_LABELS)}
    return render_template("web/mail_preferences.html", player=player, modes=modes,
                           action=action, problem=problem, unsubscribe=unsubscribe), 400 if problem else 200


@bp.route("/mail/preferences/<token>", methods=["GET", "POST"])
def preferences(token: str):
    player = _player(token)
    return no_store(_page(player, url_for("mailprefs.preferences", token=token)))


@bp.route("/account/mail", methods=["GET", "POST"])
@login_required
def account_mail():
    return _page(g.player, url_for("mailprefs.account_mail"))


@bp.route("/mail/unsubscribe/<token>", methods=["GET"])
def unsubscribe_page(token: str):
    _player(token)
    return no_store(redirect(url_for("mailprefs.preferences", token=token, unsubscribe=1)))


@bp.route("/mail/unsubscribe/<token>", methods=["POST"])
@csrf.exempt
def unsubscribe(token: str):
    player = _player(token)
    mail_preferences.unsubscribe(player.id)   # a player who turned turn mail off keeps that
    return no_store(render_template("web/unsubscribed.html", player=player,
                                    again=url_for("mailprefs.preferences", token=token)))
