"""Golden playthroughs of every game (tests/engine/golden/, made and
rewritten by tests/engine/playthroughs.py): the stored orders replay to the
stored text, line for line. Never rewrites a file."""
from __future__ import annotations

import pytest

from pbem.engine import ENGINES, GAMES
from tests.engine.playthroughs import HERE, Playthrough, diff, main, read, render, stored


@pytest.mark.slow
@pytest.mark.parametrize("path", stored(), ids=lambda p: p.stem)
def test_stored_playthrough_replays_exactly(path):
    p = read(path.read_text(encoding="utf-8"))
    assert p.game in GAMES, f"{path.name} is of an unregistered game"
    assert path.name == p.filename
    assert len(p.orders) > 50
    problem = diff(path)
    assert not problem, f"{path.name} differs from its replay:\n{problem[:6000]}"


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_game_of_pbem_has_a_golden_playthrough(name):
    """pbem's own games (a game registered from outside, like the tests'
    toy game, keeps its golden files in its own folder, if it has any)."""
    assert any(read(path.read_text(encoding="utf-8")).game == name for path in stored()), \
        f"record one: python -m tests.engine.playthroughs new {name} --seats N --seed S"


def test_a_changed_event_line_shows_in_the_diff(tmp_path):
    path = stored()[0]
    text = path.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("  [all] "))
    changed = tmp_path / path.name
    changed.write_text(text.replace(line, line + " (changed)", 1), encoding="utf-8")
    assert "(changed)" in diff(changed)


def test_new_records_a_whole_game_that_reads_back(tmp_path, monkeypatch, capsys):
    import tests.engine.playthroughs as tool

    monkeypatch.setattr(tool, "HERE", tmp_path)
    name = sorted(GAMES)[0]
    game = GAMES[name]
    assert main(["new", name, "--seats", str(game.min_seats), "--seed", "5"]) == 0
    (path,) = tmp_path.glob("*.txt")
    p = read(path.read_text(encoding="utf-8"))
    assert (p.game, p.seats, p.seed, p.options) == (name, game.min_seats, 5, game.default_options())
    assert render(p) == path.read_text(encoding="utf-8")
    assert main(["check"]) == 0 and "1 of 1 playthroughs replay exactly" in capsys.readouterr().out


def test_orders_that_stop_early_are_refused():
    p = read(stored()[0].read_text(encoding="utf-8"))
    short = Playthrough(p.game, p.seats, p.seed, p.options, p.orders[:5])
    with pytest.raises(ValueError, match="end before the game does"):
        render(short)
    assert HERE.is_dir()
