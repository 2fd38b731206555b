"""One language's catalog as the grammar tests read it (Babel's reader)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).resolve().parents[2] / "pbem/translations"


@lru_cache(maxsize=None)
def entries(lang: str) -> tuple[tuple[str, bool, str], ...]:
    """``(msgid, is plural, msgstr)`` for every form of every entry of
    ``lang``'s ``messages.po`` (a plural entry gives one row per form, its
    singular msgid each time; an untranslated form is ``""``)."""
    out: list[tuple[str, bool, str]] = []
    with (TRANSLATIONS / lang / "LC_MESSAGES/messages.po").open("rb") as f:
        for m in read_po(f):
            if not m.id:
                continue
            if isinstance(m.id, tuple):
                out += [(m.id[0], True, s) for s in m.string]
            else:
                out.append((m.id, False, m.string))
    return tuple(out)
