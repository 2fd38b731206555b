"""Orders in the player's language: every order kind written in Finnish,
Czech, Catalan and German reads as the English one; every legal order
written by :func:`order_text` in any language reads back as itself; no word
has two meanings (pbem/engine/lacitta/words.py, docs/i18n/)."""
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pbem.engine import OrderParseError, get_game
from pbem.engine.fold import LANGUAGES, fold, spellings
from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.parse import _SITE, _norm, read
from pbem.engine.lacitta.words import EN, WORDS, order_text
from tests.engine.lacitta.fixtures import position
from tests.engine.lacitta.test_orders import BASE

G = get_game("lacitta")

# English order -> the same order as a player of each language writes it
# (case, diacritics and glue words as they come).
ORDERS = {
    "castle F6": {"fi": "linna F6", "cs": "hrad F6", "ca": "castell F6", "de": "Burg F6"},
    "gold": {"fi": "kulta", "cs": "zlato", "ca": "or", "de": "Gold"},
    "take 2 gold": {"fi": "ota 2 kultaa", "cs": "vezmi 2 zlata", "ca": "agafa 2 or", "de": "Geld"},
    "build farm J6": {"fi": "rakenna maatila J6", "cs": "postav statek na J6",
                      "ca": "construeix granja J6", "de": "baue Bauernhof J6"},
    "build fountain I5": {"fi": "rakenna vesilähde I5", "cs": "postav kašna I5",
                          "ca": "construeix font I5", "de": "Brunnen I5"},
    "build school I5": {"fi": "Luostarikoulu I5", "cs": "klášterní škola I5", "ca": "monestir I5",
                        "de": "Klosterschule I5"},
    "found N6": {"fi": "perusta N6", "cs": "založ N6", "ca": "funda N6", "de": "gründen N6"},
    "found N6 from I6": {"fi": "perusta N6 linnasta I6", "cs": "Založ N6 z I6",
                         "ca": "funda N6 de I6", "de": "Gründe N6 von I6"},
    "bathhouse K6": {"fi": "kylpylä K6", "cs": "lázně K6", "ca": "banys K6", "de": "Badhaus K6"},
    "dom K6": {"fi": "katedraali K6", "cs": "katedrála K6", "ca": "catedral K6", "de": "Dom K6"},
    "palazzo K6": {"fi": "palatsi K6", "cs": "palác K6", "ca": "palau K6", "de": "Palast K6"},
    "master builder university K6": {"fi": "mestari rakentaja korkeakoulu K6",
                                     "cs": "velký stavitel univerzita K6",
                                     "ca": "gran arquitecte universitat K6",
                                     "de": "Großer Baumeister Universität K6"},
    "bread and games J6 x2 education health": {
        "fi": "leipä ja pelit J6 x2 koulutus terveys", "cs": "chléb a hry J6 x2 vzdělání zdraví",
        "ca": "pa i circ J6 x2 educació salut", "de": "Brot und Spiele J6 x2 Bildung Gesundheit"},
    "golden age I6 x2": {"fi": "hyvät ajat I6 x2", "cs": "zlaté časy I6 2",
                         "ca": "l'edat d'or I6 x2", "de": "Goldene Zeiten I6 x2"},
    "rich harvest J6": {"fi": "runsas sato J6", "cs": "bohatá úroda J6",
                        "ca": "collita miraculosa J6", "de": "Reiche Ernte J6"},
    "citizens 3": {"fi": "ihmisläheisyys 3", "cs": "šeptanda 3", "ca": "sondeig 3", "de": "Bürgernähe 3"},
    "pass": {"fi": "ohita", "cs": "pas", "ca": "passo", "de": "passe"},
    "wish E3 culture": {"fi": "toive E3 kulttuuri", "cs": "přání E3 kultura",
                        "ca": "desig E3 cultura", "de": "Wunsch E3 Kultur"},
    "demolish F6 G6": {"fi": "pura F6 G6", "cs": "strhni F6 G6", "ca": "enderroca F6 G6",
                       "de": "abreißen F6 G6"},
    "starve E3 2, J9 1": {"fi": "nälkä E3 2, J9 1", "cs": "hladomor E3 2, J9 1",
                          "ca": "fam E3 2, J9 1", "de": "Hungersnot E3 2, J9 1"},
}
CASES = [(en, lang, text) for en, by in ORDERS.items() for lang, text in by.items()]


@pytest.mark.parametrize(("english", "lang", "text"), CASES)
def test_each_order_kind_reads_the_same_in_every_language(english, lang, text):
    assert read(text) == read(english)


LEGAL_IN_BASE = ("gold", "take 2 gold", "build fountain I5", "build school I5", "dom K6", "palazzo K6",
                 "master builder university K6", "bread and games J6 x2 education health",
                 "golden age I6 x2", "citizens 3")


