"""German grammar and register of the catalog (issue 22, "Other language defects").

The outside testers' German defects, each rendered the way a player reads
it (through :func:`pbem.i18n.translate`, the page catalog or the composed
mail), and checks over the whole catalog so the same kind of defect does
not come back in another entry:

- colloquial register ("Etwas ist kaputtgegangen", "warte auf Spieler",
  "du bist dran"): friendly and correct, *du* throughout, never *Sie*;
- the castle is the Kosmos edition's "Castello" (plural "Castelli"), and
  the entries that say it read whole (no words run together);
- the reminder's time left said once ("noch noch 12 Stunden");
- "Medina #3: Aufbau: Platz 1 setzt den Starthändler ist abgehandelt":
  a phase name (itself a sentence) filled in as a sentence's subject;
- the terms of the German editions (docs/i18n/de.md) and words that
  must agree with what is filled in: a building's or colour's name
  inserted where German needs an article or a capital ("baut Markt",
  "Palast in grau"), a market in the accusative ("stellt den Markt fertig").
"""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from pbem.engine.messages import Msg, Msgc, Msgn
from pbem.i18n import translate, translations
from pbem.mail import compose as c
from tests.i18n.catalog import entries
from tests.mail.test_compose import envelope, parts, turn

SENT = datetime(2026, 11, 23, 16, 0, tzinfo=timezone.utc)
DEADLINE = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)          # 12 hours after SENT
MEDINA = c.GameRef("Medina", 3, "http://localhost:5000/games/3")


def _entries() -> list[tuple[str, str]]:
    """(msgid, msgstr) for every translated form of every de entry."""
    return [(mid, s) for mid, _, s in entries("de") if s]


def _plural_ids() -> frozenset[str]:
    return frozenset(mid for mid, plural, _ in entries("de") if plural)


def de(msg) -> str:
    return translate(msg, "de")


def page(msgid: str) -> str:
    return translations("de").gettext(msgid)


# --- register -----------------------------------------------------------

def test_the_error_page_and_the_status_pills_are_not_colloquial():
    assert page("Something broke") == "Ein Fehler ist aufgetreten"
    assert page("waiting for players") == "wartet auf Spieler"   # as "läuft", "angehalten": the game
    assert page("waiting for %(names)s") % {"names": "Anna, Ben"} == "wartet auf Anna, Ben"
    assert page("finished") == "beendet"          # a game's status, not a street's
    assert page("You are in.") == "Du bist angemeldet."


COLLOQUIAL = re.compile(r"kaputt|^warte auf\b|\bdran\b|\bbist drin\b|\bist raus\b|\bsind (?:noch nicht )?da\b"
                        r"|\bBefehle da\b", re.I)


def test_no_entry_is_colloquial():
    assert not [(mid, s) for mid, s in _entries() if COLLOQUIAL.search(s)]


# the formal address: "Sie"/"Ihnen"/"Ihr(e)" after a lowercase word (mid-sentence)
FORMAL = re.compile(r"[a-zäöüß,] (?:Sie|Ihnen|Ihre?[mnrs]?)\b|\b(?:geben|wählen|klicken|melden) Sie\b")


def test_the_catalog_says_du_throughout():
    assert not [(mid, s) for mid, s in _entries() if FORMAL.search(s)]
    assert de(Msg("It is not your turn: {who} to play ({phase}).", who="Anna", phase="Jahr 1")) \
        == "Du bist nicht am Zug, sondern Anna (Jahr 1)."


# mail is "E-Mail" in every entry (a mail provider may stay a "Mail-Anbieter")
def test_mail_is_e_mail_everywhere():
    bad = [(mid, s) for mid, s in _entries()
           if re.search(r"(?<![-\w])Mails?\b|-Mails?\b", s.replace("E-Mail", "").replace("Mail-Anbieter", ""))]
    assert not bad, bad
    assert page("gets no turn mail") == "bekommt keine Zug-E-Mails"


# --- Castello -------------------------------------------------------------

