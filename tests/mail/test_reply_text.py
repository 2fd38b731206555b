"""The new text of a reply, case by case (the .eml fixtures cover whole
messages from real clients; these pin the rules)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pbem.mail.reply_text import extract_new_text, html_to_text

OUTLOOK_BLOCK = "From: pbem <play@x.org>\nSent: Tuesday\nTo: Bob\nSubject: your move\n\nIt is your move\nbuild castle F7\n"


@pytest.mark.parametrize("body,expected", [
    ("pass", "pass"),
    ("pass\n\nOn Tue, 24 Nov 2026 at 18:00, pbem <play@x.org> wrote:\n> It is your move", "pass"),
    # a client wrapped the quote header over two lines
    ("pass\n\nOn Tue, 24 Nov 2026 at 18:00, pbem <\nplay@x.org> wrote:\n> It is your move", "pass"),
    # bottom-posting and interleaving
    ("On Tue, pbem wrote:\n> It is your move\n\nbuild castle F7", "build castle F7"),
    ("> line one\nbuild castle F7\n> line two\npass", "build castle F7\npass"),
    # Outlook block with nothing written above: the original is not orders
    (OUTLOOK_BLOCK, ""),
    ("take card 2\n\n" + OUTLOOK_BLOCK, "take card 2"),
    # signatures and phone footers
    ("pass\n-- \nBob\nbuild castle F7", "pass"),
    ("pass\n\nSent from my iPhone", "pass"),
    ("pass\nVon meinem iPhone gesendet", "pass"),
    ("pass\n\nTerveisin\nMatti", "pass"),
    ("pass\n\nS pozdravem,\nJana", "pass"),
    # hyphen lists are orders, not signatures
    ("- take card 2\n- build castle F7", "- take card 2\n- build castle F7"),
    # Finnish and Catalan quote headers
    ("pass\n\nti 24.11.2026 klo 18.00 pbem <play@x.org> kirjoitti:\n> x", "pass"),
    ("pass\n\nEl dt., 24 de nov. 2026 a les 18:00, pbem (<play@x.org>) va escriure:\n> x", "pass"),
    ("pass\n\nLähettäjä: pbem\nLähetetty: tiistai\nVastaanottaja: Bob\nAihe: x\n\nIt is your move", "pass"),
    ("pass\n\nDe: pbem\nEnviat: dimarts\nPer a: Bob\nTema: x\n\nIt is your move", "pass"),
    ("pass\n\nút 24. 11. 2026 v 18:00 odesílatel pbem <play@x.org> napsal:\n> x", "pass"),
    ("pass\n\n---------- Forwarded message ---------\nFrom: pbem\n\nIt is your move", "pass"),
    ("", ""),
    ("\n\n   \n", ""),
    ("pass\u200b\r\nbuild\xa0castle F7\r\n", "pass\nbuild castle F7"),
])
def test_extract_new_text(body, expected):
    assert extract_new_text(body) == expected


def test_html_to_text_quotes_and_escapes():
    text = html_to_text("<div>1. pass</div><div>build_castle *F7*</div><blockquote>old</blockquote><hr>")
    assert "1. pass" in text and "build_castle *F7*" in text
    assert "> old" in text
    assert "* * *" not in text
    assert extract_new_text(text) == "1. pass\nbuild_castle *F7*"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab >-\n\r:\u200b\xa0")) | st.characters(), max_size=500))
def test_never_raises_and_never_invents_text(body):
    out = extract_new_text(body)
    assert isinstance(out, str)
    normalised = body.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    normalised = normalised.translate(dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None))
    for line in out.splitlines():
        assert line.strip() in normalised or not line.strip()
