"""Which games and seats a request's token reaches (issue 28): a game
limited token its game only (``game-not-allowed``), a seat only its own
player's (``not-your-seat``), an unknown game or seat ``not-found``.
Also the token owner's language, in which every text is written."""
from __future__ import annotations

from flask import g

from pbem.i18n import pick_language
from pbem.service.core.models import Game, Seat
from pbem.service.core.errors import GameNotFound
from pbem.service.core.snapshot import load_game
from pbem.service.play.reads import find_game
from pbem.web.api.problems import ApiProblem


def lang() -> str:
    """The token owner's language code."""
    return pick_language(g.api_token.player.language)


def game_or_problem(game_id: int, *, locked: bool = False) -> Game:
    """Game ``game_id`` when the token reaches it (any game's public view:
    games are public, as their pages are). ``locked``: the row locked and
    read with its seats and players (:func:`pbem.service.core.snapshot.
    load_game`), for orders that go on in the same transaction."""
    token = g.api_token
    if token.game_id is not None and token.game_id != game_id:
        raise ApiProblem("game-not-allowed", f"This token reaches game {token.game_id} only.")
    if locked:
        try:
            return load_game(game_id, for_update=True)
        except GameNotFound:
            raise ApiProblem("not-found", f"There is no game {game_id}.") from None
    game = find_game(game_id)
    if game is None:
        raise ApiProblem("not-found", f"There is no game {game_id}.")
    return game


def my_seat(game_id: int, number: int, *, locked: bool = False) -> tuple[Game, Seat]:
    """The game and its seat ``number`` (from 1) when the token's player
    holds it (``locked``: see :func:`game_or_problem`)."""
    game = game_or_problem(game_id, locked=locked)
    seat = next((s for s in game.seats if s.number == number), None)
    if seat is None:
        raise ApiProblem("not-found", f"Game {game_id} has no seat {number}.")
    if seat.player_id != g.api_token.player_id:
        raise ApiProblem("not-your-seat", "This is another player's seat.")
    return game, seat
