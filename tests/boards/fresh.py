"""A board picture drawn in a fresh Python process: what a determinism test
compares against, since two calls in one process share everything (caches,
the string-hash seed that orders sets) and so cannot disagree."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fresh_output(code: str, hash_seed: str) -> bytes:
    """What ``code`` (Python source, run from the checkout's root so
    ``tests.boards`` imports) writes to stdout, in a new interpreter whose
    ``PYTHONHASHSEED`` is ``hash_seed``. Raises ``CalledProcessError`` when
    it fails."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          check=True, timeout=120).stdout