@pytest.mark.parametrize(("english", "lang", "text"), [c for c in CASES if c[0] in LEGAL_IN_BASE])
def test_political_orders_in_every_language_are_legal_as_in_english(english, lang, text):
    s = position(BASE)
    assert G.parse_action(s, 0, text) == G.parse_action(s, 0, english)


@pytest.mark.parametrize(("typed", "english"), [
    ("kylpyla K6", "bathhouse K6"),              # Finnish without ä
    ("lazne K6", "bathhouse K6"),                # Czech without diacritics
    ("LÁZNĚ k6", "bathhouse K6"),
    ("chleb a hry J6 x1", "bread and games J6 x1"),
    ("leipa ja pelit J6", "bread and games J6 x1"),
    ("zaloz N6", "found N6"),
    ("estatua I5", "build statue I5"),
    ("l’edat d’or I6", "golden age I6 x1"),     # typographic apostrophes
    ("desig E3 educacio", "wish E3 education"),
    ("buergernaehe", "citizens 2"),
    ("Burgernahe", "citizens 2"),
    ("gruenden N6", "found N6"),
    ("grosser baumeister universitaet K6", "master builder university K6"),
    ("Prosím postav statek na J6", "build farm J6"),
    ("perusta N6 I6", "found N6 from I6"),       # the giving castle without a 'from' word
])
def test_diacritics_and_case_may_be_dropped(typed, english):
    assert read(typed) == read(english)


def test_an_unknown_word_names_the_readers_own_words():
    """Issue 22: the refusal lists the order words of the player's language only."""
    from pbem.i18n import translate

    with pytest.raises(OrderParseError) as err:
        read("tanssi F6")
    cs = translate(err.value.message, "cs")
    assert "hrad, zlato, postav, založ, pas, přání, strhni, hladomor" in cs
    assert not {"castle", "build", "rakenna", "construeix", "baue"} & set(cs.replace(",", " ").split())


# --- every table maps onto the English grammar -------------------------------------

def _entries(w):
    """(normalised phrase, part, meaning) for every phrase of one language."""
    for part in ("verbs", "buildings", "objects", "cards", "wishes"):
        for phrase, meaning in getattr(w, part).items():
            for form in spellings(phrase):
                yield _norm(form), "buildings" if part == "objects" else part, meaning
    for j in w.joins:
        yield fold(j), "joins", "from"


# Issue 22: a building after the verb "build" is its object: Czech writes and
# reads the accusative (postav sochu), the old nominative still reads (old
# mails); Catalan and German articles are glue.
OBJECT_FORMS = [
    ("postav sochu D8", "build statue D8"), ("postav socha D8", "build statue D8"),
    ("Postav klášterní školu I5", "build school I5"), ("postav kasnu na I5", "build fountain I5"),
    ("postav katedrálu K6", "dom K6"), ("postav nemocnici K6", "hospital K6"),
    ("velký stavitel univerzitu K6", "master builder university K6"),
    ("construeix una granja a J6", "build farm J6"), ("construeix l'estàtua D8", "build statue D8"),
    ("construir un mercat J6", "build market J6"), ("construeix uns banys K6", "bathhouse K6"),
    ("baue einen Bauernhof auf J6", "build farm J6"), ("baue eine Statue auf D8", "build statue D8"),
    ("baue den Dom auf K6", "dom K6"), ("ich baue ein Badhaus auf K6", "bathhouse K6"),
]


@pytest.mark.parametrize(("text", "english"), OBJECT_FORMS)
def test_objects_with_their_case_and_article_are_read(text, english):
    assert read(text).to_text() == english


def test_czech_writes_the_building_in_the_accusative():
    from pbem.engine.lacitta.actions import Order

    said = {k: order_text(Order("build", "D8", k), "cs") for k in D.SMALL}
    assert said == {"farm": "postav statek D8", "quarry": "postav kamenolom D8",
                    "market": "postav tržiště D8", "statue": "postav sochu D8",
                    "school": "postav klášterní školu D8", "fountain": "postav kašnu D8"}
    assert all(read(t).to_text() == f"build {k} D8" for k, t in said.items())


def test_no_phrase_has_two_meanings_across_languages():
    seen: dict[str, set] = {}
    for w in WORDS.values():
        for phrase, part, meaning in _entries(w):
            seen.setdefault(phrase, set()).add((part, meaning))
    clashes = {p: m for p, m in seen.items() if len(m) > 1}
    assert not clashes
    assert "" not in seen                       # no phrase is all glue words


