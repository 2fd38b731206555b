"""Build the emails pbem sends: plain dataclasses in (:mod:`.inputs`),
``EmailMessage`` out, one function per kind of mail (a template pair in
``pbem/mail/templates``).

How a message is put together (parts, pictures, headers) is
:mod:`.message`; header writing :mod:`.headers`; the templates in the
recipient's language :mod:`.render`; dates :mod:`.dates`. The names
callers use are importable from here.
"""
from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage
from typing import Sequence

from babel.support import NullTranslations

from . import help_rows
from .dates import format_deadline, time_left
from .headers import POLICY
from .inputs import DigestItem, Envelope, GameRef, Result, ScoreLine, Turn
from .message import MAX_LEGAL_SHOWN, build, subject_prefix
from .render import catalog, language

__all__ = [
    "Envelope", "GameRef", "Turn", "Result", "ScoreLine", "DigestItem",
    "invitation", "turn_notice", "reminder", "turn_result", "missed_turn",
    "order_confirmation", "order_refusal", "game_over", "digest", "host_notice", "signin", "host_action",
    "HOST_ACTIONS", "not_applied", "NOT_APPLIED_REASONS",
    "format_deadline", "language", "subject_prefix", "MAX_LEGAL_SHOWN", "POLICY",
]


def _legal(orders: Sequence[str]) -> tuple[list[str], int]:
    shown = list(orders[:MAX_LEGAL_SHOWN])
    return shown, max(0, len(orders) - len(shown))


def _turn_context(env: Envelope, turn: Turn) -> dict:
    shown, more = _legal(turn.legal_orders)
    return {
        "turn": turn,
        "deadline": (catalog(env).gettext("none: the game waits for you") if turn.paced and turn.deadline is None
                     else format_deadline(turn.deadline, env.timezone, env.locale)),
        "legal_shown": shown,
        "legal_more": more,
        "examples": list(turn.examples),
        "help_blocks": help_rows.blocks(turn.order_help) if turn.order_help else [],
    }


def invitation(env: Envelope, game: GameRef, *, host_name: str, seat: int, other_players: Sequence[str],
               signin_url: str, deadline_hours: float, link_expires_at: datetime | None = None,
               game_kind: str = "") -> EmailMessage:
    """The invitation with a sign-in link (signed, expiring, single use).
    ``seat``: the seat's number (1-based; the sentence names the seat).
    ``deadline_hours`` is the time a player has for each move.
    ``game_kind``: the game's name as players read it ("Medina"), shown
    after the title only when the title is another ("Torre Vecchia #2
    (La Città)"). The subject has the game's prefix, as every later mail."""
    subject = catalog(env).gettext("{prefix} — {host} invites you to play").format(
        prefix=subject_prefix(game), host=host_name)
    kind = game_kind if game_kind and game_kind != game.title else ""
    return build("invitation", env, subject, {
        "game": game, "host_name": host_name, "seat": seat, "others": list(other_players),
        "signin_url": signin_url, "deadline_hours": f"{deadline_hours:g}", "game_kind": kind,
        "expires": format_deadline(link_expires_at, env.timezone, env.locale) if link_expires_at else "",
    })


def turn_notice(env: Envelope, game: GameRef, turn: Turn) -> EmailMessage:
    """"It is your move": board, private information, what happened since
    the seat's last move, legal orders with examples, deadline, order link."""
    subject = catalog(env).gettext("{prefix} — your move ({phase})").format(prefix=subject_prefix(game), phase=turn.phase)
    return build("turn_notice", env, subject, {"game": game, **_turn_context(env, turn)},
                 board_png=turn.board_png, board_alt=turn.board_alt, asks_for_orders=True,
                 closeup_png=turn.closeup_png, closeup_alt=turn.closeup_alt)


