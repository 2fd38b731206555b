"""Same seed + same orders = same game, byte for byte — also across Python
processes with different string-hash seeds (no set order leaks into play)."""
import os
import subprocess
import sys

SCRIPT = r"""
import hashlib, random
from pbem.engine import get_game
g = get_game("lacitta")
h = hashlib.sha256()
for i in range(4):
    s = g.new_state(2 + i, 40 + i, setup=["beginner", "experienced"][i % 2]); r = random.Random(i)
    while not s.is_terminal():
        seat = r.choice(s.current_seats())
        a = s.legal_actions(seat)
        x = s.default_action(seat) if r.random() < 0.1 else a[r.randrange(len(a))]
        for e in s.apply(seat, x):
            h.update(e.text.encode())
        h.update(s.to_json().encode())
print(h.hexdigest())
"""


def test_same_game_under_different_hash_seeds():
    out = set()
    for hs in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        res = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                             check=True, timeout=300)
        out.add(res.stdout.strip())
    assert len(out) == 1
