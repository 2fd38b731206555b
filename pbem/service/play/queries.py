"""Service functions the player pages need beyond the lifecycle and orders:
single-use sign-in, the "send me a sign-in link" email, a dry run of orders
for the confirmation page, and read-only queries (a player's seats, the
events a seat may see).

Sign-in tokens are made and verified by :mod:`pbem.mail.tokens`; single use
is enforced here by recording the token's nonce in ``used_tokens``.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbem.mail import compose
from pbem.mail.tokens import (
    DEFAULT_SIGNIN_MAX_AGE, BadToken, SignInClaim, make_signin_token, read_signin_token,
)
from pbem.service import links, outbox, queue
from pbem.service.db import begin_write, db
from pbem.service.errors import ServiceError
from pbem.engine import get_game
from pbem.engine.messages import Msg
from pbem.service.addresses import normalise_email
from pbem.service.lifecycle import get_or_create_player
from pbem.service.models import ACTIVE, Game, GameEvent, PendingOrder, Player, Seat, UsedToken, utcnow
from pbem.service.orders import LineResult, SubmitResult, check_orders, split_lines
from pbem.service.snapshot import engine_state, load_game


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
    env = compose.Envelope(
        sender=cfg["MAIL_FROM"], to_name=player.name if player else email.split("@")[0], to_address=email,
        inbound_address=cfg["INBOUND_ADDRESS"],
        timezone=(player.timezone if player else None) or cfg["DEFAULT_TIMEZONE"],
        # the player's own language once known (chosen, or the browser's at a sign-in), else the page's
        locale=(player.language if player and (player.language_chosen or player.first_signin_at) else None)
        or language or (player.language if player else None) or "en",
        sent_at=now, msgid_tag="pbem.0.signin")
    msg = compose.signin(env, signin_url=links.absolute(f"/signin/{token}"),
                         expires_at=now + dt.timedelta(seconds=DEFAULT_SIGNIN_MAX_AGE), new_player=player is None)
    begin_write()
    outbox.add(msg, kind="signin", dedupe_key=f"signin:{nonce}", now=now)
    db.session.commit()
    queue.enqueue(queue.DELIVER)
    return email


# -- reading -----------------------------------------------------------------

def seats_of(player_id: int) -> list[Seat]:
    """Every seat ``player_id`` holds, newest game first."""
    return list(db.session.execute(
        select(Seat).join(Game).where(Seat.player_id == player_id)
        .order_by(Game.status == "finished", Game.updated_at.desc())).scalars())


def visible_events(game_id: int, seat: int | None, *, limit: int | None = 60,
                   until_step: int | None = None) -> list[GameEvent]:
    """Events of game ``game_id`` that ``seat`` (``None``: a spectator) may
    see, newest first; ``until_step`` keeps those up to that state step."""
    stmt = select(GameEvent).where(GameEvent.game_id == game_id)
    if seat is None:
        stmt = stmt.where(GameEvent.seat_index.is_(None))
    else:
        stmt = stmt.where((GameEvent.seat_index.is_(None)) | (GameEvent.seat_index == seat))
    if until_step is not None:
        stmt = stmt.where(GameEvent.step <= until_step)
    stmt = stmt.order_by(GameEvent.id.desc())
    if limit:
        stmt = stmt.limit(limit)
    return list(db.session.execute(stmt).scalars())


def pending_order(game_id: int, seat_index: int, step: int) -> PendingOrder | None:
    """The seat's stored orders for ``step`` (waiting for the others), if any."""
    return db.session.execute(
        select(PendingOrder).where(PendingOrder.game_id == game_id, PendingOrder.seat_index == seat_index,
                                   PendingOrder.step == step)).scalar_one_or_none()


@dataclass
class PreviewResult(SubmitResult):
    """A :class:`SubmitResult` of a dry run, with ``sites``: the board
    sites the accepted orders target, in order (for the confirmation page's
    picture)."""

    sites: list[str] = field(default_factory=list)


