"""Composed mail in the envelope's language: the catalog of ``env.locale``
for the templates and the subject, Babel for dates, and no mixing of
languages between mails rendered at the same time in several threads."""
from __future__ import annotations

import email
from concurrent.futures import ThreadPoolExecutor
from email import policy

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import pbem.i18n as i18n
from pbem.mail import compose as c, render
from pbem.mail.flowed import plain_text

from .test_compose import DEADLINE, GAME, envelope, turn

#: msgids given a marked translation in the test catalogs
MSGIDS = ("{prefix} — your move ({phase})", "It is your move in %(game)s (%(phase)s), %(seat)s.",
          "Deadline: %(deadline)s", "none (the game is paused)")


def _mark(lang: str, msgid: str) -> str:
    return f"<{lang}> {msgid}"


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """Test catalogs for fi and cs in which each of :data:`MSGIDS` is
    translated as ``<lang> msgid``."""
    for lang in ("fi", "cs"):
        cat = Catalog(locale=lang)
        for msgid in MSGIDS:
            cat.add(msgid, _mark(lang, msgid))
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        with open(folder / "messages.po", "wb") as f:
            write_po(f, cat)
    monkeypatch.setattr(i18n, "CATALOG_DIR", tmp_path)
    i18n.translations.cache_clear()
    render.env_for.cache_clear()
    yield
    i18n.translations.cache_clear()
    render.env_for.cache_clear()


def _notice(locale: str):
    msg = c.turn_notice(envelope(locale=locale), GAME, turn())
    m = email.message_from_bytes(msg.as_bytes(), policy=policy.default)
    return m, plain_text(m), m.get_body(("html",)).get_content()


@pytest.mark.parametrize("locale,lang", [("fi_FI", "fi"), ("cs", "cs"), ("en_GB", "en"), ("xx", "en")])
def test_a_mail_is_written_in_its_envelopes_language(catalogs, locale, lang):
    m, text, html = _notice(locale)
    t = i18n.translations(lang)
    assert m["Content-Language"] == lang and f'<html lang="{lang}">' in html
    assert m["Subject"] == t.gettext(MSGIDS[0]).format(prefix="[pbem] La Città #12", phase="year 2, round 3")
    sentence = t.gettext(MSGIDS[1]) % dict(game="La Città #12", phase="year 2, round 3", seat="seat 3")
    assert sentence in text
    deadline = c.format_deadline(DEADLINE, "Europe/Helsinki", locale)
    assert t.gettext(MSGIDS[2]) % dict(deadline=deadline) in text
    if lang != "en":
        assert _mark(lang, "It is your move") in text
        assert c.format_deadline(None, "UTC", locale) == _mark(lang, MSGIDS[3])
    else:
        assert "<fi>" not in text and "<cs>" not in text


def test_mails_rendered_at_once_keep_their_own_language(catalogs):
    locales = ["fi_FI", "cs", "en_GB"] * 8
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(_notice, locales))
    for locale, (m, text, _html) in zip(locales, results):
        lang = c.language(locale)
        assert m["Content-Language"] == lang
        for other in {"fi", "cs"} - {lang}:
            assert f"<{other}>" not in text and f"<{other}>" not in m["Subject"]
        if lang != "en":
            assert m["Subject"].startswith(f"<{lang}>")