def reminder(env: Envelope, game: GameRef, turn: Turn) -> EmailMessage:
    """The turn notice again, before the deadline, saying how long is left
    (measured from ``env.sent_at``)."""
    now = env.sent_at or datetime.now(timezone.utc)
    left = time_left(turn.deadline, now, env.locale)
    tr = catalog(env)
    subject = (tr.gettext("{prefix} — reminder: your move, {time} left").format(prefix=subject_prefix(game), time=left)
               if left else tr.gettext("{prefix} — reminder: your move").format(prefix=subject_prefix(game)))
    return build("reminder", env, subject, {"game": game, "left": left, **_turn_context(env, turn)},
                 board_png=turn.board_png, board_alt=turn.board_alt, asks_for_orders=True,
                 closeup_png=turn.closeup_png, closeup_alt=turn.closeup_alt)


def turn_result(env: Envelope, game: GameRef, result: Result) -> EmailMessage:
    """What happened when a turn resolved (to every seat that should hear).
    With ``result.you_missed`` it is a missed-turn notice instead."""
    tr, prefix = catalog(env), subject_prefix(game)
    if result.you_missed:
        subject = tr.gettext("{prefix} — you missed a turn ({phase})").format(prefix=prefix, phase=result.phase)
    elif result.missed:
        subject = tr.gettext("{prefix} — {phase}: missed deadline").format(prefix=prefix, phase=result.phase)
    else:
        subject = tr.gettext("{prefix} — what happened ({phase})").format(prefix=prefix, phase=result.phase)
    return build("turn_result", env, subject, {"game": game, "result": result},
                 board_png=result.board_png, board_alt=result.board_alt)


def missed_turn(env: Envelope, game: GameRef, *, phase: str, default_order: str, missed_count: int,
                events: Sequence[str] = (), next_up: str = "", board_png: bytes | None = None,
                board_alt: str = "", position_text: str = "") -> EmailMessage:
    """"You missed the deadline; this default order was applied for you."""
    return turn_result(env, game, Result(phase=phase, events=events, you_missed=True,
                                         default_order=default_order, missed_count=missed_count,
                                         next_up=next_up, board_png=board_png, board_alt=board_alt,
                                         position_text=position_text))


def order_confirmation(env: Envelope, game: GameRef, *, phase: str, lines_read: Sequence[str],
                       outcome: Sequence[str], next_up: str = "", order_url: str = "",
                       ignored: Sequence[str] = ()) -> EmailMessage:
    """The answer to accepted orders: every line as read, and what happened
    (``outcome``: event lines). ``phase``: the turn the orders were for.
    ``ignored``: lines of the mail set aside as greeting or sign-off
    ("ignored: Cheers / Bruno"). Threads to the player's mail via
    ``env.in_reply_to``."""
    subject = catalog(env).gettext("{prefix} — orders accepted ({phase})").format(prefix=subject_prefix(game), phase=phase)
    return build("order_confirmation", env, subject, {
        "game": game, "phase": phase, "lines": list(lines_read), "outcome": list(outcome),
        "next_up": next_up, "order_url": order_url, "ignored": list(ignored),
    }, answering=env.in_reply_to is not None)


def order_refusal(env: Envelope, game: GameRef, *, lines_read: Sequence[str], failed_line: int | None,
                  reason: str, turn: Turn | None = None, phase: str = "", ignored: Sequence[str] = (),
                  suggestion: str | None = None, seen: Sequence[str] = ()) -> EmailMessage:
    """The answer to orders that were not applied: every line as read, the
    line that failed (1-based ``failed_line``; ``None`` when the whole mail
    was refused, e.g. nothing read or not your turn), why, a close legal
    order (``suggestion``: "did you mean …?"), the lines set aside as
    greeting or sign-off (``ignored``), and — with ``turn`` — what is legal
    now, examples and the deadline. ``seen``: when no order line was found,
    the first lines of the mail as pbem saw them. Nothing of the
    submission was applied."""
    phase = phase or (turn.phase if turn else "")
    tr, prefix = catalog(env), subject_prefix(game)
    if failed_line and phase:
        subject = tr.gettext("{prefix} — order refused: line {line} ({phase})")
    elif failed_line:
        subject = tr.gettext("{prefix} — order refused: line {line}")
    elif phase:
        subject = tr.gettext("{prefix} — order refused: not applied ({phase})")
    else:
        subject = tr.gettext("{prefix} — order refused: not applied")
    subject = subject.format(prefix=prefix, line=failed_line, phase=phase)
    context = {"game": game, "lines": list(lines_read), "failed": failed_line, "reason": reason,
               "phase": phase, "turn": turn, "ignored": list(ignored), "suggestion": suggestion,
               "seen": list(seen)}
    if turn is not None:
        context.update(_turn_context(env, turn))
    else:
        context.update({"deadline": "", "legal_shown": [], "legal_more": 0, "examples": []})
    return build("order_refusal", env, subject, context, answering=env.in_reply_to is not None,
                 asks_for_orders=turn is not None)


