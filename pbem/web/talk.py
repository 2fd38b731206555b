"""Table talk on the order page (issue 26): the seat's thread, the form to
write (recipients chosen by name), mute, the host's hide, and the thread
as JSON. The host's talk setting is on the game page (``web/_host_talk.html``).

Routes (every POST carries the page's CSRF token, like every form):
``POST /games/<id>/seat/<n>/talk`` (write), ``POST /games/<id>/seat/<n>/mute``,
``POST /games/<id>/seat/<n>/hide/<message id>`` (host),
``GET /games/<id>/seat/<n>/talk.json``, ``POST /games/<id>/talk-setting`` (host).

Only the seat's player opens any of the seat's routes (403 otherwise);
what they read is :func:`pbem.service.play.talk_read.messages_for`.
"""
from __future__ import annotations

import re

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup, escape

from pbem.service.core.errors import ServiceError
from pbem.service.core.talk_models import MAX_BODY
from pbem.service.play import talk, talk_moderation, talk_read
from pbem.web.common import get_game_or_404, my_seat
from pbem.web.extensions import limiter, login_required, seat_key
from pbem.web.language import said
from pbem.web.table import people

bp = Blueprint("talk", __name__, template_folder="templates")

_URL = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")


@bp.app_template_filter("talk_text")
def talk_text(body: str) -> Markup:
    """A message as HTML: escaped plain text, its line breaks kept, each
    ``http(s)://`` link clickable (``rel="nofollow noopener ugc"``)."""
    out, last = [], 0
    for m in _URL.finditer(body or ""):
        out.append(escape(body[last:m.start()]))
        out.append(Markup('<a href="{0}" rel="nofollow noopener noreferrer ugc" target="_blank">{0}</a>').format(m.group(0)))
        last = m.end()
    out.append(escape((body or "")[last:]))
    return Markup("").join(out)


@bp.app_template_global("talk_thread")
def talk_thread(game, seat) -> dict:
    """What the order page's talk card shows the seat's player (signed in,
    holding ``seat``): the host's ``mode``, the ``lines`` they may read, the
    ``others`` they may write to, the seats they ``muted``, whether they are
    the ``host``. Marks the lines as seen (no mail is sent for them)."""
    lines = talk_read.messages_for(game, seat.index, g.player_id)
    if lines:
        talk_read.mark_seen(game, seat.index, g.player_id, lines[-1].id)
    persons = people(game, None, seat.index)
    return {"mode": game.talk, "lines": lines, "persons": persons, "max": MAX_BODY,
            "others": [p for p in persons if p.index != seat.index],
            "muted": talk_read.muted_seats(game.id, g.player_id), "host": game.host_id == g.player_id,
            "open": game.status in talk.TALK_STATUSES}


def _back(game, seat):
    return redirect(url_for("seat.page", game_id=game.id, number=seat.number) + "#talk")


def _recipients(game) -> str | list[int]:
    chosen = request.form.getlist("to")
    if "all" in chosen:
        return talk.ALL
    numbers = {s.number: s.index for s in game.seats}
    try:
        return [numbers[int(n)] for n in chosen]
    except (KeyError, ValueError):
        raise ServiceError(gettext("This game has no such seat.")) from None


@bp.route("/games/<int:game_id>/seat/<int:number>/talk", methods=["POST"])
@login_required
@limiter.limit("30 per minute", key_func=seat_key)
def write(game_id: int, number: int):
    """Write a message (``body``; ``to``: ``all`` or seat numbers). A
    refusal shows the form again with the text kept (422)."""
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    body = (request.form.get("body") or "")[:MAX_BODY * 2]
    try:
        talk.post_message(game.id, seat.index, g.player_id, body, to=_recipients(game), source="web")
    except ServiceError as err:
        return render_template("web/talk_refused.html", game=game, seat=seat, problem=said(err), body=body,
                               chosen=request.form.getlist("to"), thread=talk_thread(game, seat)), 422
    flash(gettext("Your message is sent."))
    return _back(game, seat)


@bp.route("/games/<int:game_id>/seat/<int:number>/mute", methods=["POST"])
@login_required
def mute(game_id: int, number: int):
    """Mute (``on=1``) or unmute seat number ``seat`` for this seat's player."""
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    other = next((s for s in game.seats if str(s.number) == (request.form.get("seat") or "")), None)
    if other is None:
        abort(400)
    try:
        talk_moderation.mute(game.id, seat.index, g.player_id, other.index, on=request.form.get("on") == "1")
    except ServiceError as err:
        flash(said(err), "error")
    return _back(game, seat)


@bp.route("/games/<int:game_id>/seat/<int:number>/hide/<int:message_id>", methods=["POST"])
@login_required
def hide(game_id: int, number: int, message_id: int):
    """The host hides (``on=1``) or shows again a message of their thread."""
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    if not any(line.id == message_id for line in talk_read.messages_for(game, seat.index, g.player_id,
                                                                       limit=10_000, with_muted=True)):
        abort(404)
    try:
        talk_moderation.hide_message(game.id, message_id, by_player_id=g.player_id,
                                     hidden=request.form.get("on") == "1")
    except ServiceError as err:
        flash(said(err), "error")
    return _back(game, seat)


@bp.route("/games/<int:game_id>/seat/<int:number>/talk.json")
@login_required
def thread_json(game_id: int, number: int):
    """The seat's thread: ``{"mode", "messages": [{"id", "seat", "to_all",
    "to", "body", "hidden", "at"}]}`` (seats as players count them, ``at``
    ISO 8601 UTC); ``?after=<id>`` only newer ones."""
    game = get_game_or_404(game_id)
    seat = my_seat(game, number)
    after = request.args.get("after", "0")
    lines = talk_read.messages_for(game, seat.index, g.player_id, after_id=int(after) if after.isdigit() else 0)
    return jsonify({"mode": game.talk, "messages": [
        {"id": m.id, "seat": m.seat + 1, "to_all": m.to_all, "to": [i + 1 for i in m.to], "body": m.body,
         "hidden": m.hidden, "at": m.created_at.isoformat()} for m in lines]})


@bp.route("/games/<int:game_id>/talk-setting", methods=["POST"])
@login_required
def setting(game_id: int):
    """The host sets the game's table talk (``mode``: full, public, none)."""
    game = get_game_or_404(game_id)
    try:
        talk_moderation.set_talk(game.id, request.form.get("mode", ""), by_player_id=g.player_id)
    except ServiceError as err:
        flash(said(err), "error")
    else:
        flash(gettext("The table talk setting is saved."))
    return redirect(url_for("games.show", game_id=game.id) + "#host-talk")
