"""Coming back from a bot's stand-in on the pages (issue 27;
:mod:`pbem.service.play.standin`).

- ``GET /back/<seat id>.<secret>``: the signed link of the mail that said a
  bot plays for you: a page with one button (a GET never changes anything:
  mail scanners open links);
- ``POST /back/<seat id>.<secret>``: the button: the bot stops, and the
  seat's order page opens (a sign-in is asked for there if needed);
- ``POST /games/<id>/back/<seat number>``: the game page's button for a
  signed-in player whose seat a bot plays.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, url_for
from flask_babel import gettext

from pbem.service.core.errors import NotAllowed
from pbem.service.play.standin import come_back, seat_of_back_token
from pbem.web.common import get_game_or_404, seat_of
from pbem.web.extensions import login_required

bp = Blueprint("standin", __name__)


@bp.route("/back/<token>", methods=["GET", "POST"])
def by_link(token: str):
    seat = seat_of_back_token(token)
    if seat is None:
        abort(404, gettext("This link is not valid (any more)."))
    game = seat.game
    if not seat.bot_standin:
        return render_template("web/back.html", game=game, seat=seat, token=token, playing=False)
    from flask import request

    if request.method == "POST":
        come_back(game.id, seat.index, player_id=seat.player_id)
        flash(gettext("Welcome back: the bot has stopped, and seat %(number)s is yours to play again.",
                      number=seat.number))
        return redirect(url_for("seat.page", game_id=game.id, number=seat.number))
    return render_template("web/back.html", game=game, seat=seat, token=token, playing=True)


@bp.route("/games/<int:game_id>/back/<int:number>", methods=["POST"])
@login_required
def by_button(game_id: int, number: int):
    game = get_game_or_404(game_id)
    seat = seat_of(game, number)
    try:
        stopped = come_back(game.id, seat.index, player_id=g.player.id)
    except NotAllowed:
        abort(403, gettext("This seat belongs to someone else."))
    if stopped:
        flash(gettext("Welcome back: the bot has stopped, and seat %(number)s is yours to play again.",
                      number=number))
    return redirect(url_for("games.show", game_id=game_id))
