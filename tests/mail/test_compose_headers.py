"""Headers that hold URLs or ids are written as they are, never as RFC 2047
encoded words (issue 22): a provider offers one-click unsubscribe only for
a plain ``List-Unsubscribe: <https://…>``. Checked on the serialized bytes,
as a receiving server reads them."""
from __future__ import annotations

import base64
import re

import pytest

from pbem.mail import compose as c

from .test_compose import GAME, envelope, turn

UNSUB = ("https://pbem.example.org/mail/unsubscribe/"
         "eyJwbGF5ZXIiOjcsInB1cnBvc2UiOiJ1bnN1YiJ9.Z2lWbA.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789")


def _header_block(msg) -> str:
    raw = msg.as_bytes()
    head = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0]
    return head.decode("ascii")


def _field(head: str, name: str) -> str:
    """The raw field value, unfolded (CRLF + WSP removed, RFC 5322 §2.2.3)."""
    m = re.search(rf"^{name}:[ \t]?(.*(?:\r?\n[ \t].*)*)", head, re.M | re.I)
    assert m, f"no {name} in\n{head}"
    return re.sub(r"\r?\n(?=[ \t])", "", m.group(1))


@pytest.mark.parametrize("locale,title", [("fi", "Torre Vecchia"), ("cs", "Příbram ČÍŠ"), ("fi", "La Città")])
def test_list_unsubscribe_is_a_plain_url_on_the_wire(locale, title):
    env = envelope(locale=locale, to_name="Jiří Čermák", list_id=f'"{title} #12" <game-12.pbem.example>',
                   unsubscribe_url=UNSUB, preferences_url="https://pbem.example.org/mail/preferences/x",
                   thread_root="<pbem.game-12.seat-3@pbem.example>", in_reply_to="<CAF-1@mail.example>",
                   references=["<CAF-0@mail.example>"])
    head = _header_block(c.turn_notice(env, c.GameRef(title, 12, GAME.url), turn()))
    assert _field(head, "List-Unsubscribe") == f"<{UNSUB}>"
    assert _field(head, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
    for name in ("List-Unsubscribe", "Message-ID", "References", "In-Reply-To"):
        assert "=?" not in _field(head, name), name
    list_id = _field(head, "List-Id")
    assert list_id.endswith(" <game-12.pbem.example>")
    phrase = list_id[: -len(" <game-12.pbem.example>")]
    if title.isascii():
        assert phrase == f'"{title} #12"'
    else:  # RFC 2047 §5(3): whole encoded words as the phrase, never inside quotes
        assert '"' not in phrase
        words = phrase.split()
        assert all(re.fullmatch(r"=\?utf-8\?b\?[A-Za-z0-9+/=]+\?=", w) for w in words), phrase
        decoded = b"".join(base64.b64decode(w[10:-2]) for w in words).decode()
        assert decoded == f"{title} #12"


def test_long_unsubscribe_url_is_never_encoded_nor_broken():
    url = UNSUB + "x" * 120
    head = _header_block(c.signin(envelope(locale="cs", unsubscribe_url=url), signin_url="https://x/s",
                                  expires_at=turn().deadline))
    assert _field(head, "List-Unsubscribe") == f"<{url}>"
    assert all(len(line) <= 998 for line in head.splitlines())
