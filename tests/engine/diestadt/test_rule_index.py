"""Every rule sentence (DS-1 to DS-121) and every ruling (A-1 to A-35) of
Die Stadt has a named scenario test, or is listed below as not a rule the
service can play, with the reason.

A test names what it checks in its function name: ``test_ds48_...``,
``test_a5_...``, ``test_ex07_ds48_ds49_...`` (every ``ds<n>`` and ``a<n>``
between underscores counts). The numbering is the design notes' (docs/rules/
diestadt.md names them section by section); the rulings are also written
out there in our own words, which the last test checks.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent          # the Die Stadt engine tests
TESTS = HERE.parents[1]
RULES_DOC = TESTS.parent / "docs" / "rules" / "diestadt.md"
SENTENCES = range(1, 122)    # DS-1 .. DS-121
RULINGS = range(1, 36)       # A-1 .. A-35

#: sentences that state no rule a game on the service could break, with why
NOT_SCENARIOS: dict[str, str] = {
    "DS-14": "a tip on dealing the physical piles quickly (split in three, move five tiles); "
             "the piles it makes, 30/25/20, are DS-13 and tested there",
    "DS-19": "a pointer to the follower rules explained later in the text; those rules are "
             "DS-30 to DS-41, and their use on the first tile is A-33",
    "DS-23": "a note on the booklet's pictures (the drawn tile has a red frame in every "
             "example); nothing a game could break",
    "DS-93": "a note on the booklet's pictures (in the end examples the rest of the city is "
             "already walled in); the end rules are DS-92 and DS-94 to DS-98",
}

_NAMED = re.compile(r"(?<=_)(ds|a)(\d+)(?=_|$)")


def _named() -> dict[str, list[str]]:
    """``"DS-48"`` -> the tests (``file::name``) whose names carry it."""
    out: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                for kind, n in _NAMED.findall(node.name):
                    key = f"{'DS' if kind == 'ds' else 'A'}-{int(n)}"
                    out.setdefault(key, []).append(f"{path.relative_to(TESTS)}::{node.name}")
    return out


def _wanted() -> list[str]:
    return [f"DS-{n}" for n in SENTENCES] + [f"A-{n}" for n in RULINGS]


def test_every_rule_sentence_and_ruling_has_a_named_test():
    named = _named()
    missing = [k for k in _wanted() if k not in named and k not in NOT_SCENARIOS]
    assert not missing, f"no test is named for {', '.join(missing)}"


def test_what_is_listed_as_no_rule_has_a_reason_and_no_test():
    named = _named()
    for key, why in NOT_SCENARIOS.items():
        assert key in _wanted(), key
        assert len(why) > 20, f"{key}: give the reason"
        assert key not in named, f"{key} is listed as no rule but {named[key]} is named for it"


def test_no_test_names_a_number_the_texts_do_not_have():
    wanted = set(_wanted())
    stray = {k: v for k, v in _named().items() if k not in wanted}
    assert not stray, stray


def test_every_ruling_is_written_in_the_rules_doc():
    text = RULES_DOC.read_text(encoding="utf-8")
    written = {int(n) for n in re.findall(r"\bA-(\d+)\b", text)}
    assert not [n for n in RULINGS if n not in written]
