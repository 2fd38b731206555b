"""The reminder in every language (issue 22): the time left is a bare
duration ("12 Stunden") placed in sentences that hold their own "left"
word, so no language says it twice ("noch noch 12 Stunden")."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from babel.dates import format_timedelta

from pbem.mail import compose as c

from .test_compose import GAME, envelope, parts, turn

SENT = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)  # 12 hours before test_compose.DEADLINE
DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I | re.U)


@pytest.mark.parametrize("lang", ["en", "de", "cs", "fi", "ca"])
def test_reminder_names_the_time_left_once(lang):
    m, text, html = parts(c.reminder(envelope(locale=lang, sent_at=SENT), GAME, turn()))
    span = format_timedelta(turn().deadline - SENT, threshold=1.5, locale=lang, format="long")
    first = text.split("\n\n", 2)[1]
    words = re.sub(r"<[^>]*>", " ", html.split("<body", 1)[1])  # the HTML's words, not its styles
    for where in (m["Subject"], first, words):
        assert span in where
        assert not DOUBLED.search(where.replace("#12 #12", "")), DOUBLED.search(where).group(0)
    assert "noch noch" not in m["Subject"] + text and "zbývá zbývá" not in m["Subject"] + text


def test_reminder_in_english_reads_naturally():
    m, text, _ = parts(c.reminder(envelope(sent_at=SENT), GAME, turn()))
    assert m["Subject"] == "[pbem] La Città #12 — reminder: your move, 12 hours left"
    assert "are not in yet. Time left: 12 hours." in text
