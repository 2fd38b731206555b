"""``pbem bot --api URL --token T``: play your seats through the public API
alone, with a random legal order at every decision (:mod:`pbem.cli.api_client`;
issue 28, docs/api.md). The token must be allowed to send orders."""
from __future__ import annotations

import random

import click

from pbem.cli.api_client import ApiBot, ApiError, http_transport


@click.command()
@click.option("--api", "api", required=True, help="the site's address, e.g. http://127.0.0.1:5000")
@click.option("--token", required=True, envvar="PBEM_TOKEN", help="a token from your tokens page (or PBEM_TOKEN)")
@click.option("--game", type=int, default=None, help="play this game only")
@click.option("--seed", type=int, default=None, help="seed of the random choices")
@click.option("--poll", type=float, default=10.0, show_default=True, help="seconds between looks when nothing is owed")
@click.option("--once", is_flag=True, help="make the decisions owed now, then stop")
def bot(api: str, token: str, game: int | None, seed: int | None, poll: float, once: bool) -> None:
    """Play your seats through the API with random legal orders until the games end."""
    player = ApiBot(http_transport(api), token, game=game, rng=random.Random(seed), say=click.echo)
    try:
        if once:
            player.play_once()
        else:
            player.run(poll=poll)
    except ApiError as err:
        raise click.ClickException(str(err))
    click.echo(f"{player.decisions} decisions sent")
