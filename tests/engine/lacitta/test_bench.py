"""`pbem bench engine` plays complete games and ends with the agreed line."""
import re

from click.testing import CliRunner

from pbem_dev.bench.cli import bench


def test_bench_engine_last_line():
    res = CliRunner().invoke(bench, ["engine", "--game", "lacitta", "--seats", "3", "--games", "2",
                                     "--seed", "4"])
    assert res.exit_code == 0, res.output
    last = res.output.strip().splitlines()[-1]
    assert re.fullmatch(r"lacitta: [\d.]+ games/s, [\d.]+ decisions/game, [\d.]+ us per legal_actions call",
                        last), last


def test_bench_refuses_unknown_game_and_seat_count():
    r = CliRunner().invoke(bench, ["engine", "--game", "nope", "--seats", "3", "--games", "1"])
    assert r.exit_code != 0 and "unknown game" in r.output
    r = CliRunner().invoke(bench, ["engine", "--game", "lacitta", "--seats", "9", "--games", "1"])
    assert r.exit_code != 0 and "2..5" in r.output
