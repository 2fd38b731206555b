"""An order refusal keeps its messages (Msg) from the engine through
check_orders, so pages and mail answer in the player's language
(SubmitResult.message_in, LineResult.error_in, summary(lang), reason())."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from babel.support import NullTranslations

import pbem.i18n
from pbem.engine import GAMES
from pbem.engine.messages import Msg
from pbem.i18n import translate
from pbem.service.core.models import ACTIVE
from pbem.service.play.order_check import check_orders
from pbem.service.play.submission import LineResult, SubmitResult
from tests.engine.test_translate_messages import catalog

NOT_LEGAL = "Nothing was applied: the line \u201c{line}\u201d is not legal now."
FI = {
    NOT_LEGAL: "Mitään ei tehty: rivi \u201c{line}\u201d ei ole nyt sallittu.",
    "'{order}' is not legal: {why}": "'{order}' ei ole sallittu: {why}",
    "REFUSED: {why}": "HYLÄTTY: {why}",
    "Legal orders now:": "Sallitut käskyt nyt:",
    "It is not your turn: the game waits for {waiting} ({phase}).":
        "Ei ole vuorosi: peli odottaa: {waiting} ({phase}).",
    "seat {n}": "pelaaja {n}",
    "Setup: seat 1 places the start merchant": "Alkuvalmistelu: pelaaja 1 asettaa aloituskauppiaan",
}


@pytest.fixture
def finnish(monkeypatch):
    book = catalog("fi", FI)
    monkeypatch.setattr(pbem.i18n, "translations",
                        lambda lang: book if lang == "fi" else NullTranslations())


def medina_setup():
    """A Medina game at its start (seat 1 owes the start merchant) and a
    stand-in for its game row: check_orders reads nothing else."""
    state = GAMES["medina"].new_state(3, 5)
    game = SimpleNamespace(seats=[SimpleNamespace(index=i) for i in range(3)], status=ACTIVE,
                           step=state.step, phase=str(state.phase()), kind="medina")
    return game, state


def check(game, state, seat: int, text: str) -> SubmitResult:
    result = SubmitResult("refused", 1, seat, game.step, lines=[LineResult(text)])
    problem = check_orders(game, seat, result, expected_step=None, state=state)
    assert problem is not None, "the order was accepted"
    result.message, result.status, result.legal = problem
    return result


def test_an_illegal_line_is_refused_in_the_players_language(finnish):
    game, state = medina_setup()
    result = check(game, state, 0, "merchant A1")      # on the city wall: not at setup
    line = result.lines[0]
    assert isinstance(result.message, Msg) and isinstance(line.error, Msg)
    assert line.error.startswith("'merchant A1' is not legal: A1 is next to the city wall")
    assert result.message_in("fi") == "Mitään ei tehty: rivi \u201cmerchant A1\u201d ei ole nyt sallittu."
    # the refused order in the player's words (Game.order_text), the line as written
    assert line.error_in("fi").startswith("'asukas A1' ei ole sallittu: A1 is next to the city wall")
    assert "'merchant A1'" not in line.error_in("fi")
    finnish_text = result.summary("fi")
    assert "HYLÄTTY: 'asukas A1' ei ole sallittu" in finnish_text
    assert "Sallitut käskyt nyt:" in finnish_text
    assert result.summary() == result.summary("en")
    assert "REFUSED: 'merchant A1' is not legal" in result.summary()
    assert translate(result.reason(), "fi").startswith(
        "Mitään ei tehty: rivi \u201cmerchant A1\u201d ei ole nyt sallittu. 'asukas A1' ei ole")
    assert result.reason() == f"{result.message} {line.error}"


def test_out_of_turn_orders_name_the_seat_and_phase_in_the_players_language(finnish):
    game, state = medina_setup()
    result = check(game, state, 1, "merchant H6")
    assert result.message == ("It is not your turn: the game waits for seat 1 "
                              "(Setup: seat 1 places the start merchant).")
    assert result.message_in("fi") == ("Ei ole vuorosi: peli odottaa: pelaaja 1 "
                                       "(Alkuvalmistelu: pelaaja 1 asettaa aloituskauppiaan).")
