"""The order help of every game in every language names cards, buildings
and pieces with that language's rule-text terms (issue 22): a Finnish
La Città help says ``Kylpylä, Korkeakoulu``, never the German card titles
``Badhaus, Universität`` or another language's words. English messages
use the German card titles (pbem/engine/lacitta/terms.py), and the English
help's note on the German building names and the other languages' order
words (``palatsi harmaa C4``) is for English readers; so English La Città
is checked against the card titles that differ (fi, cs, ca) only."""
from __future__ import annotations

import re

import pytest

from pbem.engine import GAMES, get_game
from pbem.engine.diestadt.actions import BuildWall
from pbem.engine.diestadt import terms as ds
from pbem.engine.lacitta import terms as lc
from pbem.engine.medina import terms as md
from pbem.i18n import translate

LANGS = ["en", "fi", "cs", "ca", "de"]
#: the games' words for cards, buildings and pieces, as messages
TERMS = [*lc.CARD.values(), *lc.BUILDING.values(), *ds.ROLE.values(), *ds.BUILDING.values(),
         *md.PIECE.values()]


def names(lang: str, terms=TERMS) -> set[str]:
    return {translate(t, lang) for t in terms}


def foreign(lang: str) -> set[str]:
    """Names other languages give that ``lang`` does not use (case aside)."""
    if lang == "en":
        others, own = names("fi", lc.CARD.values()) | names("cs", lc.CARD.values()) | names(
            "ca", lc.CARD.values()), names("en")
    else:
        others, own = set().union(*(names(o) for o in LANGS if o != lang)), names(lang)
    own_folded = {n.casefold() for n in own}
    return {n for n in others if n.casefold() not in own_folded}


@pytest.mark.parametrize("game, lang", [(g, lang) for g in sorted(GAMES) for lang in LANGS
                                         if lang != "en" or g == "lacitta"])
def test_the_help_names_things_in_the_readers_terms_only(game, lang):
    text = translate(get_game(game).order_help(), lang)
    found = sorted(n for n in foreign(lang) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I))
    assert not found, f"{game} help in {lang} names {found}"


def test_the_finnish_la_citta_help_uses_the_rule_texts_card_names():
    text = translate(get_game("lacitta").order_help(), "fi")
    assert "kylpylä" in text and "korkeakoulu" in text and "Badhaus" not in text


#: each language's words for "refused" in the help line of ``wall cw guard``
REFUSED = {"en": "refused", "fi": "hylätään", "cs": "odmítne", "ca": "rebutja", "de": "abgelehnt"}
#: the old "with a guard if still legal", wrong since a direct barred guard is refused
IF_STILL_LEGAL = ["if still legal", "jos yhä sallittu", "pokud to půjde", "si encara és legal",
                  "falls noch zulässig"]


@pytest.mark.parametrize("lang", LANGS)
def test_die_stadt_help_says_a_barred_guard_is_refused_and_only_a_held_line_drops_it(lang):
    """docs/rules/diestadt.md "A guard that is barred": ``wall cw guard``
    sent for the decision is refused; written ahead (held), the piece is
    built without the guard."""
    game = get_game("diestadt")
    text = translate(game.order_help(), lang)
    # the order's meaning with its continuation lines: up to the next example, wall ccw
    line = text[text.index(game.order_text(BuildWall("cw", True), lang)):]
    line = line[:line.index(game.order_text(BuildWall("ccw"), lang))]
    assert REFUSED[lang] in line and not any(old in text for old in IF_STILL_LEGAL), line