def test_the_castle_is_castello_in_every_entry():
    castle = [(mid, s) for mid, s in _entries() if re.search(r"\bcastles?\b", mid, re.I)]
    assert castle
    assert not [(mid, s) for mid, s in castle if re.search(r"\bBurg|Schloss", s)]
    # every entry that names a castle in English says Castello or Castelli (the city words
    # "die Stadt bei {castle}" name a castle's site, not the castle)
    named = [(mid, s) for mid, s in castle if re.search(r"\b(?:a|the|your|every|other|its|two|first|second) castles?\b"
                                                        r"|^castles?\b|Castles ", mid)]
    assert not [(mid, s) for mid, s in named if not re.search(r"Castell[oi]", s)], named


def test_castello_is_never_run_together_with_a_neighbour():
    # a line break lost where the entry was edited: "Gruppeum", "demCastello"
    assert not [(mid, s) for mid, s in _entries() if re.search(r"[a-zäöüß]Castell|Castell[oi](?!s\b)[a-zäöüß]", s)]
    assert "eine zusammenhängende Gruppe um ihr Castello." in page(
        "A city keeps no more buildings than it has citizens: you choose which go, never the castle, and every "
        "city stays one connected group around its castle.")
    assert de(Msg("{seat} founds a city at {site} with {n} citizens; one citizen came from the castle at {castle}.",
                  seat="Platz 1", site="F6", n=3, castle="E3")) \
        == "Platz 1 gründet eine Stadt auf F6 mit 3 Bürgern; ein Bürger kam aus dem Castello auf E3."
    assert de(Msg("{site} is too close to the {building} at {near}: a castle needs at least 3 free sites between "
                  "it and every other city.", site="F6", building=Msg("castle"), near="G8")) \
        == ("F6 liegt zu nah an G8 (Castello): Zwischen einem Castello und jeder anderen Stadt müssen "
            "mindestens 3 freie Felder liegen.")


# --- the reminder: time left said once ------------------------------------

def test_the_reminder_says_the_time_left_once():
    m, text, html = parts(c.reminder(envelope(locale="de", sent_at=SENT), MEDINA, turn(deadline=DEADLINE)))
    subject = str(m["Subject"])
    assert "noch noch" not in subject and "noch noch" not in text and "noch noch" not in html
    assert subject == "[pbem] Medina #3 – Erinnerung: Du bist am Zug, noch 12 Stunden", subject
    assert ("Erinnerung: Deine Befehle für Medina #3 (year 2, round 3, seat 3) sind noch nicht eingegangen. "
            "Verbleibende Zeit: 12 Stunden.") in text, text


# --- a phase name filled in ------------------------------------------------

SETUP = "Setup: seat 1 places the start merchant"


def test_a_resolved_turn_does_not_make_the_phase_a_subject():
    phase = de(Msg(SETUP))
    assert phase == "Aufbau: Platz 1 setzt den Starthändler"
    m, text, html = parts(c.turn_result(envelope(locale="de"), MEDINA, c.Result(phase=phase, events=["x"])))
    assert "Starthändler ist abgehandelt" not in text and "Starthändler ist abgehandelt" not in html
    assert "Medina #3: Zug abgehandelt (Aufbau: Platz 1 setzt den Starthändler)." in text, text


def test_the_host_notices_read_right_with_a_sentence_for_a_phase():
    phase = de(Msg(SETUP))
    m, text, _ = parts(c.host_action(envelope(locale="de", timezone="Europe/Berlin"), MEDINA, action="extended",
                                     phase=phase, deadline=DEADLINE))
    shown = "Dienstag, 24. November 2026, 05:00 (Europe/Berlin)"
    assert str(m["Subject"]) == f"[pbem] Medina #3 – Frist verlängert bis {shown}"
    assert (f"Die Spielleitung hat die Frist bis {shown} verlängert. "
            "Stand der Partie: Aufbau: Platz 1 setzt den Starthändler.") in text, text
    assert "Frist (Aufbau" not in text
    m, text, _ = parts(c.host_action(envelope(locale="de", timezone="Europe/Berlin"), MEDINA, action="resumed",
                                     phase=phase, deadline=DEADLINE))
    assert str(m["Subject"]) == f"[pbem] Medina #3 – fortgesetzt, Frist: {shown}"
    assert f"Die Spielleitung hat die Partie fortgesetzt. Die Frist ist jetzt {shown}." in text
    assert "Stand der Partie: Aufbau: Platz 1 setzt den Starthändler" in text


