"""Golden playthroughs of every registered game: record, check, rewrite.

A golden playthrough is a whole seeded game stored as text in
``tests/engine/golden/``: a header naming the game, seats, seed and options;
every order with the events it caused (and who saw them); every seat's and a
spectator's view at the start, every ``VIEW_EVERY`` steps and at the end; and
the final scores. ``tests/engine/test_golden.py`` replays the stored orders
and fails with a diff when any line changed. Nothing here names a game.

    python -m tests.engine.playthroughs check              # replay and diff them all
    python -m tests.engine.playthroughs new medina --seats 3 --seed 11
    python -m tests.engine.playthroughs new lacitta --seats 2 --seed 101 --option setup=beginner
    python -m tests.engine.playthroughs write [FILE ...]   # after a deliberate rule change
    python -m tests.engine.playthroughs new pebbles --seats 2 --seed 5 --dir tests/toygame/golden
    python -m tests.engine.playthroughs check tests/toygame/golden/*.txt

``--dir`` keeps a game's files in a folder of its own (a game that is not
pbem's, like the tests' toy game); ``check`` and ``write`` take files.

``new`` plays random legal orders (seeded by ``--seed``) to the end; ``write``
re-renders files from their own orders (then read the diff before
committing).
"""
from __future__ import annotations

import argparse
import difflib
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pbem.engine import GAMES, State, get_game

HERE = Path(__file__).resolve().parent / "golden"
VIEW_EVERY = 40
_HEADER = re.compile(r"^# golden playthrough: game (\w+), seats (\d+), seed (\d+), options (none|.*=.*)$")
_STEP = re.compile(r"^== step (\d+): seat (\d+): (.*)$")


@dataclass(frozen=True)
class Playthrough:
    """What a golden file replays: the game, its settings and the orders
    (seat index, order text)."""

    game: str
    seats: int
    seed: int
    options: dict[str, str] = field(default_factory=dict)
    orders: tuple[tuple[int, str], ...] = ()

    @property
    def filename(self) -> str:
        values = "".join(f"-{v}" for _k, v in sorted(self.options.items()))
        return f"{self.game}-{self.seats}p-seed{self.seed}{values}.txt"

    def header(self) -> str:
        options = " ".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "none"
        return f"# golden playthrough: game {self.game}, seats {self.seats}, seed {self.seed}, options {options}"

    def new_state(self) -> State:
        return get_game(self.game).new_state(self.seats, self.seed, **self.options)


def _views(lines: list[str], state: State, when: str) -> None:
    game = state.game
    for viewer in [*range(state.seats), None]:
        who = "spectator" if viewer is None else f"seat {viewer + 1}"
        lines.append(f"== view {who} {when}")
        text = game.view_text(state.view(viewer)).rstrip("\n")
        lines.extend("  " + ln if ln else "" for ln in text.split("\n"))


def render(p: Playthrough) -> str:
    """The transcript of ``p``; ``ValueError`` when the orders do not
    finish the game. Order errors propagate (a stored order no longer legal)."""
    state = p.new_state()
    game = state.game
    lines = [p.header(),
             "# check: pytest tests/engine/test_golden.py; rewrite: python -m tests.engine.playthroughs write"]
    _views(lines, state, "at the start")
    for n, (seat, text) in enumerate(p.orders, 1):
        action = game.parse_action(state, seat, text)
        lines.append(f"== step {n}: seat {seat + 1}: {action.to_text()}")
        for e in state.apply(seat, action):
            lines.append(f"  [{'all' if e.seat is None else f'seat {e.seat + 1}'}] {e.text}")
        if n % VIEW_EVERY == 0 and not state.is_terminal():
            _views(lines, state, f"after step {n}")
    if not state.is_terminal():
        raise ValueError(f"{p.filename}: the orders end before the game does ({state.phase()})")
    _views(lines, state, "at the end")
    lines.append("== scores")
    for s in sorted(state.scores(), key=lambda s: (s.rank, s.seat)):
        lines.append(f"  rank {s.rank}: seat {s.seat + 1}, {s.points} points, tiebreak {s.tiebreak}, {s.detail}")
    return "\n".join(lines) + "\n"


def read(text: str) -> Playthrough:
    """The playthrough a stored transcript holds (header and orders)."""
    m = _HEADER.match(text.split("\n", 1)[0])
    if not m:
        raise ValueError("not a golden playthrough: the first line is not its header")
    options = {} if m.group(4) == "none" else dict(item.split("=", 1) for item in m.group(4).split())
    orders = tuple((int(s.group(2)) - 1, s.group(3)) for s in map(_STEP.match, text.splitlines()) if s)
    return Playthrough(m.group(1), int(m.group(2)), int(m.group(3)), options, orders)


def random_orders(p: Playthrough) -> tuple[tuple[int, str], ...]:
    """A whole game of random legal orders, seeded by ``p.seed``."""
    state = p.new_state()
    rng = random.Random(p.seed)
    orders = []
    while not state.is_terminal():
        seat = rng.choice(state.current_seats())
        action = rng.choice(state.legal_actions(seat))
        orders.append((seat, action.to_text()))
        state.apply(seat, action)
    return tuple(orders)


def stored() -> list[Path]:
    return sorted(HERE.glob("*.txt"))


def diff(path: Path) -> str:
    """Empty when ``path`` replays to the same text, else a unified diff."""
    old = path.read_text(encoding="utf-8")
    new = render(read(old))
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"stored {path.name}", "replayed", n=2))


def _new(args: argparse.Namespace) -> Path:
    game = get_game(args.game)
    options = game.check_settings(args.seats, dict(o.split("=", 1) for o in args.option))
    p = Playthrough(args.game, args.seats, args.seed, options)
    p = Playthrough(p.game, p.seats, p.seed, p.options, random_orders(p))
    folder = args.dir or HERE
    path = folder / p.filename
    folder.mkdir(exist_ok=True)
    path.write_text(render(p), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engine.playthroughs", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="replay every stored playthrough (or FILEs) and print any difference")
    c.add_argument("files", nargs="*", type=Path)
    w = sub.add_parser("write", help="re-render stored playthroughs from their own orders")
    w.add_argument("files", nargs="*", type=Path)
    n = sub.add_parser("new", help="record a new playthrough of random legal orders")
    n.add_argument("game", choices=sorted(GAMES))
    n.add_argument("--seats", type=int, required=True)
    n.add_argument("--seed", type=int, required=True)
    n.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    n.add_argument("--dir", type=Path, default=None, help=f"where to write it (default: {HERE.name}/ here)")
    args = parser.parse_args(argv)
    if args.command == "new":
        print("wrote", _new(args))
        return 0
    if args.command == "write":
        for path in args.files or stored():
            path.write_text(render(read(path.read_text(encoding="utf-8"))), encoding="utf-8")
            print("wrote", path)
        return 0
    paths = args.files or stored()
    failed = [path for path in paths if (d := diff(path)) and not print(d)]
    print(f"{len(paths) - len(failed)} of {len(paths)} playthroughs replay exactly")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