def test_glue_words_and_sites_never_hide_a_keyword():
    fillers = {fold(f) for w in WORDS.values() for f in w.fillers}
    for w in WORDS.values():
        for phrase, part, _ in _entries(w):
            for tok in phrase.split():
                assert not _SITE.match(tok), (w.lang, phrase)
            if part in ("wishes", "joins"):
                assert phrase not in fillers, (w.lang, phrase)


def test_every_language_has_a_word_for_every_meaning():
    assert tuple(WORDS) == LANGUAGES
    for w in WORDS.values():
        for part in ("verbs", "buildings", "cards", "wishes"):
            assert set(getattr(w, part).values()) == set(getattr(EN, part).values()), (w.lang, part)
        assert w.joins
    assert set(EN.buildings.values()) == set(D.BUILDABLE)
    assert set(EN.cards.values()) == set(D.POLITICAL_DECK) - set(D.BUILDING_CARDS)


# --- property: a legal order written in any language reads back as itself ----------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(seats=st.integers(2, 5), seed=st.integers(0, 2 ** 32),
       setup=st.sampled_from(["beginner", "experienced"]))
def test_every_legal_order_in_every_language_reads_back(seats, seed, setup):
    rnd = random.Random(seed)
    s = G.new_state(seats, seed, setup=setup)
    while not s.is_terminal():
        seat = rnd.choice(s.current_seats())
        legal = s.legal_actions(seat)
        for a in rnd.sample(legal, min(4, len(legal))):
            for lang in LANGUAGES:
                assert G.parse_action(s, seat, order_text(a, lang)) == a, (lang, order_text(a, lang))
        s.apply(seat, rnd.choice(legal))


#: la-citta.fi.txt headings "Korkeakoulu (Universität)", ... (the Finnish text governs, RULINGS.md)
FINNISH_CARDS = {"palazzo": "Palatsi", "hospital": "Sairaala", "bathhouse": "Kylpylä", "dom": "Katedraali",
                 "university": "Korkeakoulu", "master builder": "Mestari Rakentaja",
                 "bread and games": "Leipä ja Pelit", "golden age": "Hyvät Ajat", "rich harvest": "Runsas Sato",
                 "citizens": "Ihmisläheisyys"}


def test_finnish_card_titles_are_the_finnish_rule_texts():
    """Issue 22: Finnish showed the card "Universität" where la-citta.fi.txt
    says "Korkeakoulu (Universität)"."""
    from pbem.engine.lacitta.terms import CARD
    from pbem.i18n import translate

    assert {k: translate(m, "fi") for k, m in CARD.items()} == FINNISH_CARDS


def test_german_writes_the_kosmos_castello_and_still_reads_burg():
    """Issue 22: the German edition's own word for the castle is "Castello"
    (LC-cs "Castello neboli hrad", docs/i18n/de.md); "Burg", what pbem wrote
    before, is still read."""
    from pbem.engine.lacitta.actions import Order

    castle = Order("castle", "F6")
    assert order_text(castle, "de") == "Castello F6"
    assert read("Castello F6") == read("Burg F6") == read("castle F6") == castle


def test_german_messages_say_castello_never_burg():
    """Issue 22: every German message about a castle says Castello (plural
    Castelli, neuter: das Castello), the Kosmos edition's term."""
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    po = Path(__file__).parents[3] / "pbem" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as f:
        catalog = read_po(f)
    castle = [m for m in catalog if m.id and "castle" in str(m.id).lower() and m.string]
    assert len(castle) > 20
    for m in castle:
        text = " ".join(m.string) if isinstance(m.string, tuple) else m.string
        assert not re.search(r"\bBurg", text), m.id
    said = {str(m.id): m.string for m in castle}
    assert said["castle"] == "Castello" and said["castles left"] == "Castelli übrig"


def test_a_notables_arch_letter_in_the_city_line_is_the_readers():
    """Issue 22: the text view writes a notable by its arch's letter in the
    reader's language (English c e h; Finnish by the arch colours v m s)."""
    from pbem.engine.lacitta.text import _city_line
    from pbem.i18n import translate

    city = {"castle": "E3", "buildings": 1, "citizens": 2, "limit": None, "complete": False,
            "arches": {"culture": 0, "education": 1, "health": 1}}
    view = {"buildings": [{"city": "E3", "kind": "hospital", "site": "F6", "harvest": False,
                           "notables": [{"wish": "education"}, {"wish": "health"}]}]}
    line = _city_line(city, view)
    assert "hospital F6+e+h" in str(line)
    assert {lang: translate(line, lang).split("; ")[-1] for lang in ("fi", "cs", "ca", "de")} == {
        "fi": "sairaala F6+m+s.", "cs": "nemocnice F6+v+z.", "ca": "hospital F6+e+s.", "de": "Hospital F6+b+g."}
