"""Golden playthroughs: a complete seeded Die Stadt game stored as text (orders,
events, every seat's view at intervals and at the end) and replayed by
test_golden.py.

Regenerate after an intended rule change, then read the diff::

    .venv/bin/python -m tests.engine.diestadt.golden
"""
from __future__ import annotations

import random
import re
from pathlib import Path

from pbem.engine import get_game

GAME = get_game("diestadt")
HERE = Path(__file__).parent / "golden"
CASES = {"diestadt-2seats-seed3.txt": (2, 3), "diestadt-3seats-seed5.txt": (3, 5),
         "diestadt-4seats-seed7.txt": (4, 7)}
VIEW_EVERY = 50
_ORDER = re.compile(r"^step (\d+) seat (\d+): (.+)$")


def transcript(seats: int, seed: int, orders: list[tuple[int, str]]) -> str:
    """The text of a game played from ``orders`` (seat index, order text)."""
    st = GAME.new_state(seats, seed)
    out = [f"# Die Stadt golden playthrough: {seats} seats, seed {seed}",
           "# regenerate: .venv/bin/python -m tests.engine.diestadt.golden"]

    def views(title: str) -> None:
        for seat in [None] + list(range(seats)):
            who = "spectator" if seat is None else f"seat {seat + 1}"
            out.append(f"== view {who} {title} ==")
            out.append(GAME.view_text(st.view(seat)))

    for n, (seat, order) in enumerate(orders):
        action = GAME.parse_action(st, seat, order)
        out.append(f"step {n} seat {seat + 1}: {action.to_text()}")
        for e in st.apply(seat, action):
            vis = "" if e.seat is None else f" (seat {e.seat + 1} only)"
            out.append(f"  {e.text}{vis}")
        if (n + 1) % VIEW_EVERY == 0:
            views(f"after step {n}")
    assert st.is_terminal(), "the stored orders do not finish the game"
    views("at the end")
    out.append("== scores ==")
    for s in st.scores():
        out.append(f"seat {s.seat + 1}: {s.points} points, rank {s.rank}, {s.detail}")
    return "\n".join(out) + "\n"


def orders_of(text: str) -> list[tuple[int, str]]:
    return [(int(m.group(2)) - 1, m.group(3)) for m in map(_ORDER.match, text.splitlines()) if m]


def random_orders(seats: int, seed: int) -> list[tuple[int, str]]:
    """A game by the seeded random policy (only used to make a new file)."""
    st = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    orders = []
    while not st.is_terminal():
        (seat,) = st.current_seats()
        a = rng.choice(st.legal_actions(seat))
        orders.append((seat, a.to_text()))
        st.apply(seat, a)
    return orders


def regenerate() -> None:
    HERE.mkdir(exist_ok=True)
    for name, (seats, seed) in CASES.items():
        path = HERE / name
        orders = orders_of(path.read_text()) if path.exists() else random_orders(seats, seed)
        path.write_text(transcript(seats, seed, orders))
        print(f"wrote {path}")


if __name__ == "__main__":
    regenerate()
