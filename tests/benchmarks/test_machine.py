"""`pbem bench engine --machine` says what machine a figure was taken on:
the CPU, the Python and a yardstick loop's time (pbem_dev/bench/machine.py)."""
import re

from click.testing import CliRunner

from pbem_dev.bench import machine
from pbem_dev.bench.cli import bench


def test_machine_line_comes_first_and_the_agreed_line_stays_last(monkeypatch):
    monkeypatch.setattr(machine, "STEPS", 20_000)
    res = CliRunner().invoke(bench, ["engine", "--game", "medina", "--seats", "3", "--games", "1",
                                     "--machine"])
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert re.fullmatch(r"machine: .+, \w+ 3\.\d+\.\d+\S*; yardstick \d+\.\d\d s \(20,000-step .+\)", lines[0]), lines[0]
    assert re.fullmatch(r"medina: [\d.]+ games/s, .+ us per legal_actions call", lines[-1]), lines[-1]


def test_without_the_flag_no_machine_line():
    res = CliRunner().invoke(bench, ["engine", "--game", "medina", "--seats", "3", "--games", "1"])
    assert res.exit_code == 0 and "machine:" not in res.output


def test_cpu_reads_model_and_clock_from_cpuinfo(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: AMD EPYC 7B13\ncpu MHz\t\t: 2449.998\n"
                    "processor\t: 1\nmodel name\t: other\ncpu MHz\t\t: 1.0\n")
    assert machine.cpu(info) == "AMD EPYC 7B13 at 2450 MHz"


def test_cpu_without_cpuinfo_still_names_something(tmp_path):
    assert machine.cpu(tmp_path / "missing")


def test_yardstick_grows_with_the_loop(monkeypatch):
    monkeypatch.setattr(machine, "STEPS", 1_000)
    short = machine.yardstick(repeat=5)
    monkeypatch.setattr(machine, "STEPS", 2_000_000)
    assert machine.yardstick(repeat=1) > short > 0
