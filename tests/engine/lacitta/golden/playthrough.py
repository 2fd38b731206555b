"""Golden La Città playthroughs: a seeded game as text (orders, events with
their audience, and every seat's view at the end of each year).

``render(seats, seed, setup, orders)`` replays ``orders`` (``(seat, text)``)
and returns the transcript; ``choose(...)`` makes the orders of a new game.
Regenerate the stored files (only after a deliberate rules change, reviewing
the diff) with::

    .venv/bin/python -m tests.engine.lacitta.golden.playthrough
"""
from __future__ import annotations

import random
import re
from pathlib import Path

from pbem.engine import get_game

G = get_game("lacitta")
HERE = Path(__file__).parent
GAMES = [("2p-beginner", 2, 101, "beginner"), ("3p-experienced", 3, 202, "experienced"),
         ("5p-beginner", 5, 303, "beginner")]
_STEP = re.compile(r"^== step (\d+): seat (\d+): (.*)$")


def _events(lines, events):
    for e in events:
        who = "all" if e.seat is None else f"seat {e.seat + 1}"
        lines.append(f"  [{who}] {e.text}")


def _views(lines, s, title):
    for viewer in [*range(s.n), None]:
        lines.append(f"== view {'spectator' if viewer is None else f'seat {viewer + 1}'} {title}")
        lines.extend("  " + ln if ln else "" for ln in G.view_text(s.view(viewer)).rstrip("\n").split("\n"))


def render(seats: int, seed: int, setup: str, orders: list[tuple[int, str]]) -> str:
    s = G.new_state(seats, seed, setup=setup)
    lines = [f"# La Città golden playthrough: seats {seats}, seed {seed}, setup {setup}",
             "# regenerate: .venv/bin/python -m tests.engine.lacitta.golden.playthrough", "== setup"]
    from pbem.engine.api import Event
    _events(lines, [Event.from_dict(d) for d in s.setup_events])
    year = s.year
    for i, (seat, text) in enumerate(orders, 1):
        action = G.parse_action(s, seat, text)
        lines.append(f"== step {i}: seat {seat + 1}: {action.to_text()}")
        _events(lines, s.apply(seat, action))
        if s.year != year or s.is_terminal():
            _views(lines, s, "at game end" if s.is_terminal() else f"at start of year {s.year}")
            year = s.year
    lines.append("== scores")
    for sc in sorted(s.scores(), key=lambda x: (x.rank, x.seat)):
        lines.append(f"  rank {sc.rank}: seat {sc.seat + 1}, {sc.points} points, {sc.tiebreak} gold, {sc.detail}")
    return "\n".join(lines) + "\n"


def choose(seats: int, seed: int, setup: str) -> list[tuple[int, str]]:
    """Orders of a new game: random legal orders, preferring building."""
    s = G.new_state(seats, seed, setup=setup)
    rnd = random.Random(seed)
    orders = []
    while not s.is_terminal():
        seat = rnd.choice(s.current_seats())
        acts = s.legal_actions(seat)
        builds = [a for a in acts if a.verb in ("build", "card", "master", "found")]
        a = rnd.choice(builds) if builds and rnd.random() < 0.6 else rnd.choice(acts)
        orders.append((seat, a.to_text()))
        s.apply(seat, a)
    return orders


def read_orders(text: str) -> list[tuple[int, str]]:
    out = []
    for line in text.splitlines():
        m = _STEP.match(line)
        if m:
            out.append((int(m.group(2)) - 1, m.group(3)))
    return out


def main() -> None:
    for name, seats, seed, setup in GAMES:
        path = HERE / f"{name}.txt"
        path.write_text(render(seats, seed, setup, choose(seats, seed, setup)), encoding="utf-8")
        print("wrote", path)


if __name__ == "__main__":
    main()
