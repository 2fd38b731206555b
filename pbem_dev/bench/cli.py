"""``pbem bench``: benchmarks (figures go into docs/performance.md). Added to the
``pbem`` command by :data:`pbem.cli.COMMANDS`."""
from __future__ import annotations


import click


@click.group()
def bench() -> None:
    """Benchmarks."""


@bench.command("engine")
@click.option("--game", "game_name", required=True, help="registered game name, e.g. lacitta")
@click.option("--seats", type=int, required=True, help="number of seats")
@click.option("--games", type=int, default=100, show_default=True, help="games to play")
@click.option("--seed", type=int, default=0, show_default=True, help="first seed")
@click.option("--option", "opts", multiple=True, metavar="KEY=VALUE", help="game option, e.g. setup=experienced")
@click.option("--profile", is_flag=True, help="print a cProfile summary (slower)")
@click.option("--warmup", type=int, default=0, show_default=True,
              help="games played first, untimed (other seeds), as a long-running worker has")
@click.option("--machine", is_flag=True,
              help="first print the CPU, the Python and a yardstick loop's time, to compare days")
def engine(game_name: str, seats: int, games: int, seed: int, opts: tuple[str, ...], profile: bool,
           warmup: int, machine: bool) -> None:
    """Play GAMES random legal games from setup to scoring on one core.

    The last line is ``<game>: <games/s> games/s, <decisions/game>
    decisions/game, <µs> us per legal_actions call``. By default the games
    start in a fresh process; ``--warmup N`` first plays N untimed games
    with other seeds, so the tables an engine keeps between games are as
    full as in a worker that has run for a while. ``--machine`` first
    prints a ``machine:`` line (pbem_dev/bench/machine.py): this machine's speed
    changes from day to day, so a figure is recorded with it.
    """
    from pbem_dev.bench.engine import play_random
    from pbem.engine import GAMES

    if game_name not in GAMES:
        raise click.BadParameter(f"unknown game; known: {', '.join(sorted(GAMES))}", param_hint="--game")
    g = GAMES[game_name]
    if not g.min_seats <= seats <= g.max_seats:
        raise click.BadParameter(f"{g.title} takes {g.min_seats}..{g.max_seats} seats", param_hint="--seats")
    options = dict(o.split("=", 1) for o in opts)
    if machine:
        from pbem_dev.bench.machine import line
        click.echo(line())
    if warmup > 0:
        play_random(game_name, seats, warmup, seed + 1_000_003, **options)
    if profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        result = play_random(game_name, seats, games, seed, **options)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    else:
        result = play_random(game_name, seats, games, seed, **options)
    click.echo(f"{result.games} games, {result.seats} seats, {result.seconds:.2f} s")
    click.echo(result.line())


# ``pbem bench service``: the production-stack load benchmark (pbem_dev/bench/service_command.py)
from pbem_dev.bench.service_command import service as _service  # noqa: E402

bench.add_command(_service)

# ``pbem bench inbound``: the inbound parser on hostile mail (pbem_dev/bench/inbound.py)
from pbem_dev.bench.inbound import inbound as _inbound  # noqa: E402

bench.add_command(_inbound)

# ``pbem bench bots``: bot tournaments (pbem_dev/bench/bots.py, docs/bots.md)
from pbem_dev.bench.bots import bots as _bots  # noqa: E402

bench.add_command(_bots)

# ``pbem bench search``: what search pays per engine operation (pbem_dev/bench/search_ops.py)
from pbem_dev.bench.search_ops import search as _search  # noqa: E402

bench.add_command(_search)

# ``pbem bench page``: order page weight and render time (pbem_dev/bench/page.py)
from pbem_dev.bench.page import page as _page  # noqa: E402

bench.add_command(_page)


if __name__ == "__main__":   # python -m pbem_dev.bench.cli ...: this bench on the pbem first on sys.path
    bench()
