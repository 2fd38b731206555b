"""The invitation (issue 22): the subject starts with the game's prefix
like every later mail of that game; the seat is named once; the game is
shown by its title, with the game's name only when the title is another."""
from __future__ import annotations

import re

import pytest

from pbem.mail import compose as c

from .test_compose import envelope, parts

TORRE = c.GameRef("Torre Vecchia", 2, "http://localhost:5000/games/2")
SEAT_WORD = {"en": "seat", "cs": "míst", "ca": "seient", "fi": "pelaajapaik", "de": "Platz"}


def _invite(lang: str, game=TORRE, kind="La Città", others=("Ann (seat 1)",)):
    return parts(c.invitation(envelope(locale=lang, reply_to=None), game, host_name="Ann", seat=3,
                              other_players=list(others), signin_url="http://localhost:5000/signin/T0K",
                              deadline_hours=48, game_kind=kind))


@pytest.mark.parametrize("lang", ["en", "fi", "cs", "ca", "de"])
@pytest.mark.parametrize("others", [(), ("Bo", "Cy")])
def test_invitation_subject_has_the_games_prefix_and_names_the_seat_once(lang, others):
    m, text, html = _invite(lang, others=others)
    assert re.match(re.escape(c.subject_prefix(TORRE)) + " [—–] ", m["Subject"])  # de writes "–"
    assert "Ann" in m["Subject"]
    first = text.split("\n\n")[1]
    assert re.search(r"\b3\b", first)
    assert len(re.findall(SEAT_WORD[lang], first, re.I)) == 1, first
    assert "Torre Vecchia #2 (La Città)" in first


def test_invitation_shows_the_title_not_the_games_code():
    medina = c.GameRef("Medina", 3, "http://localhost:5000/games/3")
    m, text, html = _invite("en", game=medina, kind="Medina")
    assert "Medina #3 by email" in text and "(Medina)" not in text and "(medina)" not in text
    assert m["Subject"] == "[pbem] Medina #3 — Ann invites you to play"
