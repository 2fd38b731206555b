"""The host connects a game to the group's chat (issue 26; the form is in
``web/_host_talk.html`` on the game page): ``POST /games/<id>/channel``
(``url``, ``lang``) and ``POST /games/<id>/channel/remove``. The URL is
never shown back: the page shows only the service's name
(:func:`pbem.service.play.channel.shown`)."""
from __future__ import annotations

from flask import Blueprint, flash, g, redirect, request, url_for
from flask_babel import gettext

from pbem.service.core.errors import ServiceError
from pbem.service.play import channel
from pbem.web.common import get_game_or_404
from pbem.web.extensions import limiter, login_required
from pbem.web.language import said

bp = Blueprint("channel", __name__)
bp.add_app_template_global(channel.shown, "game_channel")


def _host_key() -> str:
    return f"channel:{g.get('player_id')}"


@bp.route("/games/<int:game_id>/channel", methods=["POST"])
@login_required
@limiter.limit("20 per hour", key_func=_host_key)
def connect(game_id: int):
    game = get_game_or_404(game_id)
    try:
        service = channel.connect(game.id, request.form.get("url", "")[:channel.MAX_URL + 1],
                                  by_player_id=g.player_id, lang=request.form.get("lang"))
    except ServiceError as err:
        flash(gettext("The chat was not connected: %(problem)s", problem=said(err)), "error")
    else:
        flash(gettext("The game now posts its public news to %(service)s.", service=service))
    return redirect(url_for("games.show", game_id=game.id) + "#host-talk")


@bp.route("/games/<int:game_id>/channel/remove", methods=["POST"])
@login_required
def remove(game_id: int):
    game = get_game_or_404(game_id)
    try:
        channel.disconnect(game.id, by_player_id=g.player_id)
    except ServiceError as err:
        flash(said(err), "error")
    else:
        flash(gettext("The game no longer posts to the chat."))
    return redirect(url_for("games.show", game_id=game.id) + "#host-talk")
