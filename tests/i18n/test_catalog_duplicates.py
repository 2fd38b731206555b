"""No catalog defines a message twice: GNU msgfmt stops on it ("duplicate
message definition"), and Babel keeps one of the two silently, so a fix made
to the other would never show."""
from __future__ import annotations

import collections
import pathlib
import re

import pytest

CATALOGS = sorted(pathlib.Path(__file__).resolve().parents[2].glob("pbem/translations/*/LC_MESSAGES/messages.po"))
ENTRY = re.compile(r'^(?:msgctxt (".*"(?:\n".*")*)\n)?msgid (".*"(?:\n".*")*)$', re.M)


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_no_message_is_defined_twice(path):
    text = path.read_text(encoding="utf-8")
    keys = [(m[1], m[2]) for m in ENTRY.finditer(text) if m[2] != '""']
    twice = [key for key, n in collections.Counter(keys).items() if n > 1]
    assert not twice, f"{path.parts[-3]}: defined twice: {twice[:5]}"


def test_the_catalogs_are_found():
    assert {p.parts[-3] for p in CATALOGS} >= {"fi", "cs", "ca", "de"}
