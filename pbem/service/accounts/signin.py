"""Sign-in for the player pages: single-use sign-in links and the "send me
a sign-in link" email.

Sign-in tokens are made and verified by :mod:`pbem.mail.tokens`; single use
is enforced here by recording the token's nonce in ``used_tokens``.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbem.mail import compose
from pbem.mail.tokens import (
    DEFAULT_SIGNIN_MAX_AGE, BadToken, SignInClaim, make_signin_token, read_signin_token,
)
from pbem.service.accounts.addresses import normalise_email
from pbem.service.accounts.players import get_or_create_player
from pbem.service.core import links, queue
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Player, Seat, UsedToken, utcnow
from pbem.service.post.envelope import envelope
from pbem.service.post.send import send


class UsedTokenError(BadToken):
    """A sign-in link that was already used once."""


class SeatNotHeld(BadToken):
    """A turn-email link for a seat its player no longer holds (replaced)."""


@dataclass(frozen=True)
class SignIn:
    """A verified sign-in: the player, the path to land on and, for a link
    from a turn email, the one seat ``(game id, seat index)`` it opens."""

    player_id: int
    next_path: str
    seat: tuple[int, int] | None = None


def safe_path(path: object, default: str = "/") -> str:
    """``path`` if it is a local absolute path of this site (no scheme, no
    ``//host``, no backslash), else ``default``: a sign-in link never sends
    anyone elsewhere."""
    if not isinstance(path, str) or not path.startswith("/") or path.startswith("//") \
            or "\\" in path or any(ord(c) < 32 for c in path) or len(path) > 500:
        return default
    return path


def check_signin(token: str, *, max_age: int = DEFAULT_SIGNIN_MAX_AGE) -> tuple[SignInClaim, Player | None, str]:
    """Verify ``token`` without using it up: ``(claim, player, email)``.
    ``player`` is ``None`` for a link that signs up a new address (``email``
    set). Raises :class:`BadToken` (forged, malformed, or scoped to a seat
    the player no longer holds), ``ExpiredToken``, or
    :class:`UsedTokenError`."""
    claim = read_signin_token(current_app.config["SECRET_KEY"], token, max_age=max_age,
                              old_secrets=current_app.config.get("SECRET_KEY_FALLBACKS") or ())
    subject = claim.subject if isinstance(claim.subject, dict) else {}
    if db.session.get(UsedToken, claim.nonce) is not None:
        raise UsedTokenError("this sign-in link has been used already")
    player = None
    email = ""
    if isinstance(subject.get("player"), int):
        player = db.session.get(Player, subject["player"])
        if player is None:
            raise BadToken("this sign-in link is for a player who no longer exists")
        email = player.email
    elif isinstance(subject.get("email"), str):
        try:
            email = normalise_email(subject["email"])
        except ServiceError:
            raise BadToken("this sign-in link is for something that is not an email address") from None
        player = db.session.execute(select(Player).where(Player.email == email)).scalar_one_or_none()
    else:
        raise BadToken("sign-in token payload is malformed")
    seat = claim.seat
    if seat is not None and (player is None or db.session.execute(select(Seat.id).where(
            Seat.game_id == seat[0], Seat.index == seat[1], Seat.player_id == player.id)).first() is None):
        raise SeatNotHeld("this link is for a seat you no longer hold")
    return claim, player, email


def use_signin(token: str, *, max_age: int = DEFAULT_SIGNIN_MAX_AGE, now: dt.datetime | None = None,
               with_player=None) -> SignIn:
    """Verify ``token`` and use it up (records its nonce; a second use
    raises :class:`UsedTokenError`). A sign-up link creates the player.
    ``with_player(player)``, when given, changes the player row in the same
    write transaction (the first sign-in's defaults): the link is spent
    only when everything commits, and stays usable when anything fails.
    Commits. Raises :class:`BadToken` / ``ExpiredToken`` / :class:`UsedTokenError`."""
    now = now or utcnow()
    claim, _player, email = check_signin(token, max_age=max_age)
    begin_write()
    if db.session.get(UsedToken, claim.nonce) is not None:
        db.session.rollback()
        raise UsedTokenError("this sign-in link has been used already")
    db.session.add(UsedToken(nonce=claim.nonce, used_at=now,
                             expires_at=claim.issued_at + dt.timedelta(seconds=max_age)))
    player = get_or_create_player(email)
    try:
        if with_player is not None:
            with_player(player)
        db.session.commit()
    except IntegrityError:  # the same link clicked twice at once
        db.session.rollback()
        raise UsedTokenError("this sign-in link has been used already") from None
    except Exception:  # nothing is kept, the link included: it works again
        db.session.rollback()
        raise
    subject = claim.subject if isinstance(claim.subject, dict) else {}
    return SignIn(player.id, safe_path(subject.get("next")), claim.seat)


def send_signin_link(email: str, next_path: str = "/", *, now: dt.datetime | None = None,
                     language: str | None = None) -> str:
    """Email a sign-in link to ``email`` (a new address gets a link that
    signs it up); the mail is built by :func:`pbem.mail.compose.signin`
    like every other. Returns the normalised address it went to. Raises
    :class:`ServiceError` (nothing sent) when ``email`` is not exactly one
    address. Writes an outbox row, commits and starts delivery. The mail
    is in the player's language; for an address not known yet, in
    ``language`` (the page's), else English."""
    now = now or utcnow()
    email = normalise_email(email)
    cfg = current_app.config
    next_path = safe_path(next_path)
    player = db.session.execute(select(Player).where(Player.email == email)).scalar_one_or_none()
    subject = {"player": player.id, "next": next_path} if player else {"email": email, "next": next_path}
    token, nonce = make_signin_token(cfg["SECRET_KEY"], subject)
    env = envelope(
        None, None, now=now, tag="pbem.0.signin", reply=False, player=player, to_address=email,
        to_name=player.name if player else email.split("@")[0],
        # the player's own language once known (chosen, or the browser's at a sign-in), else the page's
        lang=(player.language if player and (player.language_chosen or player.first_signin_at) else None)
        or language or (player.language if player else None) or "en")
    msg = compose.signin(env, signin_url=links.absolute(f"/signin/{token}"),
                         expires_at=now + dt.timedelta(seconds=DEFAULT_SIGNIN_MAX_AGE), new_player=player is None)
    begin_write()
    # a link asked for right now goes even to an address that bounced (mailprefs.ASKED_NOW)
    send(msg, kind="signin", dedupe_key=f"signin:{nonce}", player=player, now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return email


__all__ = ["SignIn", "UsedTokenError", "SeatNotHeld", "safe_path", "check_signin", "use_signin", "send_signin_link"]
