"""Host notices (issues 22 and 29): each says what the host did, in its own
subject and first line, with the deadline in the reader's zone; never
"… is resolved"."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.mail import compose as c

from .test_compose import GAME, PNG, envelope, parts

DEADLINE = datetime(2026, 11, 29, 17, 46, tzinfo=timezone.utc)  # Sunday 18:46 in Europe/Berlin


def _first_line(text: str) -> str:
    return text.split("\n\n", 2)[1].split("\n")[0]


@pytest.mark.parametrize("zone,shown", [
    ("Europe/Berlin", "Sunday 29 November 2026, 18:46 (Europe/Berlin)"),
    ("America/New_York", "Sunday 29 November 2026, 12:46 (America/New_York)")])
@pytest.mark.parametrize("action,subject,first", [
    ("paused", "[pbem] La Città #12 — paused by the host",
     "The host has paused the game: the clock is stopped until it resumes."),
    ("resumed", "[pbem] La Città #12 — resumed, deadline {d}", "The host has resumed the game. The deadline is now {d}."),
    ("extended", "[pbem] La Città #12 — deadline extended to {d}",
     "The host has extended the deadline (year 2, round 3) to {d}."),
    ("cancelled", "[pbem] La Città #12 — cancelled by the host",
     "The host has cancelled the game. It ends here, without scores; no more turns or deadlines."),
])
def test_each_host_action_has_its_own_subject_first_line_and_deadline(zone, shown, action, subject, first):
    deadline = None if action in ("paused", "cancelled") else DEADLINE
    m, text, html = parts(c.host_action(envelope(timezone=zone), GAME, action=action, phase="year 2, round 3",
                                        deadline=deadline, board_png=PNG, position_text="Gold: 7"))
    assert m["Subject"] == subject.format(d=shown)
    assert _first_line(text) == first.format(d=shown)
    assert "resolved" not in text and "what happened" not in m["Subject"]
    assert m["X-PBEM-Kind"] == "host_action"
    if deadline is not None:
        assert f"Deadline: {shown}" in text and shown in html
    elif action == "paused":
        assert "Deadline: none (the game is paused)" in text
    else:
        assert "Deadline:" not in text
    assert "Gold: 7" in text and "cid:" in html


def test_earlier_host_actions_follow_the_latest():
    m, text, _ = parts(c.host_action(envelope(), GAME, action="extended", phase="year 2, round 3", deadline=DEADLINE,
                                     earlier=["The host paused the game.", "The host resumed the game."]))
    assert _first_line(text).startswith("The host has extended the deadline")
    assert text.index("- The host paused the game.") < text.index("- The host resumed the game.")


def test_extended_while_paused_says_so():
    m, text, _ = parts(c.host_action(envelope(), GAME, action="extended", phase="year 2, round 3", deadline=None,
                                     hours_left=40))
    assert m["Subject"] == "[pbem] La Città #12 — deadline extended, the game is still paused"
    assert "when it resumes, 40 h are left to the deadline." in _first_line(text)


@pytest.mark.parametrize("lang", ["fi", "cs", "ca", "de"])
def test_host_notice_is_in_the_readers_language(lang):
    m, text, _ = parts(c.host_action(envelope(locale=lang), GAME, action="extended", phase="x", deadline=DEADLINE))
    assert "extended" not in m["Subject"] and "extended" not in _first_line(text)
    assert c.format_deadline(DEADLINE, "Europe/Helsinki", lang) in m["Subject"]


def test_the_turn_is_named_once_and_no_label_doubles_a_phases_own_word():
    m, text, _ = parts(c.host_action(envelope(locale="cs"), GAME, action="extended", phase="Tah 15: Núria",
                                     deadline=DEADLINE))
    assert text.count("Tah 15: Núria") == 1 and "Tah: Tah" not in text
    _, text, _ = parts(c.host_action(envelope(locale="cs"), GAME, action="paused", phase="Tah 15: Núria",
                                     deadline=None))
    assert text.count("Tah 15: Núria") == 1 and "Tah: Tah" not in text
