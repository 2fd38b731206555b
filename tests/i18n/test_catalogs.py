"""The message catalogs: complete, current and well-formed (issue 16).

Read with Babel's own catalog reader (``babel.messages.pofile.read_po``) and
extractor (``babel.messages.extract``, the engine of ``pybabel extract``)
with the project's ``babel.cfg`` keywords, so what these tests call a
translatable string is exactly what ``scripts/i18n.sh extract`` writes.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from pbem.engine.fold import LANGUAGES
from pbem.i18n import CATALOG_DIR

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "lazy_gettext": None, "N_": None, "Msg": None, "Msgn": (1, 2), "Msgc": ((1, "c"), 2)}
METHODS = [("pbem/**.py", "python"), ("pbem/**/templates/**.html", "jinja2"),
           ("pbem/mail/templates/**.txt", "jinja2")]
OPTIONS = {"pbem/**/templates/**.html": {"extensions": "jinja2.ext.i18n"},
           "pbem/mail/templates/**.txt": {"extensions": "jinja2.ext.i18n"}}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:[!:][^}]*)?\}")


@lru_cache(maxsize=None)
def extracted() -> frozenset[str]:
    """Every msgid (singular) the code and templates hold."""
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT / "pbem"), method_map=[(p.removeprefix("pbem/"), m) for p, m in METHODS],
            options_map={k.removeprefix("pbem/"): v for k, v in OPTIONS.items()}, keywords=KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    return frozenset(m for m in found if m)


@lru_cache(maxsize=None)
def catalog(lang: str):
    with (CATALOG_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_the_code_has_translatable_messages():
    assert len(extracted()) > 300  # pages, mail and the three engines' messages


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_holds_every_message_of_the_code(lang):
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog(lang) if m.id}
    missing = sorted(extracted() - ids)
    assert not missing, f"{len(missing)} messages not in {lang} (run scripts/i18n.sh update): {missing[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_is_fully_translated_with_no_fuzzy_entry(lang):
    untranslated, fuzzy = [], []
    for m in catalog(lang):
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            untranslated.append(m.id)
        if m.fuzzy:
            fuzzy.append(m.id)
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:3]}"
    assert not fuzzy, f"{lang}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:3]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang):
    wrong = []
    for m in catalog(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set().union(*(placeholders(i) for i in ids))
        for s in filter(None, strings):  # an empty one fails the completeness test
            got = placeholders(s)
            # a plural form may leave out the count ("one" in words), never add a name
            if not got <= want or not (want - {"n", "num", "count"}) <= got:
                wrong.append((m.id, s))
    assert not wrong, f"{lang}: placeholders differ in {len(wrong)} entries, e.g. {wrong[:2]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_has_the_languages_plural_rule(lang):
    from babel.messages.plurals import get_plural

    assert catalog(lang).num_plurals == get_plural(lang).num_plurals
