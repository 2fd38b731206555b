"""Command groups are added from one list (pbem/cli/__init__.py); a misspelt
one is an error when ``pbem`` starts, not a missing command."""
from __future__ import annotations

import click
import pytest

from pbem.cli import COMMANDS, add_commands, main


def test_every_listed_command_is_there():
    names = {attr for _module, attr in COMMANDS}
    assert names <= set(main.commands)


@pytest.mark.parametrize(("entry", "error"), [
    (("pbem.cli.bnech", "bench"), ModuleNotFoundError),   # misspelt module
    (("pbem_dev.bench.cli", "bnech"), ImportError),           # misspelt attribute
    (("pbem_dev.bench.cli", "click"), ImportError),           # not a command
])
def test_a_misspelt_command_module_is_an_error(entry, error):
    with pytest.raises(error, match="bnech|click"):
        add_commands(click.Group("t"), [entry])


def test_two_commands_of_one_name_are_an_error():
    with pytest.raises(ValueError, match="two commands named 'bench'"):
        add_commands(click.Group("t"), [("pbem_dev.bench.cli", "bench"), ("pbem_dev.bench.cli", "bench")])
