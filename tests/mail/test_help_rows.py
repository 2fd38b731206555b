"""The order help as rows for narrow screens (pbem.mail.help_rows), on the
games' own help texts."""
from __future__ import annotations

import pytest

from pbem.engine import get_game
from pbem.mail.help_rows import Block, Row, blocks, meaning_column


def rows(help_text: str) -> dict[str, str]:
    return {r.order: r.meaning for b in blocks(help_text) if b.kind == "rows" for r in b.rows}


def test_lacitta_help_rows_keep_each_meaning_with_its_order():
    got = rows(get_game("lacitta").order_help())
    assert got["gold"] == "take 2 gold"
    assert got["build farm F6"].startswith("a small building, free: farm")
    assert got["build farm F6"].endswith("Klosterschule, Brunnen)")        # wrapped lines joined
    # several orders on one line, their meaning on the next line at the meaning column
    assert got["palazzo F6    hospital F6    bathhouse F6    dom F6    university F6"].startswith(
        "build that building")
    assert got["bread and games F6 x2 education health"] == ""           # an example line, no meaning
    assert got["pass"].endswith("the top political card face down, no effect")


def test_medina_help_headings_prose_and_example_rows():
    bs = blocks(get_game("medina").order_help())
    assert bs[0].kind == "text" and bs[0].text.startswith("Medina orders")
    assert rows(get_game("medina").order_help())["wall W12"].startswith("place a wall piece")
    i = next(i for i, b in enumerate(bs) if b.kind == "heading")
    assert bs[i].text == "Example turn:"
    assert bs[i + 1] == Block("rows", rows=[Row("palace grey C4"), Row("stable D4")])
    # prose wrapped for width is one paragraph
    assert any(b.kind == "text" and "(A1 is the north-west corner). Wall spaces" in b.text for b in bs)


@pytest.mark.parametrize("game", ["lacitta", "medina", "diestadt"])
def test_no_text_is_lost(game):
    text = get_game(game).order_help()
    flat = " ".join(" ".join([b.text] + [f"{r.order} {r.meaning}" for r in b.rows]) for b in blocks(text))
    assert flat.split() == text.split()


def test_help_without_columns_is_prose():
    assert meaning_column("Just write one order per line.") is None
    assert blocks("Just write one order\nper line.") == [Block("text", text="Just write one order per line.")]
