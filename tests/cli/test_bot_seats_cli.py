"""`pbem service new-game --seat bot:greedy` seats a bot (issue 27)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config


@pytest.fixture
def env(tmp_path, monkeypatch):
    for k, v in {"PBEM_INSTANCE_PATH": str(tmp_path / "inst"),
                 "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite'}",
                 "PBEM_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
                 "PBEM_SECRET_KEY": "cli-secret", "PBEM_CELERY_EAGER": "1", "PBEM_SMTP_PORT": "1",
                 "PBEM_BOT_SECONDS": "0.05"}.items():
        monkeypatch.setenv(k, v)
    from pbem.service.core.migrate import upgrade

    upgrade(f"sqlite:///{tmp_path / 'cli.sqlite'}")


def test_new_game_seats_bots_and_refuses_a_table_of_bots(env):
    runner = CliRunner()
    made = runner.invoke(main, ["service", "new-game", "--game", "medina", "--host", "ada@example.org",
                                "--seat", "Ada <ada@example.org>", "--seat", "bot:greedy", "--seat", "bot:standard",
                                "--no-bot-takeover"])
    assert made.exit_code == 0, made.output
    assert "(active)" in made.output
    listed = runner.invoke(main, ["service", "games"]).output
    assert "greedy@bots.invalid" in listed
    bots = runner.invoke(main, ["service", "new-game", "--game", "medina", "--host", "ada@example.org",
                                "--seat", "bot:greedy", "--seat", "bot:random", "--seat", "bot:standard"])
    assert bots.exit_code != 0 and "at least one person" in bots.output


@pytest.mark.parametrize("value, ok", [("0.5", True), ("0", False), ("-1", False), ("x", False), ("4000", False)])
def test_bot_seconds_setting(tmp_path, value, ok):
    if ok:
        assert load_config(tmp_path, {"PBEM_BOT_SECONDS": value})["BOT_SECONDS"] == float(value)
    else:
        with pytest.raises(ValueError, match="PBEM_BOT_SECONDS"):
            load_config(tmp_path, {"PBEM_BOT_SECONDS": value})
