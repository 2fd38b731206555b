"""The Czech catalog speaks to the player as "ty" and in its own terms (issues 25-28).

The catalog addresses one player informally (``jsi na tahu``, ``tvé
příkazy``); the long-game entries (table talk, calendar, spectators, the
record, the API) came in as formal "vy" and with other words for the same
things (hostitel, deska). These checks keep every entry on the catalog's
address and terms; what the player says to pbem ("Pošlete mi přihlašovací
odkaz") and what the rules say to all players together are plural by
right and listed.
"""
from __future__ import annotations

import re

import pytest

from pbem.i18n import translations
from tests.i18n.catalog import entries

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[sd]|<[^>]+>")
#: formal "vy": the pronoun's forms, "jste", and a second person plural verb or imperative
FORMAL = re.compile(r"\b(?:[Vv]ás|[Vv]ám|[Vv]ámi|[Vv]áš|[Vv]aše(?:ho|mu|m)?|[Vv]aši|[Vv]ašich|[Vv]aším|[Vv]ašimi|"
                    r"[Jj]ste|[Mm]áte|[Mm]ůžete|[Cc]hcete)\b"
                    r"|\b\w+(?:ete|ěte|ejte|ujte|íte|ite|něte|ňte|ďte|ťte)\b")
#: English words that end like a Czech plural verb and stand in Czech text
ENGLISH = {"complete", "site", "state", "gate"}
#: entries plural by right: the player speaks to pbem, or the rules speak to all players
PLURAL_BY_RIGHT = ("Send me a sign-in link", "Never invite me to a game again")


def _formal(text: str) -> list[str]:
    return [w for w in FORMAL.findall(PLACEHOLDER.sub(" ", text)) if w.lower() not in ENGLISH]


def test_the_formal_check_sees_vy_and_not_ty():
    assert _formal("Zkopírujte si ho hned; vaše zpráva je odeslána.") == ["Zkopírujte", "vaše"]
    assert _formal("Jste na tahu ve hře {title} (místo {site}).") == ["Jste"]
    assert _formal("Zkopíruj si ho hned; tvoje zpráva je odeslaná. Hradba roste.") == []


def test_no_entry_addresses_the_player_formally():
    bad = [(mid, s, _formal(s)) for mid, _, s in entries("cs")
           if _formal(s) and not mid.startswith(PLURAL_BY_RIGHT) and "každý z vás" not in s]
    assert not bad, bad


# the catalog's terms: the host is "zakladatel", the board "plán", an order "příkaz"
TERMS = [(r"\bhost\b", r"\b[Hh]ostitel"), (r"\bboard\b", r"\b[Dd]esk[auyo]\b"),
         (r"\border page\b", r"\bstránk\w* s tahy\b")]


@pytest.mark.parametrize("english, wrong", TERMS)
def test_the_long_game_entries_use_the_catalogs_terms(english, wrong):
    bad = [(mid, s) for mid, _, s in entries("cs") if re.search(english, mid, re.I) and re.search(wrong, s)]
    assert not bad, bad


def test_the_game_log_and_the_downloadable_record_have_two_names():
    # the spectator page shows both headings: they must not read the same
    t = translations("cs")
    assert t.gettext("Game log") != t.gettext("The game record")
    assert t.gettext("The game record (text)").startswith(t.gettext("The game record"))
