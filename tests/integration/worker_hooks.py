"""Test hooks loaded into a real ``celery -A worker worker`` process with
``-I tests.integration.worker_hooks`` (never in production).

- registers the Tally test game (tests/service/tinygame.py), so the worker
  can resolve the games the tests create;
- ``PBEM_TEST_PAUSE_DIR=<dir>``: a resolution stops *inside its
  transaction*, after it has claimed the turn and before the notices are
  written and the transaction commits. It creates ``<dir>/paused-<pid>``
  and waits until ``<dir>/release`` exists, so a test can SIGKILL the
  worker in the middle of a resolution.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from pbem.engine import GAMES
from tests.service.tinygame import GAME as TALLY

GAMES.setdefault("tally", TALLY)

_pause_dir = os.environ.get("PBEM_TEST_PAUSE_DIR")
if _pause_dir:
    from pbem.service.post import notify

    _after_change = notify.after_change

    def after_change(*args, **kwargs):  # called by resolve_game after the claiming UPDATE
        directory = Path(_pause_dir)
        (directory / f"paused-{os.getpid()}").write_text(str(time.time()))
        while not (directory / "release").exists():
            time.sleep(0.05)
        return _after_change(*args, **kwargs)

    notify.after_change = after_change
