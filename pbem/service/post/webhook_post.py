"""What a game tells the webhooks of its players' tokens (issue 28;
docs/api.md): after each change (:func:`after_change`, called by
:func:`pbem.service.post.notify.after_change`), an outbox row of kind
``webhook`` per hook and event, in the transaction of the change:
``turn_resolved`` to every seat, ``your_move`` to each seat that owes a
decision now, ``game_over`` (only) at the end. The body names the game,
the seat, the step and the event, and nothing of any view: the client
asks the API for the rest. :mod:`pbem.service.post.webhook_delivery`
makes the calls with the outbox's retries.
"""
from __future__ import annotations

import datetime as dt
import json
from email.message import EmailMessage

from sqlalchemy import or_, select

from pbem.service.core.api_models import ApiToken, ApiWebhook
from pbem.service.core.db import db
from pbem.service.core.models import Game
from pbem.service.post.send import send

#: the pseudo address of a webhook row (never mailed: delivery calls the hook)
DOMAIN = "webhook.pbem.invalid"


def address(hook_id: int) -> str:
    return f"hook-{hook_id}@{DOMAIN}"


def hook_of(recipient: str) -> int | None:
    """The hook id a row's recipient names (``None``: not a webhook row)."""
    local, _, domain = recipient.strip().partition("@")
    if domain != DOMAIN or not local.startswith("hook-") or not local[5:].isdigit():
        return None
    return int(local[5:])


def _hooks(game: Game, now: dt.datetime) -> list[tuple[ApiWebhook, int]]:
    """Live hooks of the game's players' live tokens that reach the game,
    with the player's id. No query when no player at the table has ever
    registered one (``Player.api_webhooks``; the seats bring their players)."""
    players = {s.player_id for s in game.seats if s.player.api_webhooks}
    if not players:
        return []
    rows = db.session.execute(
        select(ApiWebhook, ApiToken.player_id).join(ApiToken, ApiWebhook.token_id == ApiToken.id)
        .where(ApiToken.player_id.in_(players), ApiToken.revoked_at.is_(None), ApiToken.expires_at > now,
               ApiWebhook.disabled_at.is_(None), or_(ApiToken.game_id.is_(None), ApiToken.game_id == game.id))
    ).all()
    return [(hook, player) for hook, player in rows]


def after_change(game: Game, state, *, now: dt.datetime) -> None:
    """Queue the calls a change of ``game`` makes (none without hooks)."""
    hooks = _hooks(game, now)
    if not hooks:
        return
    over = state.is_terminal()
    current = set() if over else set(state.current_seats())
    for hook, player in hooks:
        for seat in game.seats:
            if seat.player_id != player:
                continue
            events = ["game_over"] if over else ["turn_resolved"] + (["your_move"] if seat.index in current else [])
            for event in events:
                _queue(game, hook, seat.number, event, now)


def _queue(game: Game, hook: ApiWebhook, number: int, event: str, now: dt.datetime) -> None:
    call_id = f"{game.id}-{game.step}-{number}-{event}"
    body = {"id": call_id, "event": event, "game": game.id, "seat": number, "step": game.step,
            "status": game.status, "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
            "at": now.isoformat(), "api": f"/api/v1/games/{game.id}/seats/{number}"}
    msg = EmailMessage()
    msg["To"] = address(hook.id)
    msg["Subject"] = event
    msg.set_content(json.dumps(body, sort_keys=True))
    send(msg, kind="webhook", dedupe_key=f"webhook:{hook.id}:{call_id}", player=None, now=now, game_id=game.id)
