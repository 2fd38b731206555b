"""Reply addresses and sign-in tokens: round trips, forgery, expiry."""
from __future__ import annotations

import hmac

import pytest
from hypothesis import given, strategies as st

from pbem.mail import tokens
from pbem.mail.tokens import BadToken, ExpiredToken

SECRET = "s3cret-key"
INBOUND = "play@pbem.example"


def test_reply_address_round_trip():
    addr = tokens.make_reply_address(SECRET, INBOUND, 12, 3)
    assert addr.startswith("play+12-3-") and addr.endswith("@pbem.example")
    assert tokens.parse_reply_address(SECRET, INBOUND, addr) == (12, 3)
    # mail systems may fold case or wrap in angle brackets
    assert tokens.parse_reply_address(SECRET, INBOUND, f"<{addr.upper()}>") == (12, 3)


def test_reply_address_string_ids():
    addr = tokens.make_reply_address(SECRET, INBOUND, "g_ab12", "x9")
    assert tokens.parse_reply_address(SECRET, INBOUND, addr) == ("g_ab12", "x9")


@pytest.mark.parametrize("bad", [
    "play+12-4-{sig}@pbem.example",         # seat changed, signature kept
    "play+13-3-{sig}@pbem.example",         # game changed
    "play+12-3-{sig}@other.example",        # other domain
    "other+12-3-{sig}@pbem.example",        # other mailbox
    "play@pbem.example",                    # no tag
    "play+12-3@pbem.example",               # no signature
    "play+12-3-{sig}x@pbem.example",        # signature wrong length
    "play+1 2-3-{sig}@pbem.example",
    "not an address",
])
def test_reply_address_forgeries_refused(bad):
    sig = tokens.make_reply_address(SECRET, INBOUND, 12, 3).split("@")[0].rsplit("-", 1)[1]
    with pytest.raises(BadToken):
        tokens.parse_reply_address(SECRET, INBOUND, bad.format(sig=sig))


def test_reply_address_other_key_refused_and_rotation():
    addr = tokens.make_reply_address("old-key", INBOUND, 5, 1)
    with pytest.raises(BadToken):
        tokens.parse_reply_address(SECRET, INBOUND, addr)
    assert tokens.parse_reply_address(SECRET, INBOUND, addr, old_secrets=["old-key"]) == (5, 1)


def test_reply_signature_checked_with_compare_digest(monkeypatch):
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    addr = tokens.make_reply_address(SECRET, INBOUND, 1, 2)
    tokens.parse_reply_address(SECRET, INBOUND, addr)
    assert calls, "signature must be compared in constant time"


def test_bad_ids_rejected_when_building():
    with pytest.raises(ValueError):
        tokens.make_reply_address(SECRET, INBOUND, "a-b", 1)
    with pytest.raises(ValueError):
        tokens.make_reply_address("", INBOUND, 1, 1)


@given(st.text(max_size=200))
def test_parse_reply_address_only_raises_badtoken(text):
    try:
        tokens.parse_reply_address(SECRET, INBOUND, text)
    except BadToken:
        pass


@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=0, max_value=10**6))
def test_reply_address_round_trip_property(game, seat):
    addr = tokens.make_reply_address(SECRET, INBOUND, game, seat)
    assert len(addr.split("@")[0]) <= 64  # RFC 5321 local-part limit
    assert tokens.parse_reply_address(SECRET, INBOUND, addr) == (game, seat)


def test_signin_round_trip_carries_subject_and_nonce():
    token, nonce = tokens.make_signin_token(SECRET, {"game": 12, "seat": 3})
    claim = tokens.read_signin_token(SECRET, token)
    assert claim.subject == {"game": 12, "seat": 3}
    assert claim.nonce == nonce and len(nonce) >= 16
    assert claim.issued_at.tzinfo is not None
    # a second token for the same subject has its own nonce
    assert tokens.make_signin_token(SECRET, {"game": 12, "seat": 3})[1] != nonce


def test_signin_tampered_or_other_key_refused():
    token, _ = tokens.make_signin_token(SECRET, {"user": 1})
    with pytest.raises(BadToken):
        tokens.read_signin_token("other", token)
    flipped = token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]
    with pytest.raises(BadToken):
        tokens.read_signin_token(SECRET, flipped)
    with pytest.raises(BadToken):
        tokens.read_signin_token(SECRET, "")


def test_signin_expires(monkeypatch):
    import itsdangerous.timed as timed
    now = timed.time.time()
    monkeypatch.setattr(timed.time, "time", lambda: now - 3600)
    token, _ = tokens.make_signin_token(SECRET, {"user": 1})
    monkeypatch.setattr(timed.time, "time", lambda: now)
    assert tokens.read_signin_token(SECRET, token, max_age=7200).subject == {"user": 1}
    with pytest.raises(ExpiredToken):
        tokens.read_signin_token(SECRET, token, max_age=60)


def test_signin_key_rotation():
    token, _ = tokens.make_signin_token("old", "x")
    with pytest.raises(BadToken):
        tokens.read_signin_token("new", token)
    assert tokens.read_signin_token("new", token, old_secrets=["old"]).subject == "x"
