"""`pbem bench engine --warmup N` plays N untimed games first; the timed
games are the same games (the tables an engine keeps between games change
its speed, never its play)."""
import re

from click.testing import CliRunner

from pbem_dev.bench.cli import bench


def _decisions(*extra: str) -> str:
    res = CliRunner().invoke(bench, ["engine", "--game", "diestadt", "--seats", "2", "--games", "2",
                                     "--seed", "3", *extra])
    assert res.exit_code == 0, res.output
    m = re.search(r"games/s, ([\d.]+) decisions/game", res.output.strip().splitlines()[-1])
    assert m, res.output
    return m.group(1)


def test_warmup_games_leave_the_timed_games_unchanged():
    assert _decisions("--warmup", "3") == _decisions()


def test_a_different_seed_plays_other_games():
    # the check above could not fail if every seed played alike
    res = [_decisions()]
    for seed in ("4", "5", "6"):
        r = CliRunner().invoke(bench, ["engine", "--game", "diestadt", "--seats", "2", "--games", "2",
                                       "--seed", seed])
        res.append(re.search(r"([\d.]+) decisions/game", r.output).group(1))
    assert len(set(res)) > 1
