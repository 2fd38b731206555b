"""Fixtures of the language tests: the page app of tests/web (CSRF and rate
limits on, tasks in-process) and a stand-in catalog.

``stand_in_catalog(lang, {msgid: text})`` makes ``lang``'s catalog hold
exactly those translations for the test (pages through Flask-Babel, engine
messages through :func:`pbem.i18n.translate`), so a test can show that a
marked string goes through the catalog whether or not the real catalogs are
translated yet.
"""
from __future__ import annotations

import io

import pytest

from tests.webapp import app_with_schema, make_app


@pytest.fixture
def app(tmp_path, service_database_url):
    yield from app_with_schema(make_app(tmp_path, service_database_url, SECRET_KEY="i18n-test-secret"))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def stand_in_catalog(monkeypatch):
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    import pbem.i18n
    import pbem.web.locale

    real = pbem.i18n.translations
    catalogs: dict[str, Translations] = {}

    def install(lang: str, texts: dict) -> Translations:
        catalog = Catalog(locale=lang)
        for msgid, text in texts.items():
            catalog.add(msgid, text)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        catalogs[lang] = Translations(fp=buf)
        return catalogs[lang]

    def translations(lang: str):
        return catalogs.get(pbem.i18n.supported(lang) or "", None) or real(lang)

    monkeypatch.setattr(pbem.i18n, "translations", translations)
    monkeypatch.setattr(pbem.web.locale, "translations", translations)
    return install
