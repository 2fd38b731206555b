"""Signed tokens for mail: per-seat reply addresses and sign-in links.

Reply addresses
    ``play+<game>-<seat>-<holder>-<sig>@<domain>`` built on the configured
    inbound address (``play@<domain>``). ``holder`` is the id of the player
    who held the seat when the mail was sent, so the address stops being
    the seat's when the host gives the seat to someone else (issue 22).
    ``sig`` is an HMAC-SHA256 over the game, seat and holder ids, truncated
    to 80 bits and written in lower-case base32 (mail systems may fold the
    case of local parts, so the alphabet is case-free). They do not expire:
    a holder keeps one address for the whole game, and a reply to an old
    email is judged stale by the service, not here. Addresses written
    before holders were bound, ``play+<game>-<seat>-<sig>``, still verify
    (with no holder); whether they still count is the service's call.

Sign-in tokens
    itsdangerous timed tokens carrying a subject (what the link signs in to)
    and a random nonce; the service records used nonces so a link works once.

Every comparison of a signature is constant time (``hmac.compare_digest``).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from email.headerregistry import Address
from typing import Any, Iterable

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

__all__ = [
    "BadToken",
    "ExpiredToken",
    "SignInClaim",
    "ReplyAddress",
    "make_reply_address",
    "parse_reply_address",
    "read_reply_address",
    "make_signin_token",
    "read_signin_token",
    "DEFAULT_SIGNIN_MAX_AGE",
]

#: Sign-in links are good for seven days (seconds).
DEFAULT_SIGNIN_MAX_AGE = 7 * 24 * 3600

_ID_RE = re.compile(r"^[A-Za-z0-9_]{1,40}$")
_SIG_LEN = 16  # base32 characters = 80 bits
_SIGNIN_SALT = "pbem.signin.v1"


class BadToken(ValueError):
    """A reply address or sign-in token that is malformed, for another
    address, or whose signature does not verify. ``str(err)`` says which."""


class ExpiredToken(BadToken):
    """A sign-in token whose signature is good but which is older than
    ``max_age``."""


def _key(secret: str | bytes) -> bytes:
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not secret:
        raise ValueError("empty secret key")
    return secret


def _reply_sig(secret: str | bytes, game_id: str, seat_id: str, holder: str | None = None) -> str:
    text = f"pbem.reply.v1:{game_id}:{seat_id}" if holder is None else f"pbem.reply.v2:{game_id}:{seat_id}:{holder}"
    mac = hmac.new(_key(secret), text.encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode("ascii").lower()[:_SIG_LEN]


def _id_text(value: int | str, what: str) -> str:
    text = str(value)
    if isinstance(value, bool) or not _ID_RE.match(text):
        raise ValueError(f"{what} must be an int or [A-Za-z0-9_]{{1,40}}, got {value!r}")
    return text


def _id_value(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _split_address(address: str) -> tuple[str, str]:
    address = address.strip().strip("<>").strip()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        raise BadToken(f"not an email address: {address[:80]!r}")
    return local, domain.lower()


def make_reply_address(secret: str | bytes, inbound_address: str,
                       game_id: int | str, seat_id: int | str, *, holder: int | str | None = None) -> str:
    """The Reply-To address of one seat in one game, for its ``holder``
    (the player id; ``None`` writes the old unbound form).

    ``inbound_address`` is the service's configured inbound address, e.g.
    ``"play@pbem.example"``; the result is ``"play+12-3-7-<sig>@pbem.example"``
    (game 12, seat 3, player 7). Ids are ints (primary keys) or short
    ``[A-Za-z0-9_]`` strings. Raises ``ValueError`` for an id outside that
    alphabet or an empty secret.
    """
    base, domain = _split_address(inbound_address)
    base = base.split("+", 1)[0]
    game, seat = _id_text(game_id, "game_id"), _id_text(seat_id, "seat_id")
    if holder is None:
        return f"{base}+{game}-{seat}-{_reply_sig(secret, game, seat)}@{domain}"
    who = _id_text(holder, "holder")
    return f"{base}+{game}-{seat}-{who}-{_reply_sig(secret, game, seat, who)}@{domain}"


@dataclass(frozen=True)
class ReplyAddress:
    """A verified reply address: ``game`` and ``seat`` ids, and ``holder``,
    the player id it was written for (``None``: the old unbound form).
    Ids are ``int`` when all digits, else ``str``."""

    game: int | str
    seat: int | str
    holder: int | str | None


def parse_reply_address(secret: str | bytes, inbound_address: str, address: str, *,
                        old_secrets: Iterable[str | bytes] = ()) -> tuple[int | str, int | str]:
    """Verify a reply address and return ``(game_id, seat_id)``
    (:func:`read_reply_address` without the holder)."""
    found = read_reply_address(secret, inbound_address, address, old_secrets=old_secrets)
    return found.game, found.seat


def read_reply_address(secret: str | bytes, inbound_address: str, address: str, *,
                       old_secrets: Iterable[str | bytes] = ()) -> ReplyAddress:
    """Verify a reply address and return its :class:`ReplyAddress`.

    ``address`` may be bare or in angle brackets; case of the local part and
    domain is ignored. ``old_secrets`` are earlier keys still accepted while a
    key is rotated. Raises :class:`BadToken` when the address is not ours,
    is malformed, or its signature does not verify (constant-time compare).
    """
    if isinstance(address, Address):  # pragma: no cover - convenience
        address = address.addr_spec
    base, domain = _split_address(inbound_address)
    base = base.split("+", 1)[0].lower()
    local, adomain = _split_address(address)
    if adomain != domain:
        raise BadToken(f"address is for domain {adomain!r}, not {domain!r}")
    lbase, plus, tag = local.partition("+")
    if lbase.lower() != base or not plus:
        raise BadToken("address is not a reply address of this service")
    parts = tag.split("-")
    if len(parts) not in (3, 4):
        raise BadToken("reply address tag must be <game>-<seat>-<holder>-<signature>")
    game, seat, *who, sig = parts
    holder = who[0] if who else None
    if not all(_ID_RE.match(p) for p in parts[:-1]) or len(sig) != _SIG_LEN:
        raise BadToken("reply address tag is malformed")
    given = sig.lower().encode("ascii", "replace")
    ok = False
    for key in (secret, *old_secrets):
        # No early exit: every key is tried, so timing does not tell which matched.
        ok |= hmac.compare_digest(given, _reply_sig(key, game, seat, holder).encode("ascii"))
    if not ok:
        raise BadToken("reply address signature does not verify")
    return ReplyAddress(_id_value(game), _id_value(seat), None if holder is None else _id_value(holder))


@dataclass(frozen=True)
class SignInClaim:
    """What a verified sign-in token carries.

    ``subject`` is what the service signed: ``{"player": 7, "next": "/"}``,
    ``{"email": "ada@example.org", "next": "/"}`` (a sign-up), or with
    ``"seat": [game id, seat index]`` a link that opens only that seat's
    pages (see :attr:`seat`); ``nonce`` is the random single-use id the
    service records when the link is used; ``issued_at`` is UTC.
    """

    subject: Any
    nonce: str
    issued_at: datetime

    @property
    def seat(self) -> tuple[int, int] | None:
        """``(game id, seat index)`` when the link is scoped to one seat
        (subject key ``"seat"``: the links in turn emails), else ``None``
        (a link to the whole account). A malformed scope raises
        :class:`BadToken`: a link never widens to the whole account by
        accident."""
        if not isinstance(self.subject, dict) or "seat" not in self.subject:
            return None
        value = self.subject["seat"]
        if (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
            return value[0], value[1]
        raise BadToken("sign-in token seat scope is malformed")


def _serializer(secret: str | bytes) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(_key(secret), salt=_SIGNIN_SALT)


def make_signin_token(secret: str | bytes, subject: Any, *, nonce: str | None = None) -> tuple[str, str]:
    """A URL-safe signed sign-in token for ``subject`` (any JSON value).

    Returns ``(token, nonce)``; the service stores the nonce with the
    invitation and marks it used on first sign-in. The token expires by the
    ``max_age`` given to :func:`read_signin_token`.
    """
    nonce = nonce or secrets.token_urlsafe(16)
    token = _serializer(secret).dumps({"s": subject, "n": nonce})
    return token, nonce


def read_signin_token(secret: str | bytes, token: str, *, max_age: int = DEFAULT_SIGNIN_MAX_AGE,
                      old_secrets: Iterable[str | bytes] = ()) -> SignInClaim:
    """Verify a sign-in token (constant-time signature check by itsdangerous).

    ``max_age`` is in seconds. Raises :class:`ExpiredToken` when the token is
    older than that, :class:`BadToken` when it is malformed or forged.
    Single use is the caller's job: check ``claim.nonce`` was not used yet.
    """
    if not isinstance(token, str) or not token or len(token) > 4096:
        raise BadToken("missing or oversized sign-in token")
    # itsdangerous tries every key in the list; the last one signs.
    ser = URLSafeTimedSerializer([*map(_key, old_secrets), _key(secret)], salt=_SIGNIN_SALT)
    try:
        payload, ts = ser.loads(token, max_age=max_age, return_timestamp=True)
    except SignatureExpired as exc:
        raise ExpiredToken("sign-in link has expired") from exc
    except BadSignature as exc:
        raise BadToken("sign-in link is not valid") from exc
    if not isinstance(payload, dict) or "n" not in payload or not isinstance(payload["n"], str):
        raise BadToken("sign-in token payload is malformed")
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return SignInClaim(subject=payload.get("s"), nonce=payload["n"], issued_at=ts)


# --- VERP bounce addresses (issue 13, "Bounces") -----------------------------

def _bounce_sig(secret: str | bytes, row_id: str) -> str:
    mac = hmac.new(_key(secret), f"pbem.bounce.v1:{row_id}".encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode("ascii").lower()[:_SIG_LEN]


def make_bounce_address(secret: str | bytes, inbound_address: str, row_id: int) -> str:
    """The envelope sender (Return-Path) of one outgoing mail, VERP style:
    ``"play+bounce-42-<sig>@pbem.example"`` for outbox row 42, so a bounce
    says which mail, and so which recipient, failed."""
    base, domain = _split_address(inbound_address)
    return f"{base.split('+', 1)[0]}+bounce-{int(row_id)}-{_bounce_sig(secret, str(int(row_id)))}@{domain}"


def parse_bounce_address(secret: str | bytes, inbound_address: str, address: str, *,
                         old_secrets: Iterable[str | bytes] = ()) -> int | None:
    """The outbox row id of a :func:`make_bounce_address` address signed
    with ``secret`` or one of ``old_secrets``; ``None`` for any other
    address (a forged or mangled one included)."""
    try:
        base, domain = _split_address(address)
        own_base, own_domain = _split_address(inbound_address)
    except BadToken:
        return None
    head, _, tag = base.partition("+")
    if domain != own_domain or head.lower() != own_base.split("+", 1)[0].lower():
        return None
    parts = tag.split("-")
    if len(parts) != 3 or parts[0].lower() != "bounce" or not parts[1].isdigit():
        return None
    given = parts[2].lower().encode("ascii", "replace")
    ok = False
    for key in (secret, *old_secrets):
        ok |= hmac.compare_digest(given, _bounce_sig(key, str(int(parts[1]))).encode("ascii"))
    return int(parts[1]) if ok else None
