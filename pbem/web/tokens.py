"""The tokens page: a player's personal access tokens for the public API
(issue 28; docs/api.md), linked from the account page.

- ``GET /account/tokens``: the player's tokens (name, first characters,
  scope, game, expiry, last use, revoked), a form for a new one, and the
  API's documentation link.
- ``POST /account/tokens``: create one (:func:`pbem.service.accounts.tokens.
  create_token`); the answer shows the token once, with ``no-store``.
- ``POST /account/tokens/<id>/revoke``: revoke one of the player's own.

A full sign-in is needed (a seat-only session from a turn mail does not
reach this page, :mod:`pbem.web.scope`); every form carries a CSRF token.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext

from pbem.service.accounts import tokens as api_tokens
from pbem.service.core.api_models import SCOPE_ORDER, SCOPE_READ
from pbem.service.core.errors import ServiceError
from pbem.service.play.queries import seats_of
from pbem.web.extensions import login_required
from pbem.web.language import said
from pbem.web.locale import no_store

bp = Blueprint("tokens", __name__)

SCOPE_LABELS = {
    SCOPE_READ: lazy_gettext("Read: my games, my seats' views, the legal orders, the history"),
    SCOPE_ORDER: lazy_gettext("Read and send orders"),
}


def _games() -> list[tuple[int, str]]:
    """The games the player holds a seat in, for the "only this game" choice."""
    seen: dict[int, str] = {}
    for seat in seats_of(g.player.id):
        game = seat.game
        seen.setdefault(game.id, f"{game.id}: {game.title or game.kind}")
    return list(seen.items())


def _page(*, new_token: str | None = None, problem: str | None = None, status: int = 200):
    return no_store(render_template(
        "web/tokens.html", tokens=api_tokens.tokens_of(g.player.id), scopes=SCOPE_LABELS, games=_games(),
        new_token=new_token, problem=problem, live=api_tokens.is_live, default_days=api_tokens.DEFAULT_DAYS,
        max_days=api_tokens.MAX_DAYS, form=request.form if problem else {})), status


@bp.route("/account/tokens", methods=["GET"])
@login_required
def index():
    return _page()


@bp.route("/account/tokens", methods=["POST"])
@login_required
def create():
    form = request.form
    game = form.get("game") or ""
    try:
        _row, token = api_tokens.create_token(
            g.player.id, form.get("name", ""), form.get("scope", ""),
            game_id=int(game) if game.isdigit() else None, days=form.get("days") or api_tokens.DEFAULT_DAYS)
    except ServiceError as err:
        return _page(problem=said(err), status=400)
    return _page(new_token=token)


@bp.route("/account/tokens/<int:token_id>/revoke", methods=["POST"])
@login_required
def revoke(token_id: int):
    try:
        api_tokens.revoke_token(g.player.id, token_id)
    except ServiceError:
        abort(404)   # not one of the player's tokens: as if there were none
    flash(gettext("The token is revoked: it opens nothing any more."))
    return redirect(url_for("tokens.index"))
