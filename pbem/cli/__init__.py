"""The ``pbem`` command. Each command group lives in its own module and is
added here with one line in :data:`COMMANDS`, so areas do not collide:
``bench`` (pbem_dev/bench/cli.py, the benchmarks beside the product), ``demo`` (pbem/cli/demo.py), ``dev``
(pbem/cli/dev.py), ``mail`` (pbem/cli/mail.py), ``replay`` (pbem/cli/replay.py: check a game record), ``service``
(pbem/cli/service.py)."""
from __future__ import annotations

import importlib

import click


@click.group()
def main() -> None:
    """pbem — play-by-email board games."""


#: module -> attribute holding a click command or group. A missing module or
#: attribute is an error when ``pbem`` starts (:func:`add_commands`).
COMMANDS: list[tuple[str, str]] = [
    ("pbem_dev.bench.cli", "bench"),
    ("pbem.cli.bot", "bot"),
    ("pbem.cli.demo", "demo"),
    ("pbem.cli.dev", "dev"),
    ("pbem.cli.mail", "mail"),
    ("pbem.cli.replay", "replay"),
    ("pbem.cli.service", "service"),
]


def add_commands(group: click.Group, commands: list[tuple[str, str]]) -> None:
    """Add each ``(module, attribute)`` command to ``group``. Raises
    ``ImportError`` for a module that does not import, or an attribute that
    is missing or not a click command, and ``ValueError`` for two commands
    of one name."""
    for module, attr in commands:
        command = getattr(importlib.import_module(module), attr, None)
        if not isinstance(command, click.Command):
            raise ImportError(f"command {module}.{attr} is not a click command (found {command!r})")
        if command.name in group.commands:
            raise ValueError(f"two commands named {command.name!r} ({module}.{attr})")
        group.add_command(command)


add_commands(main, COMMANDS)
