"""The command language: forms, aliases, errors, help, defaults."""
import pytest

from pbem.engine import IllegalOrderError, NotYourTurnError, OrderParseError, get_game
from pbem.engine.lacitta.actions import Order
from tests.engine.lacitta.fixtures import position

G = get_game("lacitta")

BASE = """
seats 2
landscape T3=L T4=F3 T11=F1 T10=M
phase political year 1 round 1 seat 1
city 1 I6 6: market H6, hospital J6
city 2 Q13 4
gold 9 1
display palazzo, dom, master builder, bread and games, golden age, rich harvest, citizens
voice health culture education culture
"""


@pytest.fixture
def s():
    return position(BASE)


@pytest.mark.parametrize(("text", "canonical"), [
    ("GOLD", "gold"),
    ("take 2 gold", "gold"),
    ("build FARM i5", "build farm I5"),
    ("Bauernhof I5", "build farm I5"),
    ("baue Klosterschule I5", "build school I5"),
    ("build monastery school I5", "build school I5"),
    ("Brunnen I5", "build fountain I5"),
    ("Dom K6", "dom K6"),
    ("build dom K6", "dom K6"),
    ("cathedral K6", "dom K6"),
    ("Großer Baumeister Universität K6", "master builder university K6"),
    ("grosser baumeister universitaet K6", "master builder university K6"),
    ("master builder Badhaus I5", "master builder bathhouse I5"),
    ("Brot und Spiele J6 x2 Bildung Gesundheit", "bread and games J6 x2 education health"),
    ("bread and games J6 2 health education", "bread and games J6 x2 education health"),
    ("goldene zeiten H6 2", "golden age I6 x2"),
    ("Golden Age i6 x1", "golden age I6 x1"),
    ("Bürgernähe 3", "citizens 3"),
    ("buergernaehe", "citizens 2"),
    ("found n6", "found N6"),
    ("new city N6", "found N6"),
    ("palazzo K6.", "palazzo K6"),
    ("Please build a farm at I5.", "build farm I5"),
    ("found a new city at N6", "found N6"),
    ("I play the Dom on K6", "dom K6"),
])
def test_forms_and_aliases(s, text, canonical):
    assert G.parse_action(s, 0, text).to_text() == canonical


@pytest.mark.parametrize(("text", "match"), [
    ("", "empty"),
    ("dance", "does not start with an order word"),
    ("build farm", "one site"),
    ("build farm ZZ", "not a site"),
    ("build farm Z9", "no site Z9"),
    ("build castle I5", "Build what"),
    ("golden age I6 x7", "not a count"),
    ("citizens 4", "citizens 2"),
    ("bread and games J6 x1 purple", "not an arch colour"),
    ("starve", "starve E3 2"),
])
def test_unreadable_orders(s, text, match):
    with pytest.raises(OrderParseError, match=match):
        G.parse_action(s, 0, text)


def test_illegal_order_carries_legal_examples(s):
    with pytest.raises(IllegalOrderError) as err:
        G.parse_action(s, 0, "build farm M6")
    assert "not next to your city at I6" in str(err.value)
    assert err.value.legal and "gold" in err.value.legal
    assert err.value.text == "build farm M6"


def test_not_your_turn(s):
    with pytest.raises(NotYourTurnError, match="not your turn: seat 1"):
        G.parse_action(s, 1, "gold")
    with pytest.raises(NotYourTurnError):
        s.apply(1, Order("gold"))


def test_refused_order_leaves_state_untouched(s):
    before = s.to_json()
    for text in ["dom M6", "university K6 x2", "pass", "wish I6 culture", "demolish J6"]:
        with pytest.raises((IllegalOrderError, OrderParseError)):
            G.parse_action(s, 0, text)
    with pytest.raises(IllegalOrderError):
        s.apply(0, Order("card", "M6", "dom"))
    assert s.to_json() == before


def test_every_action_sets_site_and_label(s):
    for a in s.legal_actions(0):
        if a.verb in ("build", "card", "master", "bread", "harvest", "found", "golden"):
            assert a.site and a.site not in a.label
    labels = {a.label for a in s.legal_actions(0)}
    assert "build farm" in labels and "dom" in labels


def test_order_help_lists_every_form():
    text = G.order_help()
    for form in ["castle F6", "gold", "build farm F6", "found F6 from E3", "palazzo F6",
                 "master builder dom F6", "bread and games F6 x2", "golden age E3 x3",
                 "rich harvest F6", "citizens 2", "pass", "wish E3 culture", "demolish F6 G6",
                 "starve E3 2, J9 1"]:
        assert form in text
    # every site in the examples is a real site of the board
    from pbem.engine.lacitta.board import SITES
    import re
    for site in re.findall(r"\b([A-W]\d{1,2})\b", text):
        assert site in SITES, site


def test_view_text_private_first():
    s = position(BASE + "peeked 1 2\n")
    text = G.view_text(s.view(0))
    assert text.index("You are seat 1") < text.index("Seat 2:")
    assert "card 2: culture" in text
    assert "card 2: culture" not in G.view_text(s.view(1))


def test_default_in_political_round_is_pass_even_when_other_orders_exist(s):
    assert s.default_action(0).to_text() == "pass"
    s.apply(0, s.default_action(0))
    assert len(s.played[0]) == 1 and s.current_seats() == [1]