def game_over(env: Envelope, game: GameRef, *, scores: Sequence[ScoreLine], events: Sequence[str] = (),
              final_view: str = "", board_png: bytes | None = None, board_alt: str = "",
              record_urls: tuple[str, str] | None = None) -> EmailMessage:
    """Final scores (``scores`` in place order), the last events and the
    final position; ``record_urls``: the game record's download links,
    ``(text, JSON)``, absolute (``None``: no record lines)."""
    ordered = sorted(scores, key=lambda s: (s.place, s.name))
    winners = [s.name for s in ordered if s.place == 1]
    tr = catalog(env)
    if len(winners) == 1:
        headline = tr.gettext("{name} wins").format(name=winners[0])
    elif winners:
        headline = tr.gettext("shared victory: {names}").format(names=", ".join(winners))
    else:
        headline = tr.gettext("final scores")
    subject = tr.gettext("{prefix} — game over: {headline}").format(prefix=subject_prefix(game), headline=headline)
    return build("game_over", env, subject, {"game": game, "scores": ordered, "headline": headline,
                                              "events": list(events), "final_view": final_view,
                                              "record_urls": record_urls},
                 board_png=board_png, board_alt=board_alt)


def digest(env: Envelope, items: Sequence[DigestItem]) -> EmailMessage:
    """The daily digest of a player who asked for one: every notice of the
    day in one mail, oldest first. No Reply-To: each item names the address
    that takes orders for its game."""
    n = len(items)
    tr = catalog(env)
    subject = tr.ngettext("[pbem] Your daily digest: {n} message",
                          "[pbem] Your daily digest: {n} messages", n).format(n=n)
    return build("digest", env, subject, {"game": GameRef(tr.gettext("daily digest"), ""), "items": list(items)})


def host_notice(env: Envelope, game: GameRef, *, headline: str, paragraphs: Sequence[str]) -> EmailMessage:
    """A short notice to a game's host (a player's mail bounces): the
    subject ``[pbem] La Città #12 — <headline>`` and plain paragraphs.
    One that answers a player's mail (``env.in_reply_to``: the absence
    answer) is ``Auto-Submitted: auto-replied`` (RFC 3834 §5)."""
    return build("notice", env, f"{subject_prefix(game)} — {headline}",  # headline: in the recipient's words
                 {"game": game, "paragraphs": list(paragraphs)}, answering=env.in_reply_to is not None)


#: what a host can do to a running game, for :func:`host_action`
HOST_ACTIONS = ("paused", "resumed", "extended", "cancelled")


def _host_words(tr: NullTranslations, action: str, prefix: str, phase: str, deadline: str,
                hours_left: float | None) -> tuple[str, str]:
    """The subject and first line of a host notice: what the host did."""
    if action == "cancelled":
        return (tr.gettext("{prefix} — cancelled by the host").format(prefix=prefix),
                tr.gettext("The host has cancelled the game. It ends here, without scores; "
                           "no more turns or deadlines."))
    if action == "paused":
        return (tr.gettext("{prefix} — paused by the host").format(prefix=prefix),
                tr.gettext("The host has paused the game: the clock is stopped until it resumes."))
    if action == "resumed":
        return (tr.gettext("{prefix} — resumed, deadline {deadline}").format(prefix=prefix, deadline=deadline),
                tr.gettext("The host has resumed the game. The deadline is now {deadline}.").format(deadline=deadline))
    if hours_left is not None:  # extended while paused
        return (tr.gettext("{prefix} — deadline extended, the game is still paused").format(prefix=prefix),
                tr.gettext("The host has extended the deadline. The game is paused: when it resumes, "
                           "{hours} h are left to the deadline.").format(hours=f"{hours_left:.3g}"))
    return (tr.gettext("{prefix} — deadline extended to {deadline}").format(prefix=prefix, deadline=deadline),
            tr.gettext("The host has extended the deadline ({phase}) to {deadline}.").format(
                phase=phase, deadline=deadline))


