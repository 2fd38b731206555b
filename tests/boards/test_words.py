"""Board pictures in the reader's language (issue 16, "Board pictures"):
every word a board draws is marked for extraction and drawn translated,
and the shipped font has every letter of the service's languages."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.support import Translations

import pbem.i18n
from pbem.boards import render_png, render_svg, svg_to_png
from pbem.boards.png import FONT_FILES, _font_metrics
from pbem.boards.words import words
from pbem.engine import get_game

BOARDS = Path(pbem.boards.words.__file__).resolve().parent
MARK = "Ж"   # a pseudo-translation: every msgstr is MARK + msgid
#: every letter fi, cs, ca and de write beyond ASCII (lower and upper case)
LETTERS = "äöåÄÖÅ" "ěščřžůýáíéťďňúóĚŠČŘŽŮÝÁÍÉŤĎŇÚÓ" "àèéíïòóúüçÀÈÉÍÏÒÓÚÜÇ·ŀĿ" "äöüßÄÖÜẞ"
#: words of the order language drawn on a board (they stay as orders are typed)
ORDER_WORDS = {"cw", "ccw"}
KINDS = [("lacitta", {"setup": "beginner"}), ("medina", {}), ("diestadt", {})]


def _msgids() -> list[tuple[str, str | None]]:
    """(msgid, plural) of every Msg/Msgn in pbem/boards, as pybabel extract reads them."""
    out = []
    for path in sorted(BOARDS.rglob("*.py")):
        for _, message, _, _ in extract_from_file("python", str(path), keywords={"Msg": None, "Msgn": (1, 2)}):
            out.append((message, None) if isinstance(message, str) else (message[0], message[1]))
    return out


@pytest.fixture
def pseudo(monkeypatch):
    """Every language but English reads a catalog where each board word is MARK + the English."""
    catalog = Catalog(locale="de")
    for msgid, plural in _msgids():
        if plural is None:
            catalog.add(msgid, MARK + msgid)
        else:
            catalog.add((msgid, plural), (MARK + msgid, MARK + plural))
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    fake = Translations(fp=buf)
    real = pbem.i18n.translations
    monkeypatch.setattr(pbem.i18n, "translations", lambda lang: real(lang) if lang == "en" else fake)
    # what the boards keep per language was drawn with the real catalogs by
    # earlier tests: forget it now and after
    import pbem.boards.diestadt.geometry as diestadt_geometry

    kept = [diestadt_geometry.legend_items]
    for cache in kept:
        cache.cache_clear()
    yield fake
    for cache in kept:
        cache.cache_clear()


def _views(kind: str, options: dict, seed: int, moves: int):
    """Views (with legal sites) along a random game, players named."""
    engine = get_game(kind)
    state, rng = engine.new_state(3, seed, **options), random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = state.current_seats()[0]
        actions = state.legal_actions(seat)
        view = state.view(seat)
        view = dict(view, players=[dict(p, name=f"Pl{p.get('seat', 0)}") for p in view.get("players") or []])
        yield view, sorted({a.site for a in actions if a.site})
        state.apply(seat, rng.choice(actions))


def _words(svg: str) -> list[str]:
    """What a reader sees or hears: every <text>, <title>, <desc> and aria-label."""
    texts = re.findall(r"<(?:text|title|desc)\b[^>]*>([^<]*)</", svg)
    return texts + re.findall(r'aria-label="([^"]*)"', svg)


def test_every_board_word_is_marked_for_extraction():
    ids = {m for m, _ in _msgids()}
    assert len(ids) > 60
    for must in ("legal now", "latest turn", "legal site", "legal space", "Seat {n}", "Final scores", "arches:"):
        assert must in ids


@pytest.mark.parametrize("kind, options", KINDS)
def test_no_english_word_is_left_in_a_translated_picture(pseudo, kind, options):
    """Drawn in a language whose catalog marks every board word, each text
    with a word of three letters or more is marked, or is a name the
    picture does not own (a player, the engine's phase, a building's
    proper name, a word of the order language); the same text drawn in English is never marked."""
    for seed in (1, 2):
        for view, legal in list(_views(kind, options, seed, 40))[::7]:
            english = _words(render_svg(kind, view, highlight=legal))
            other = _words(render_svg(kind, view, highlight=legal, lang="cs"))
            assert not any(MARK in t for t in english)
            assert len(english) == len(other)
            names = [str(view.get("phase") or "")] + [p["name"] for p in view["players"]]
            # historic buildings' proper names (the tiles print them so), drawn a word a line if long
            proper = [str(t["name"]) for t in view.get("tiles") or [] if isinstance(t, dict) and t.get("name")]
            names += sorted(proper + [w for n in proper for w in n.split()], key=len, reverse=True)
            for en, tr in zip(english, other):
                plain = en
                for n in names:
                    plain = plain.replace(n, "") if n else plain
                if re.search(r"[A-Za-z]{3,}", plain) and plain not in ORDER_WORDS:
                    assert MARK in tr, f"{kind}: {en!r} drawn in English"


def test_the_words_callable_falls_back_to_english():
    t = words("xx")
    assert t(pbem.boards.words.Msg("legal now")) == "legal now" and t("F7") == "F7"


def test_the_shipped_fonts_map_every_letter_of_the_languages():
    for path in FONT_FILES:
        _, advances, _ = _font_metrics(path)
        missing = [ch for ch in LETTERS if ord(ch) not in advances]
        assert not missing, f"{path.name} lacks {''.join(missing)}"


def _glyph_png(ch: str, bold: bool = False) -> bytes:
    weight = ' font-weight="bold"' if bold else ""
    return svg_to_png(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><text x="4" y="30" '
                      f'font-size="30"{weight}>{ch}</text></svg>', width=40)


@pytest.mark.parametrize("bold", [False, True])
def test_every_letter_renders_as_a_glyph_not_a_missing_glyph_box(bold):
    notdef = _glyph_png("\ue000", bold)      # a private-use code point: no font has it
    assert _glyph_png("\u4e00", bold) == notdef   # (the test would see a missing glyph)
    blank = _glyph_png(" ", bold)
    drawn = {ch: _glyph_png(ch, bold) for ch in LETTERS}
    assert [ch for ch, png in drawn.items() if png in (notdef, blank)] == []


@pytest.mark.parametrize("kind, options", KINDS)
def test_a_picture_with_czech_and_german_words_renders(pseudo, monkeypatch, kind, options):
    """Labels with ě š č ř ž ů ß ä ö ü are drawn (to PNG) and change the picture."""
    catalog = Catalog(locale="cs")
    for msgid, plural in _msgids():
        text = "Žluťoučký kůň úpěl ďábelské ódy · Größe ÄÖÜ"
        catalog.add(msgid if plural is None else (msgid, plural), text if plural is None else (text, text))
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    czech = Translations(fp=buf)
    monkeypatch.setattr(pbem.i18n, "translations", lambda lang: czech if lang == "cs" else pbem.i18n.NullTranslations())
    view, legal = next(iter(_views(kind, options, 3, 5)))
    assert "Žluťoučký" in render_svg(kind, view, highlight=legal, lang="cs")
    png = render_png(kind, view, highlight=legal, lang="cs")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png != render_png(kind, view, highlight=legal)


def _catalog(entries: dict[str, str]) -> Translations:
    catalog = Catalog(locale="cs")
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(fp=buf)


@pytest.mark.parametrize("kind, options", KINDS)
def test_an_engine_phase_is_drawn_translated_with_the_players_names(monkeypatch, kind, options):
    from pbem.boards import named_view
    from pbem.boards.words import Msg

    czech = _catalog({"Turn {n}: {who} to move": "Tah {n}: hraje {who}", "seat {n}": "místo {n}"})
    monkeypatch.setattr(pbem.i18n, "translations", lambda lang: czech if lang == "cs" else pbem.i18n.NullTranslations())
    view, legal = next(iter(_views(kind, options, 3, 2)))
    view = dict(view, phase=Msg("Turn {n}: {who} to move", n=4, who=Msg("seat {n}", n=2)))
    assert "Tah 4: hraje místo 2" in render_svg(kind, view, highlight=legal, lang="cs")
    named = named_view(view, {1: "Bo"})
    assert "Tah 4: hraje Bo" in render_svg(kind, named, highlight=legal, lang="cs")
    assert "Turn 4: Bo to move" in render_svg(kind, named, highlight=legal)


def test_named_view_names_seats_in_players_and_phase_and_leaves_the_view_alone():
    from pbem.boards import named_view
    from pbem.boards.words import Msg

    view = {"phase": "Seat 2 to move, then seat 3", "players": [{"seat": 0}, {"seat": 1}, {"seat": 2, "name": "x"}]}
    named = named_view(view, {0: "Ada", 1: "Bo", 2: ""})
    assert [p.get("name") for p in named["players"]] == ["Ada", "Bo", "x"]   # an empty name keeps the view's
    assert named["phase"] == "Bo to move, then seat 3"
    assert view["players"][0] == {"seat": 0} and view["phase"].startswith("Seat 2")
    msg = named_view({"phase": Msg("{who} owes {n} pieces", who=Msg("Seat {n}", n=1), n=2)}, {0: "Ada"})["phase"]
    assert isinstance(msg, Msg) and msg == "Ada owes 2 pieces" and msg.template == "{who} owes {n} pieces"


def test_named_view_in_a_language_translates_the_phase_then_names_the_seats_its_text_names(monkeypatch):
    from pbem.boards import named_view
    from pbem.boards.words import Msg

    czech = _catalog({"Setup: seat 1 places the start merchant": "Příprava: hráč na místě 1 staví kupce"})
    monkeypatch.setattr(pbem.i18n, "translations", lambda lang: czech if lang == "cs" else pbem.i18n.NullTranslations())
    view = {"phase": Msg("Setup: seat 1 places the start merchant"), "players": []}
    assert named_view(view, {0: "Ada"}, "en")["phase"] == "Setup: Ada places the start merchant"
    assert named_view(view, {0: "Ada"}, "cs")["phase"] == "Příprava: hráč na místě 1 staví kupce"
    assert isinstance(named_view(view, {0: "Ada"})["phase"], Msg)   # no language: still a message


def test_la_citta_building_letters_are_the_readers_own():
    """Issue 22: the two letters a La Città building is drawn with (board
    and legend) start its name in the reader's language and tell the eleven
    buildings apart in every language (farm: ``Fa``, Finnish maatila ``Ma``)."""
    from pbem.boards import lacitta
    from pbem.engine.fold import LANGUAGES, fold
    from pbem.i18n import translate

    for lang in LANGUAGES:
        letters = {kind: translate(glyph, lang) for kind, (glyph, *_) in lacitta.BUILDINGS.items()}
        assert len(set(letters.values())) == len(letters), (lang, letters)
        for kind, two in letters.items():
            name = translate(lacitta.WORDS[kind], lang)
            assert 2 <= len(two) <= 3 and fold(two)[0] == fold(name)[0], (lang, kind, two, name)
    view, legal = next(iter(_views("lacitta", {"setup": "beginner"}, 3, 2)))
    drawn = {lang: set(_words(render_svg("lacitta", view, highlight=legal, lang=lang))) for lang in ("en", "fi")}
    assert {"Fa", "Qu", "Sc", "Fo"} <= drawn["en"]
    assert {"Ma", "Lo", "Lu", "Ve"} <= drawn["fi"] and not {"Fa", "Qu", "Sc", "Fo"} & drawn["fi"]
