"""``/api/v1/me``, ``/api/v1/games`` (my games: status, whose move, my
deadline) and ``/api/v1/games/<id>`` (a game's public view, what its page
shows everyone). Issue 28; docs/api.md."""
from __future__ import annotations

from flask import g

from pbem.i18n import translate
from pbem.service.core.models import ACTIVE, FINISHED, Game
from pbem.service.play.queries import seats_of
from pbem.web.api.access import game_or_problem, lang
from pbem.web.api.core import route
from pbem.web.api.schemas import GameList, GameSummary, Me, PublicGame, Score, SeatInfo, TokenInfo
from pbem.web.common import situation

ID = "int"   # BoundedInt (pbem.web.inputs): 0 to 2**31 - 1, as the OpenAPI document says


@route("/v1/me", answers={"HTTP_200": Me}, tags=("account",))
def me():
    """Who the token acts for

    The token's player (name, language, time zone) and the token itself
    (scope, game, expiry). A first request to try a token with."""
    token, player = g.api_token, g.api_token.player
    return Me(player=player.id, name=player.name, language=lang(), timezone=player.timezone or "UTC",
              token=TokenInfo(id=token.id, name=token.name, scope=token.scope, game=token.game_id,
                              expires_at=token.expires_at))


def summary(game: Game, mine: list[int], waiting: list[int], **extra) -> dict:
    """The fields of :class:`GameSummary` for ``game`` (``mine``: my seat
    numbers; ``waiting``: the 0-based seats that owe a decision)."""
    to_move = [i + 1 for i in waiting] if game.status == ACTIVE else []
    return dict(id=game.id, kind=game.kind, title=game.title or "", status=game.status, step=game.step,
                phase=translate(game.phase_message, lang()) if game.phase else "", my_seats=mine,
                to_move=to_move, my_move=any(n in to_move for n in mine),
                deadline=game.deadline_at if game.status == ACTIVE else None, **extra)


@route("/v1/games", answers={"HTTP_200": GameList}, tags=("games",))
def my_games():
    """My games

    Every game where I hold a seat (a token limited to one game: that
    one), newest first: status, whose move it is, my deadline."""
    token = g.api_token
    games: dict[int, tuple[Game, list[int]]] = {}
    for seat in seats_of(token.player_id):
        if token.game_id is None or seat.game_id == token.game_id:
            games.setdefault(seat.game_id, (seat.game, []))[1].append(seat.number)
    out = []
    for game, mine in games.values():
        out.append(GameSummary(**summary(game, sorted(mine), situation(game).waiting)))
    return GameList(games=out)


@route(f"/v1/games/<{ID}:game_id>", answers={"HTTP_200": PublicGame}, tags=("games",))
def public_game(game_id: int):
    """A game's public view

    What the game's page shows everyone: the seats and their players'
    names, whose move it is, the board's public state (``view``), and the
    scores once it is over. No seat's hidden information."""
    game = game_or_problem(game_id)
    sit = situation(game)
    mine = [s.number for s in game.seats if s.player_id == g.api_token.player_id]
    waiting = set(sit.waiting) if game.status == ACTIVE else set()
    seats = [SeatInfo(number=s.number, name=s.player.name or f"{s.number}", joined=s.joined,
                      to_move=s.index in waiting) for s in game.seats]
    scores = []
    if game.status == FINISHED and sit.state is not None:
        scores = [Score(seat=s.seat + 1, points=s.points, tiebreak=s.tiebreak, rank=s.rank)
                  for s in sorted(sit.state.scores(), key=lambda s: (s.rank, s.seat))]
    view = sit.state.view(None) if sit.state is not None else None
    return PublicGame(**summary(game, mine, sit.waiting), seats=seats, view=view, scores=scores)
