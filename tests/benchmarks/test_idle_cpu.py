"""The bench's idle CPU group for the mail worker (pbem_dev/bench/idle_cpu.py): a
process started through :meth:`IdleGroup.wrap` is in the group before it
runs its own code."""
from __future__ import annotations

import os
import subprocess

import pytest

from pbem_dev.bench.idle_cpu import IdleGroup, idle_group


def test_wrap_keeps_the_command_and_execs_it_in_place():
    argv = ["celery", "-A", "worker", "worker", "--loglevel", "info"]
    assert IdleGroup("none").wrap(argv) == argv
    wrapped = IdleGroup("autogroup nice 19").wrap(argv)
    assert wrapped[:2] == ["sh", "-c"] and wrapped[-len(argv):] == argv and "exec" in wrapped[2]


@pytest.mark.parametrize("cgroups", [True, False], ids=["cgroup", "autogroup-fallback"])
def test_a_wrapped_process_runs_in_the_idle_group(cgroups, monkeypatch, tmp_path):
    if not cgroups:  # no writable cgroup: the autogroup at nice 19 is the fallback
        from pbem_dev.bench import idle_cpu

        monkeypatch.setattr(idle_cpu, "CGROUP_V1_CPU", tmp_path / "no-v1")
        monkeypatch.setattr(idle_cpu, "CGROUP_V2", tmp_path / "no-v2")
    group = idle_group(f"pbem-test-idle-{os.getpid()}")
    if group.how == "none":
        pytest.skip("this machine allows neither a cpu.idle cgroup nor autogroups")
    try:
        probe = "/proc/self/cgroup" if group.path is not None else "/proc/self/autogroup"
        out = subprocess.run(group.wrap(["cat", probe]), capture_output=True, text=True, check=True,
                             start_new_session=True).stdout
        if group.path is not None:
            assert (group.path / "cpu.idle").read_text().strip() == "1"
            assert any(line.endswith("/" + group.path.name) for line in out.splitlines()), out
        else:
            assert out.strip().endswith("nice 19"), out
    finally:
        group.remove()
    if group.path is not None:
        assert not group.path.exists()


def test_a_running_process_is_moved_into_the_idle_group():
    # the bench starts its bulk worker at normal priority and moves it once ready
    group = idle_group(f"pbem-test-move-{os.getpid()}")
    if group.how == "none":
        pytest.skip("this machine allows neither a cpu.idle cgroup nor autogroups")
    proc = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        group.move(proc.pid)
        if group.path is not None:
            lines = open(f"/proc/{proc.pid}/cgroup").read().splitlines()
            assert any(line.endswith("/" + group.path.name) for line in lines), lines
        else:
            assert open(f"/proc/{proc.pid}/autogroup").read().strip().endswith("nice 19")
    finally:
        proc.kill()
        proc.wait()
        group.remove()
