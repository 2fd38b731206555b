"""Fingerprint of random Die Stadt games: every legal-order list, event text
and final JSON, hashed. Same engine behaviour = same digest (used to check
that a speed change alters nothing). Usage: python -m pbem_dev.bench.ds_hash [games]"""
import hashlib
import random
import sys

from pbem.engine import get_game


def digest(games: int = 100, seats: int = 4) -> str:
    h = hashlib.sha256()
    game = get_game("diestadt")
    for g in range(games):
        rng = random.Random(g)
        st = game.new_state(seats, g)
        while not st.is_terminal():
            cur = st.current_seats()
            seat = cur[0] if len(cur) == 1 else rng.choice(cur)
            acts = st.legal_actions(seat)
            h.update(repr(acts).encode())
            for ev in st.apply(seat, acts[rng.randrange(len(acts))]):
                h.update(repr(ev).encode())
        h.update(st.to_json().encode())
    return h.hexdigest()


if __name__ == "__main__":
    print(digest(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