def preview_orders(game_id: int, seat_index: int, text: str, *, expected_step: int | None) -> PreviewResult:
    """A dry run of :func:`pbem.service.orders.submit_orders`: the same
    checks on a copy of the state, nothing stored. ``status`` is
    ``"preview"`` when every line is legal (``lines[i].order`` is its
    canonical text in the command language), else ``"refused"`` or
    ``"stale"`` with the same messages the real submission would give."""
    game = load_game(game_id)
    result = PreviewResult("refused", game_id, seat_index, game.step)
    result.lines = [LineResult(line) for line in split_lines(text)]

    problem = check_orders(game, seat_index, result, expected_step=expected_step)
    if problem is not None:
        result.message, result.status, result.legal = problem
        for line in result.lines:
            if line.order is None and line.error is None:
                line.checked = False
        return result
    # the sites the orders target, for the picture (the lines are known legal now)
    kind = get_game(game.kind)
    trial = engine_state(game)
    for line in result.lines:
        if line.held:   # kept for a later decision (pbem.service.held): not applied now
            continue
        action = kind.parse_action(trial, seat_index, line.order)
        trial.apply(seat_index, action)
        if action.site:
            result.sites.append(action.site)
    result.status = "preview"
    result.message = Msg("Please check your orders, then send them.")
    return result


@dataclass
class NextDecision:
    """What the order page needs after some order lines of a turn: the
    dry-run ``result`` (``status`` ``"preview"`` when every line is legal);
    ``more``: the seat still owes a decision in the same turn after them
    (Medina: the second piece; La Città: the demolition after a famine);
    ``actions``: its legal actions then; ``view``: the seat's view with the
    lines applied (to draw the board as it will be). ``preview`` is False
    when the game is not ``previewable`` (chance or hidden information):
    then only the lines are checked, and nothing after them is shown."""

    result: PreviewResult
    preview: bool = True
    more: bool = False
    actions: list = field(default_factory=list)
    view: dict | None = None


def next_decision(game_id: int, seat_index: int, text: str, *, expected_step: int | None) -> NextDecision:
    """Dry-run ``text`` (possibly empty) like :func:`preview_orders` and say
    whether the seat's turn holds another decision after it
    (``State.turn_key`` unchanged and the seat still to move). Nothing is
    stored. Game-independent: the order page builds multi-order turns on it."""
    game = load_game(game_id)
    lines = split_lines(text)
    state = engine_state(game) if game.state is not None else None
    if not lines:  # the first decision of the turn
        result = PreviewResult("preview", game_id, seat_index, game.step)
        if state is None or game.status != ACTIVE or seat_index not in state.current_seats():
            result.status, result.message = "refused", Msg("You owe no order now.")
        elif expected_step is not None and expected_step != game.step:
            result.status, result.message = "stale", Msg("The game has moved on; please load the page "
                                                         "again.")
        else:
            return NextDecision(result, more=True, actions=state.legal_actions(seat_index),
                                view=state.view(seat_index))
        return NextDecision(result)
    result = preview_orders(game_id, seat_index, text, expected_step=expected_step)
    if result.status != "preview":
        return NextDecision(result)
    kind = get_game(game.kind)
    if not kind.previewable:   # the position after them could show a draw before it is sent
        return NextDecision(result, preview=False)
    trial = engine_state(game)
    for line in result.lines:
        if not line.held:
            trial.apply(seat_index, kind.parse_action(trial, seat_index, line.order))
    more = seat_index in trial.current_seats() and trial.turn_key() == state.turn_key()
    return NextDecision(result, more=more, actions=trial.legal_actions(seat_index) if more else [],
                        view=trial.view(seat_index))


__all__ = ["NextDecision", "next_decision", "PreviewResult", "SignIn", "UsedTokenError", "SeatNotHeld", "safe_path", "check_signin", "use_signin", "send_signin_link",
           "seats_of", "visible_events", "pending_order", "preview_orders"]
