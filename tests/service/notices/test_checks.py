"""The checks of test_every_kind catch what they are for: an English
sentence left in a translated mail, a long line, a link that is text or
off ``BASE_URL``, another player's secret."""
from __future__ import annotations

from email.message import EmailMessage

from hypothesis import given, strategies as st

from pbem.i18n import translations

from .checks import bad_links, english_left, long_lines, others_secrets

PAUSED = "The host has paused the game: the clock is stopped until it resumes."


def test_an_english_sentence_in_a_german_mail_is_found_and_its_translation_is_not():
    assert english_left(f"Hallo Ada,\n\n{PAUSED}\n", "de")
    assert english_left(translations("de").gettext(PAUSED), "de") == []


def test_a_piece_inside_a_longer_word_is_no_english_sentence():
    assert english_left("Abwesenheit ist eingetragen", "de", min_words=2) == []
    assert english_left("it is eingetragen", "de", min_words=2) == ["it is"]


def test_the_test_games_own_refusal_is_not_pbems_english():
    assert english_left("Zeile 1: add 9 is not legal now", "de") == []
    assert english_left("Zeile 1: add 9 is not legal now.", "de") == ["is not legal now"]


@given(st.text(alphabet="abc xyz", min_size=0, max_size=200))
def test_a_line_is_long_when_over_78_characters_without_its_urls(text):
    long = long_lines(text)
    assert all(len(line) > 78 for line in long)
    assert long_lines(text + "\nOrder page: http://pbem.test/" + "x" * 100) == long
    assert long_lines(text + "\n" + "y" * 79) == [*long, "y" * 79]


def test_links_text_urls_and_foreign_hosts_are_found(app):
    with app.app_context():
        assert bad_links("see http://pbem.test/games/1", '<a href="http://pbem.test/games/1">x</a>') == []
        assert bad_links("", "<p>see http://pbem.test/games/1</p>")          # a URL that is no link
        assert bad_links("http://evil.example/x", "")                         # off BASE_URL
        assert bad_links("", '<a href="/games/1">x</a>')                      # relative
        assert bad_links("", '<a href="mailto:play@pbem.test">x</a>') == []


def test_another_players_reply_address_is_found(app, t0):
    from pbem.service.core.links import reply_address

    from .scenes import table

    with app.app_context():
        gid = table(t0, "en")
        msg = EmailMessage()
        msg["To"] = "Ada <ada@example.org>"
        msg["Reply-To"] = reply_address(gid, 0)
        msg.set_content("hello")
        assert others_secrets(msg) == []
        msg.replace_header("Reply-To", reply_address(gid, 1))
        assert others_secrets(msg) and "reply address" in others_secrets(msg)[0]


def test_a_sign_in_link_of_another_player_is_found(app, t0):
    from pbem.service.core.links import signin_url

    from .scenes import player, table

    with app.app_context():
        table(t0, "en")
        msg = EmailMessage()
        msg["To"] = "Ada <ada@example.org>"
        msg.set_content(f"Sign in: {signin_url(player('ada@example.org').id, '/')}")
        assert others_secrets(msg) == []
        msg.set_content(f"Sign in: {signin_url(player('bo@example.org').id, '/')}")
        assert others_secrets(msg) and "sign-in link" in others_secrets(msg)[0]
