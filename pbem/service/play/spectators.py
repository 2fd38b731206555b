"""Spectators (issue 25; docs/long-games.md): a host may make a game
watchable through a secret link, ``/watch/<token>``, which
shows the public view only (``state.view(None)``, the public log), with no
orders, messages or private panels (``<token>``: ``<game id>.<secret>``). The link is revocable (a new secret)
and the host may put spectators one turn behind.

The secret is an HMAC of ``games.spectator_nonce``
(:mod:`pbem.service.core.secret_links`); ``NULL`` there: not watchable.

**One turn behind** (``games.spectator_delay``): spectators see the board
as it stood when the previous turn began (``State.turn_key()`` marks the
turns), so the moves of the latest turn and of the running one reach them
a turn late; once the game is over they see the end.

Spectators get no game record while the game runs; a finished game's
record is public, like its page (:mod:`pbem.service.play.record`).
"""
from __future__ import annotations

import functools

from pbem.engine import get_game
from pbem.service.core import links, queue, secret_links
from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import ACTIVE, INVITED, PAUSED, Game, utcnow
from pbem.service.core.snapshot import load_game
from pbem.service.play.replay import moves_of
from pbem.service.post import watch_notice

#: what a host may do with the spectator link
ACTIONS = ("on", "renew", "off")


def spectator_path(game: Game) -> str | None:
    """The spectator page's path, ``None`` while the game is not watchable."""
    return secret_links.spectator_path(game.id, game.spectator_nonce)


def spectator_url(game: Game) -> str | None:
    path = spectator_path(game)
    return links.absolute(path) if path else None


def set_watchable(game_id: int, action: str, *, delay: bool | None = None, by_player_id: int | None = None) -> Game:
    """The host's switch: ``action`` ``on`` (a link, keeping one there is),
    ``renew`` (a new link; the old stops working) or ``off``; ``delay``
    (when not ``None``) sets "one turn behind". A new link is mailed to
    the host (:func:`pbem.service.post.watch_notice.tell`). Commits. Raises
    :class:`NotAllowed` for anyone but the host, ``ServiceError`` for an
    unknown action."""
    if action not in ACTIONS:
        raise ServiceError(f"unknown spectator action {action!r}")
    game = load_game(game_id, for_update=True)
    if by_player_id is not None and game.host_id != by_player_id:
        db.session.rollback()
        raise NotAllowed("only the host can do this")
    before = game.spectator_nonce
    if action == "off":
        game.spectator_nonce = None
    elif action == "renew" or not game.spectator_nonce:
        game.spectator_nonce = secret_links.new_nonce()
    if delay is not None:
        game.spectator_delay = bool(delay)
    new_link = bool(game.spectator_nonce) and game.spectator_nonce != before
    if new_link:  # the host gets it by mail too, to keep and forward
        watch_notice.tell(game, now=utcnow())
    db.session.commit()
    if new_link:
        queue.enqueue(queue.DELIVER)
    return game


def watched_game(token: str) -> Game | None:
    """The game ``token`` (``"<game id>.<secret>"``) opens for spectators,
    else ``None`` (no such game, not watchable, a revoked or wrong secret)."""
    parts = secret_links.split_token(token)
    if parts is None:
        return None
    game_id, secret = parts
    game = db.session.get(Game, game_id)
    if game is None or not secret_links.matches(secret_links.SPECTATOR, game.id, game.spectator_nonce, secret):
        return None
    return game


def shown_step(game: Game) -> int:
    """The state step spectators see: now, or with ``spectator_delay`` in a
    running game, where the previous turn began (:func:`turn_starts`)."""
    if game.state is None or not game.spectator_delay or game.status not in (ACTIVE, PAUSED, INVITED):
        return game.step
    starts = turn_starts(game.id, game.step, game.kind, str(game.seed), str(game.created_at))
    return starts[-2] if len(starts) >= 2 else starts[0]


@functools.lru_cache(maxsize=256)
def turn_starts(game_id: int, step: int, kind: str, seed: str, created: str) -> tuple[int, ...]:
    """The state steps where a turn began (``turn_key()`` changed), from
    the first to the current turn's, replayed from the action log up to
    ``step`` (cached per game and step; ``seed`` and ``created``, the
    game's, keep two databases' game 1 apart)."""
    game = load_game(game_id)
    engine = get_game(kind)
    state = engine.new_state(len(game.seats), game.seed, **game.options)
    starts, key = [state.step], state.turn_key()
    for move in moves_of(game_id, step):
        action = (state.default_action(move.seat_index) if move.source == "deadline"
                  and state.default_action(move.seat_index).to_text() == move.text
                  else engine.parse_action(state, move.seat_index, move.text))
        state.apply(move.seat_index, action)
        if state.turn_key() != key:
            starts.append(state.step)
            key = state.turn_key()
    return tuple(starts)