def test_a_status_filled_in_after_ist():
    assert de(Msg("The game is {status}; it takes no orders.", status=Msg("not started yet"))) \
        == "Die Partie ist noch nicht gestartet; sie nimmt keine Befehle an."
    assert de(Msg("End of year {year}.", year=3)) == "Ende des Jahres 3."


# --- terms of the German editions ---------------------------------------------

@pytest.mark.parametrize("msgid, ctx, term", [
    ("castle", None, "Castello"), ("castles left", None, "Castelli übrig"),
    ("palace", None, "Palast"), ("stable", None, "Stall"), ("merchant", None, "Händler"),
    ("wall", None, "Mauer"), ("tower", None, "Turm"), ("dome", None, "Kuppel"),
    ("tile", None, "Karte"), ("followers", None, "Gefolgsleute"), ("guard", None, "Wächter"),
    ("merchant", "Die Stadt", "Marktfrau"), ("overseer", None, "Vogt"), ("citizen", "Die Stadt", "Bürger"),
    ("the city gate", None, "das Stadttor"), ("cathedral", None, None),
])
def test_terms_of_the_german_editions(msgid, ctx, term):
    if term is None:
        return
    assert (de(Msgc(ctx, msgid)) if ctx else de(Msg(msgid))) == term


# --- what is filled in must fit the sentence ------------------------------

def test_a_building_name_is_never_put_where_german_needs_an_article():
    build = de(Msg("{seat} builds a {building} at {site} for the city at {castle}{extra}{paid} ({how}).",
                   seat="Platz 1", building=Msg("market"), site="F6", castle="E3", extra="", paid="",
                   how=Msg("action card")))
    assert build == "Platz 1 baut für die Stadt bei E3 auf F6 (Aktionskarte): Markt.", build
    farm = de(Msg("{seat} builds a {building} at {site} for the city at {castle}{extra}{paid} ({how}).",
                  seat="Platz 1", building=Msg("farm"), site="F6", castle="E3",
                  extra=Msg(" (+{food} food)", food=2), paid="", how=Msg("action card")))
    assert farm == "Platz 1 baut für die Stadt bei E3 auf F6 (Aktionskarte): Bauernhof (+2 Nahrung).", farm
    assert de(Msg("{seat} demolishes the {building} at {site} in the city at {castle}{extra}.",
                  seat="Platz 2", building=Msg("statue"), site="F7", castle="E3", extra="")) \
        == "Platz 2 reißt in der Stadt bei E3 ab: Statue auf F7."
    assert de(Msg("A {building} must stand next to water; {site} is not.", building=Msg("bathhouse"), site="F6")) \
        == "Dieses Gebäude (Badhaus) muss am Wasser stehen; F6 liegt nicht am Wasser."
    assert de(Msg("Großer Baumeister costs {cost} gold for a {building}; you have {gold}.",
                  cost=4, building=Msg("university"), gold=2)) \
        == "Großer Baumeister: Universität kostet 4 Gold; du hast 2."
    # nowhere a verb or preposition straight before a bare building name
    bare = re.compile(r"\b(?:baut|reißt|auf|für|an|von|zu nah an|braucht|kostet für) \{building\}")
    assert not [(mid, s) for mid, s in _entries() if bare.search(s)]


def test_a_colour_is_never_written_as_a_lowercase_noun():
    assert de(Msg("{seat} starts a new {colour} palace on {site}.", seat="Platz 1", colour=Msg("grey"),
                  site="C4")) == "Platz 1 beginnt auf C4 einen neuen Palast (grau)."
    assert de(Msg("the {colour} palace at {squares}", colour=Msg("black"), squares="C4 C5")) \
        == "der Palast (schwarz) auf C4 C5"
    assert not [(mid, s) for mid, s in _entries() if re.search(r"\bin \{colour\}", s)]


def test_die_stadt_completes_a_market_in_the_accusative():
    what = Msg("the market at {space}", space="T20")
    line = de(Msgn("{cause} completes {what} ({how}): {names} scores {points}; followers go back.",
                   "{cause} completes {what} ({how}): {names} score {points}; followers go back.", 1,
                   cause=Msg("The tile"), what=what, how="2 Karten", names="Platz 1", points=4))
    assert line == "Die Karte stellt den Markt auf T20 fertig (2 Karten): Platz 1 erhält 4 Pkt.; " \
                   "die Gefolgsleute kehren zurück.", line


