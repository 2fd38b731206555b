"""An idle CPU group for the bench's mail worker.

Linux schedules groups before processes: each cgroup, and without cgroups
each session (an *autogroup*, ``/proc/sys/kernel/sched_autogroup_enabled``),
first gets its share of the CPU as a whole, and only inside it do nice
levels and SCHED_IDLE rank its processes. A worker started in a session of
its own under ``chrt --idle 0`` is therefore idle only against itself: its
group competes with the web server's and PostgreSQL's as an equal. What
makes it yield is an idle *group*: a cgroup with ``cpu.idle`` set (what
systemd's ``CPUWeight=idle`` does for a unit), or, without a writable
cgroup, its autogroup at nice 19 (a weight of 15 against 1024).

:func:`idle_group` makes the best of these the machine allows;
:meth:`IdleGroup.wrap` prefixes a command line so the process joins the group
before it execs (its children, e.g. Celery's pool, inherit it).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: where a cgroup v1 cpu hierarchy, or the cgroup v2 root, is mounted
CGROUP_V1_CPU = Path("/sys/fs/cgroup/cpu")
CGROUP_V2 = Path("/sys/fs/cgroup")


@dataclass
class IdleGroup:
    """``how``: ``cgroup cpu.idle`` (``path`` is the cgroup), ``autogroup
    nice 19``, or ``none`` (neither is possible here)."""

    how: str
    path: Path | None = None

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` run by a shell that first moves itself into the group,
        then execs it (same pid)."""
        if self.path is not None:
            return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.path / "cgroup.procs"), *argv]
        if self.how.startswith("autogroup"):
            # the new session's own autogroup (start_new_session): only this process is in it
            return ["sh", "-c", 'echo 19 > /proc/self/autogroup && exec "$@"', "sh", *argv]
        return list(argv)

    def move(self, pid: int) -> None:
        """Move the running process ``pid`` into the group (its autogroup:
        the whole session of ``pid``). Never raises."""
        try:
            if self.path is not None:
                (self.path / "cgroup.procs").write_text(str(pid))
            elif self.how.startswith("autogroup"):
                Path(f"/proc/{pid}/autogroup").write_text("19")
        except OSError:
            pass

    def parent(self) -> Path | None:
        """The cgroup this one was made in (to move a process back), or ``None``."""
        return None if self.path is None else self.path.parent

    def remove(self) -> None:
        """Delete the cgroup (once its processes have exited)."""
        if self.path is not None:
            try:
                self.path.rmdir()
            except OSError:
                pass


def _cgroup_bases() -> list[Path]:
    bases = []
    if (CGROUP_V1_CPU / "cpu.idle").exists():
        bases.append(CGROUP_V1_CPU)
    controllers = CGROUP_V2 / "cgroup.subtree_control"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        bases.append(CGROUP_V2)
    return bases


def idle_group(name: str) -> IdleGroup:
    """A fresh idle CPU group called ``name``: a cgroup with ``cpu.idle``
    if one can be made here (root, a cpu controller that has ``cpu.idle``:
    Linux 5.15+), else the process's autogroup at nice 19 if autogroups are
    on, else none. Never raises."""
    for base in _cgroup_bases():
        path = base / name
        try:
            path.mkdir(exist_ok=True)
            (path / "cpu.idle").write_text("1")
            return IdleGroup("cgroup cpu.idle", path)
        except OSError:
            IdleGroup("", path).remove()
    try:
        if Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1":
            return IdleGroup("autogroup nice 19")
    except OSError:
        pass
    return IdleGroup("none")


__all__ = ["IdleGroup", "idle_group"]