def host_action(env: Envelope, game: GameRef, *, action: str, phase: str, deadline: datetime | None,
                earlier: Sequence[str] = (), hours_left: float | None = None, board_png: bytes | None = None,
                board_alt: str = "", position_text: str = "", watch_url: str = "") -> EmailMessage:
    """What the host did to the game (``action``, one of
    :data:`HOST_ACTIONS`), told to a seat: its own subject
    (``[pbem] La Città #12 — deadline extended to <deadline>``), the
    action as the first line, the host's ``earlier`` actions told in the
    same mail (one line each, oldest first), the turn the game stands at
    (``phase``), its deadline (aware UTC, shown in ``env.timezone``;
    ``None`` while paused), and the board now. ``hours_left``: an
    extension while paused, the hours left when the game resumes.
    ``watch_url``: the spectator link, for the host's own copy only
    ("People can watch at: ..."; "" leaves the line out).
    Raises ``ValueError`` for another action."""
    if action not in HOST_ACTIONS:
        raise ValueError(f"action must be one of {HOST_ACTIONS}, not {action!r}")
    tr = catalog(env)
    shown = format_deadline(deadline, env.timezone, env.locale) if action != "cancelled" else ""
    subject, status = _host_words(tr, action, subject_prefix(game), phase, shown, hours_left)
    return build("host_action", env, subject, {
        # the extension's first line names the turn already
        "game": game, "status": status, "earlier": list(earlier), "deadline": shown,
        "phase": "" if action == "extended" and hours_left is None else phase,
        "position_text": position_text, "watch_url": watch_url}, board_png=board_png, board_alt=board_alt)


def signin(env: Envelope, *, signin_url: str, expires_at: datetime, new_player: bool = False) -> EmailMessage:
    """The link asked for on the sign-in page (signed, single use, valid
    until ``expires_at``, aware UTC, shown in the recipient's zone).
    ``new_player``: the address plays nowhere yet, the link signs it up.
    About no game: no Reply-To, the footer invites no reply."""
    return build("signin", env, catalog(env).gettext("[pbem] Your sign-in link"), {
        "game": None, "signin_url": signin_url, "new_player": new_player,
        "expires": format_deadline(expires_at, env.timezone, env.locale),
    })


#: why a mail was not applied, for :func:`not_applied`
NOT_APPLIED_REASONS = ("wrong-sender", "unauthenticated", "unknown", "replaced")


def not_applied(env: Envelope, game: GameRef, *, why: str, order_url: str = "") -> EmailMessage:
    """A fixed-text notice to a seat's own registered address that a mail
    sent in its name was not applied. ``why``: ``wrong-sender`` (it came
    through the seat's reply address from another address),
    ``unauthenticated`` (from the seat's address, but our mail server could
    not confirm it), ``unknown`` (from the player's address, through no
    reply address) or ``replaced`` (through the reply address of a seat the
    player held before the host gave it to someone else). It carries
    nothing of that mail: no line, no name, no address, no Message-ID
    (whoever sent it chose all of them)."""
    if why not in NOT_APPLIED_REASONS:
        raise ValueError(f"why must be one of {NOT_APPLIED_REASONS}, not {why!r}")
    tr = catalog(env)
    if why == "unknown":
        subject = tr.gettext("[pbem] Your email was not read as orders")
    elif why == "replaced":
        subject = tr.gettext("{prefix} — an email for your former seat was not applied").format(
            prefix=subject_prefix(game))
    else:
        subject = tr.gettext("{prefix} — an email for your seat was not applied").format(prefix=subject_prefix(game))
    return build("not_applied", env, subject, {"game": game, "why": why, "order_url": order_url})