@pytest.mark.parametrize("n, text", [
    (1, "Wachstum: Platz 1 gewinnt einen Bürger in der Stadt bei E3."),
    (2, "Wachstum: Platz 1 gewinnt je einen Bürger in den Städten bei E3, F9."),
])
def test_growth_in_several_cities(n, text):
    castles = "E3" if n == 1 else "E3, F9"
    assert de(Msgn("Growth: {seat} gains a citizen in the city at {castles}.",
                   "Growth: {seat} gains a citizen in the cities at {castles}.", n,
                   seat="Platz 1", castles=castles)) == text


def test_a_player_of_unknown_gender_is_not_made_masculine():
    line = page("Seat %(number)s is offered to %(name)s: an invitation is on its way, and the seat is theirs "
                "once they accept it. %(before)s has been told.")
    assert " ihm" not in line and " er " not in line
    assert page("You can ask them for a working address, or replace them at their seat from the game page.") \
        == "Du kannst um eine funktionierende Adresse bitten oder den Platz auf der Partieseite neu besetzen."


def test_the_score_table_headers_and_error_titles():
    # "Place" heads the rank column of the score tables (game page, order page, final mail)
    assert page("Place") == "Rang"
    assert page("Tie-break") == "Bei Gleichstand"
    assert page("Not yours") == "Kein Zugriff"
    assert page("You are unsubscribed") == "E-Mails abbestellt"


def test_medina_tiles_come_from_the_middle_of_the_table():
    line = de(Msgn("{seat} takes the {colour} palace tile ({n} point) from {source} with {palace} (size {size}).",
                   "{seat} takes the {colour} palace tile ({n} points) from {source} with {palace} (size {size}).",
                   1, seat="Platz 3", colour=Msg("grey"), source=Msg("the table"),
                   palace=Msg("the {colour} palace at {squares}", colour=Msg("grey"), squares="P8"), size=1))
    assert line == "Platz 3 nimmt das Palastplättchen (grau, 1 Punkt) von der Tischmitte: der Palast (grau) auf P8 " \
                   "(Größe 1).", line


def test_a_die_stadt_order_of_the_wrong_kind_says_what_is_due():
    assert de(Msg("that is a {kind} order, but now you {now}", kind=Msg("tile"), now=Msg("owe nothing"))) \
        == "das ist ein Befehl „Karte“, aber jetzt musst du nichts tun"


def test_a_sign_in_link_works_only_once():
    assert page("This link works once. Not you? Just close this page.") \
        == "Dieser Link funktioniert nur einmal. Das warst nicht du? Dann schließ diese Seite einfach."
    assert not [(mid, s) for mid, s in _entries() if "funktioniert einmal" in s]


@pytest.mark.parametrize("n", [1, 3])
def test_a_count_of_citizens_leaving_reads_right_for_any_number(n):
    line = de(Msg("Famine: {seat} has {citizens} citizens and {food} food; {n} must leave (−5 points).",
                  seat="Platz 1", citizens=9, food=9 - n, n=n))
    assert line == f"Hungersnot: Platz 1 hat 9 Bürger und {9 - n} Nahrung; Anzahl der Bürger, die gehen müssen: " \
                   f"{n} (−5 Punkte).", line
    # a count in a single-form entry is never the subject of a plural verb ("1 müssen gehen")
    bad = [(mid, s) for mid, s in _entries() if mid not in _plural_ids()
           and re.search(r"\{n\} (?:\w+ )?(?:müssen|sind|gehen)\b|(?:müssen|sind) \{n\}(?! ?\()", s)]
    assert not bad, bad


def test_a_wall_end_reads_as_german_says_it():
    # {end} is the order word (Uhrzeigersinn, Gegenuhrzeigersinn): "das Ende im Uhrzeigersinn"
    from pbem.engine.diestadt.words import say_end
    assert de(Msg("a wall piece at the {end} end", end=say_end("ccw"))) == "ein Mauerteil am Ende im Gegenuhrzeigersinn"
    assert not [(mid, s) for mid, s in _entries() if re.search(r"Ende (?:\{end\}|Uhrzeigersinn|Gegenuhr)", s)]
