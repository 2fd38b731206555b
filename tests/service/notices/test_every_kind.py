"""Every registered notice kind, built through the service in every
language (:mod:`.scenes`), is mail a reader and a spam filter accept
(:mod:`.checks`): no English left in fi/cs/ca/de (body and subject), no
line over 78 characters but URLs, links that are links on ``BASE_URL``,
nothing of another seat's, and under 1.0 point with SpamAssassin.

The kinds come from the registry (:data:`pbem.service.post.notices.KINDS`):
a new kind fails here until it has a scene or is listed in
:data:`.scenes.NOT_MAIL` with the reason."""
from __future__ import annotations

import pytest

from pbem.mail.flowed import plain_text
from pbem.service.post.notices import KINDS
from tests.spamassassin import LIMIT, needs_spamassassin, score

from ..helpers import parsed
from .checks import bad_links, english_left, html_text, long_lines, others_secrets
from .scenes import NOT_MAIL, SCENES, VARIANTS, ZONES, build, real_table

LANGS = sorted(ZONES)
#: URLs a mail names that are no link of pbem's: the player's own webhook
NOT_OURS = frozenset({"https://hooks.example.org/pbem"})


def test_every_registered_kind_is_built_or_listed_with_a_reason():
    assert not set(SCENES) & set(NOT_MAIL)
    assert set(KINDS) - set(SCENES) - set(NOT_MAIL) == set(), "kinds neither built nor listed"
    assert set(SCENES) | set(NOT_MAIL) <= set(KINDS), "scenes of kinds that are not registered"
    assert all(NOT_MAIL.values())


def _parts(row):
    msg = parsed(row)
    return msg, plain_text(msg), msg.get_body(("html",)).get_content()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(SCENES))
def test_the_mail_is_in_the_readers_language_and_linked_to_pbem_only(app, t0, kind, lang):
    for row in build(kind, t0, lang):
        _check(row, f"{kind}/{lang} to {row.recipient}", lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_other_mails_of_a_kind_too(app, t0, variant, lang):
    for row in build(VARIANTS[variant][0], t0, lang, variant):
        _check(row, f"{variant}/{lang} to {row.recipient}", lang)


def _check(row, where: str, lang: str) -> None:
    """The checks of every mail (the module's docstring) on ``row``; ``where`` names it."""
    msg, text, html = _parts(row)
    assert msg["Content-Language"] == lang, where
    if lang != "en":
        assert english_left(text, lang) == [], where
        assert english_left(html_text(html), lang) == [], f"{where}, HTML part"
        assert english_left(str(msg["Subject"]), lang, min_words=2) == [], f"{where}: {msg['Subject']}"
    assert bad_links(text, html, allowed=NOT_OURS) == [], where
    assert others_secrets(msg) == [], where


@pytest.mark.parametrize("lang", sorted(set(LANGS) - {"en"}))
@pytest.mark.parametrize("game_kind", ["lacitta", "medina"])
def test_a_real_games_turn_mail_has_no_english_left(app, t0, game_kind, lang):
    """The turn mail of a real game: its phases, orders and help come from
    the game, not Tally's English."""
    from ..helpers import outbox

    real_table(t0, lang, game_kind)
    rows = outbox(kind="turn")
    assert rows
    for row in rows:
        msg, text, html = _parts(row)
        where = f"{game_kind} turn/{lang} to {row.recipient}"
        assert english_left(text, lang) == [], where
        assert english_left(html_text(html), lang) == [], f"{where}, HTML part"
        assert english_left(str(msg["Subject"]), lang, min_words=2) == [], f"{where}: {msg['Subject']}"
        assert bad_links(text, html) == [] and others_secrets(msg) == [], where


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(SCENES))
def test_no_line_of_the_text_part_is_over_78_characters_but_urls(app, t0, kind, lang):
    """As sent (format=flowed, RFC 3676), not as a flowed reader joins it."""
    parts = [parsed(row).get_body(("plain",)) for row in build(kind, t0, lang)]
    assert all(p.get_param("format") == "flowed" for p in parts), f"{kind}/{lang}"
    assert [line for p in parts for line in long_lines(p.get_content())] == [], f"{kind}/{lang}"


def _spam_check(row, where: str) -> float:
    points, report = score(parsed(row).as_bytes())
    print(f"\nSPAMSCORE {where} {points}")
    assert points < LIMIT and "HTML_IMAGE_ONLY" not in report, f"{where}: {points}\n{report}"
    return points


@needs_spamassassin
@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(SCENES))
def test_spamassassin_scores_it_under_one_point(app, t0, kind, lang):
    _spam_check(build(kind, t0, lang)[0], f"{kind} {lang}")


@needs_spamassassin
@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_spamassassin_scores_the_other_mails_of_a_kind_under_one_point(app, t0, variant):
    lang = LANGS[sorted(VARIANTS).index(variant) % len(LANGS)]      # each language in turn
    _spam_check(build(VARIANTS[variant][0], t0, lang, variant)[-1], f"{variant} {lang}")


@needs_spamassassin
@pytest.mark.slow
@pytest.mark.parametrize("game_kind", ["lacitta", "medina"])
def test_spamassassin_scores_a_real_games_turn_mail_with_its_board_under_one_point(app, t0, game_kind):
    from ..helpers import outbox

    real_table(t0, "cs", game_kind)
    _spam_check(outbox(kind="turn")[0], f"{game_kind} turn cs")
