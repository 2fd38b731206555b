"""The ``pbem`` command. Each command group lives in its own module and is
added here, so areas do not collide: ``bench`` (pbem/cli/bench.py),
``demo`` (pbem/cli/demo.py), ``dev`` (pbem/cli/dev.py), ``mail`` (pbem/cli/mail.py)."""
from __future__ import annotations

import importlib

import click


@click.group()
def main() -> None:
    """pbem — play-by-email board games."""


# module -> attribute holding a click command or group
for _module, _attr in [
    ("pbem.cli.bench", "bench"),
    ("pbem.cli.demo", "demo"),
    ("pbem.cli.dev", "dev"),
    ("pbem.cli.mail", "mail"),
    ("pbem.cli.service", "service"),
]:
    try:
        main.add_command(getattr(importlib.import_module(_module), _attr))
    except ModuleNotFoundError as exc:  # area not built yet in this checkout
        if exc.name != _module:
            raise
