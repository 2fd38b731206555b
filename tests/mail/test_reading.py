"""Issue 29 item 3: a chatty line never refuses a mail that holds orders,
and a greeting is never blamed for another line's error. The games' own
order words (``Game.order_words``) tell prose from an order that failed,
in every language; the mail layer names no game."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from pbem.engine import get_game
from pbem.mail.quotes import words
from pbem.mail.reading import is_prose, split_letter
from pbem.service.play.replies import order_predicate


def _reader(kind: str):
    game = get_game(kind)
    state = game.new_state(3, 7)
    seat = state.current_seats()[0]
    return order_predicate(SimpleNamespace(kind=kind), seat, state), game.order_words()


def test_medina_greeting_is_not_blamed_for_two_orders_on_one_line():
    """'Hey,' was refused as line 1 when line 2 held two orders; it took three mails."""
    is_order, vocab = _reader("medina")
    orders, ignored = split_letter(["Hey,", "palace grey B2, palace grey B3"], is_order, vocab)
    assert orders == ["palace grey B2", "palace grey B3"]
    assert ignored == ["Hey,"]


@pytest.mark.parametrize("kind, lines, orders, ignored", [
    ("lacitta", ["gold", "I'll take the gold this time."], ["gold"], ["I'll take the gold this time."]),
    ("lacitta", ["Moikka!", "Tällä kertaa otan kullan.", "kulta", "Kiitos pelistä!"], ["kulta"],
     ["Moikka!", "Tällä kertaa otan kullan.", "Kiitos pelistä!"]),
    ("lacitta", ["Ahoj,", "Tentokrát si vezmu zlato.", "postav statek E6"], ["postav statek E6"],
     ["Ahoj,", "Tentokrát si vezmu zlato."]),
    ("lacitta", ["Salut a tothom,", "Aquesta vegada agafo l'or.", "agafa or", "", "Gràcies"], ["agafa or"],
     ["Salut a tothom,", "Aquesta vegada agafo l'or.", "Gràcies"]),
    ("medina", ["Ich glaube, das wird knapp.", "Palast grau B2", "Danke fürs Spiel!"], ["Palast grau B2"],
     ["Ich glaube, das wird knapp.", "Danke fürs Spiel!"]),
    ("diestadt", ["Thanks for the lovely game so far.", "tile T21"], ["tile T21"],
     ["Thanks for the lovely game so far."]),
])
def test_prose_is_set_aside_in_every_language(kind, lines, orders, ignored):
    is_order, vocab = _reader(kind)
    assert split_letter(lines, is_order, vocab) == (orders, ignored)


@pytest.mark.parametrize("line", ["biuld farm E6", "farm please", "build fram", "starve E3 two"])
def test_a_line_that_looks_like_an_order_is_kept_to_be_refused(line):
    is_order, vocab = _reader("lacitta")
    assert not is_prose(line, vocab)
    assert split_letter(["Hi all,", "gold", line], is_order, vocab) == (["gold", line], ["Hi all,"])


def test_prose_alone_is_no_orders():
    is_order, vocab = _reader("lacitta")
    assert split_letter(["I will be away this week, sorry!", "", "Bruno"], is_order, vocab) == (
        [], ["I will be away this week, sorry!", "Bruno"])


def test_one_order_with_a_comma_is_not_split():
    is_order, vocab = _reader("lacitta")
    assert split_letter(["gold, please"], is_order, vocab)[0] == ["gold, please"]


def test_without_the_games_words_the_old_rules_hold():
    is_order, _vocab = _reader("lacitta")
    assert split_letter(["gold", "I'll take the gold this time."], is_order) == (
        ["gold", "I'll take the gold this time."], [])


def test_words_fold_case_diacritics_and_a_lossy_question_mark():
    """Issue 22: "La Città" came back as "La Citt?" from ISO-8859-2 and windows-1250 clients."""
    same = words("It is your move in La Città #1")
    for variant in ("IT IS YOUR MOVE IN LA CITTÀ #1", "It is your move in La Citt? #1",
                    "It is your move in La Citt\ufffd #1", "It is your move in La CittÃ\xa0#1"):
        assert words(variant) == same, variant
    assert words("Bürgernähe") == words("B?rgern?he")


@pytest.mark.parametrize("kind", ["lacitta", "medina", "diestadt"])
def test_every_order_a_game_writes_is_never_prose(kind):
    """Game.order_words holds the first word of every legal order as the
    game writes it in each language (a site has digits), so no order is
    ever set aside as prose."""
    from pbem.engine.fold import LANGUAGES, fold

    game = get_game(kind)
    state = game.new_state(3, 7)
    vocab = game.order_words()
    seat = state.current_seats()[0]
    for action in list(state.legal_actions(seat))[:200]:
        for lang in LANGUAGES:
            text = game.order_text(action, lang)
            assert not is_prose(text, vocab), (lang, text)
            first = fold(text).replace("'", " ").split()[0]
            assert first in vocab or any(c.isdigit() for c in first), (lang, text)
    for line in ("gold", "pass", "no tower", "wall cw guard", "kulta", "zlato", "ei tornia"):
        if game.order_words() & {fold(w) for w in line.split()}:
            assert not is_prose(line, vocab), line


@pytest.mark.parametrize("line, prose", [
    ("See you in 2 days!", True), ("I'll be away for 2 weeks.", True), ("Could you build farm E6 for me", False),
    ("2 gold", False), ("bread and games F6 x2", False), ("Hallo!", True), ("farm", False),
    ("Reminder: your orders for La Città #1 (Year 1, political round 1, seat 1) are not in yet.", True),
])
def test_numbers_in_a_sentence_do_not_make_it_an_order(line, prose):
    assert is_prose(line, get_game("lacitta").order_words()) is prose


def test_only_the_first_lines_set_aside_are_named_back():
    from pbem.mail.reply_text import MAX_IGNORED, read_reply

    is_order, vocab = _reader("lacitta")
    body = "gold\n" + "".join(f"Thanks again, friend number {n}!\n" for n in range(500)) + "x" * 900 + "\n"
    reading = read_reply(body, is_order=is_order, order_words=vocab)
    assert reading.orders == ["gold"]
    assert len(reading.ignored) == MAX_IGNORED and reading.ignored[0] == "Thanks again, friend number 0!"
