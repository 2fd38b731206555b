"""What machine a benchmark figure was taken on (``pbem bench engine --machine``).

The machines this project measures on change speed between sessions and
even within an hour (the host shares its cores), so a games/s figure means
little without the speed of the machine that day. :func:`yardstick` times a
fixed pure-Python loop: a figure divided by another taken on the same day
compares code, and the yardstick compares days.
"""
from __future__ import annotations

import platform
import time
from pathlib import Path

#: additions in one yardstick loop
STEPS = 10_000_000


def yardstick(repeat: int = 3) -> float:
    """CPU seconds (process time) of the fastest of ``repeat`` runs of
    ``for i in range(STEPS): s += i`` in this function; 0.20 s on a quiet
    2.6 GHz EPYC with CPython 3.11.7 (docs/performance.md, fifth pass)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        s = 0
        for i in range(STEPS):
            s += i
        best = min(best, time.process_time() - t0)
    return best


def cpu(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """``"<model name> at <MHz> MHz"`` from ``cpuinfo`` (Linux), else the
    platform's processor name; ``"unknown CPU"`` when neither says."""
    model = mhz = None
    try:
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "model name" and model is None:
                model = value
            elif key == "cpu MHz" and mhz is None:
                mhz = value
    except OSError:
        pass
    model = model or platform.processor() or "unknown CPU"
    return f"{model} at {float(mhz):.0f} MHz" if mhz else model


def line() -> str:
    """``machine: <cpu>, <interpreter> <version>; yardstick <s> s (...)``."""
    return (f"machine: {cpu()}, {platform.python_implementation()} {platform.python_version()}; "
            f"yardstick {yardstick():.2f} s ({STEPS:,}-step pure-Python loop, best of 3, CPU time)")
