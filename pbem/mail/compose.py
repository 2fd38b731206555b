"""Build the emails pbem sends: plain dataclasses in, ``EmailMessage`` out.

Every message is ``multipart/alternative``: a plain-text part that is
complete on its own, and an HTML part (``multipart/related`` with the board
PNG inline by Content-ID when one is given). Text comes from Jinja2
templates in ``pbem/mail/templates`` (``<kind>.txt`` / ``<kind>.html``);
the HTML ones autoescape, so player names, game titles and order text are
always escaped. Styles are written inline (Gmail and Outlook drop
``<style>`` blocks in some views).

Headers on every message: From, To, Reply-To (the seat's signed address),
Subject, Date, Message-ID, ``Auto-Submitted`` (``auto-generated``; answers
to a player's email say ``auto-replied``, as RFC 3834 asks),
``X-Auto-Response-Suppress: All`` (stops Exchange out-of-office replies),
``X-PBEM-Loop`` (our inbound address: our own mail coming back is dropped by
:mod:`pbem.mail.inbound`) and ``X-PBEM-Kind`` (which template).
"""
from __future__ import annotations

import base64
import functools
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from email import policy as _policy
from email.header import Header
from email.headerregistry import Address, HeaderRegistry
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from pathlib import Path
from typing import Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.core import Locale, UnknownLocaleError
from babel.dates import format_date, format_time, format_timedelta
from babel.support import NullTranslations
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from pbem.i18n import DEFAULT, pick_language, translations

from . import help_rows, text_board
from .inbound import LOOP_HEADER

__all__ = [
    "Envelope", "GameRef", "Turn", "Result", "ScoreLine",
    "invitation", "turn_notice", "reminder", "turn_result", "missed_turn",
    "order_confirmation", "order_refusal", "game_over", "signin", "host_action", "HOST_ACTIONS",
    "format_deadline", "subject_prefix", "MAX_LEGAL_SHOWN",
]

#: Legal orders listed in one email; the rest are on the order page.
MAX_LEGAL_SHOWN = 40

class _CachedHeaderRegistry(HeaderRegistry):
    """The stdlib registry builds a new header class with ``type()`` on every
    header set; that was most of the cost of composing a message (45 ms ->
    6 ms). Same classes, made once per header name."""

    def __init__(self) -> None:
        super().__init__()
        self._cache: dict[str, type] = {}

    def __getitem__(self, name: str):
        key = name.lower()
        cls = self._cache.get(key)
        if cls is None:
            cls = self._cache[key] = super().__getitem__(name)
        return cls


#: headers holding URLs or ids: never RFC 2047 encoded (the modern folder
#: encodes a token longer than a line, so a provider saw no one-click
#: ``List-Unsubscribe``); folded only at spaces, as written.
_VERBATIM = frozenset({"list-unsubscribe", "list-unsubscribe-post", "list-id", "message-id",
                       "in-reply-to", "references"})


def _list_id_value(text: str) -> str:
    """``List-Id`` as RFC 2919 and RFC 2047 §5(3) allow: the phrase as a
    quoted string when ASCII, else as whole base64 encoded words (an
    encoded word is never valid inside quotes)."""
    m = re.fullmatch(r'\s*"(.*)"\s*(<[^<>]*>)\s*', text)
    if m is None or m.group(1).isascii():
        return text
    phrase, words, chunk = m.group(1), [], ""
    for ch in phrase:  # 45 bytes -> 60 base64 characters: each word stays under 75
        if len((chunk + ch).encode()) > 45:
            words.append(chunk)
            chunk = ""
        chunk += ch
    words.append(chunk)
    encoded = " ".join(f"=?utf-8?b?{base64.b64encode(w.encode()).decode()}?=" for w in words if w)
    return f"{encoded} {m.group(2)}"


def _fold_verbatim(name: str, text: str, linesep: str, width: int) -> str:
    """``Name: text`` with no encoding, folded before a space where a line
    would pass ``width`` (a single token may exceed it: RFC 5322 allows 998)."""
    if name.lower() == "list-id":
        text = _list_id_value(text)
    lines, line = [], f"{name}:"
    for token in text.split(" "):
        if not token:
            continue
        if len(line) + 1 + len(token) > width and line != f"{name}:":
            lines.append(line)
            line = ""
        line += f" {token}"
    lines.append(line)
    return linesep.join(lines) + linesep


class _Policy(_policy.EmailPolicy):
    """``policy.default`` whose Subject is folded by :class:`email.header.Header`.

    The modern folder (CPython 3.11's ``_refold_parse_tree``) drops the space
    between two RFC 2047 encoded words it splits a long non-ASCII subject
    into: "Příprava: místo 1 …" arrived as "Příprava:místo 1 …". The legacy
    encoder keeps every space inside an encoded word. Other headers (the
    addresses among them) keep the modern folder.
    """

    def _fold(self, name, value, refold_binary=False):
        text = str(value)
        if name.lower() in _VERBATIM and "\n" not in text and "\r" not in text:
            verbatim = _fold_verbatim(name, text, self.linesep, self.max_line_length or 78)
            if verbatim.isascii():  # else (an id someone wrote in UTF-8): the stdlib's folder
                return verbatim
        if name.lower() != "subject" or text.isascii() or "\n" in text or "\r" in text:
            return super()._fold(name, value, refold_binary)
        encoded = Header(text, "utf-8", header_name=name).encode(
            linesep=self.linesep, maxlinelen=self.max_line_length or 78)
        return f"{name}: {encoded}{self.linesep}"


#: ``policy.default`` with the cached header registry; parts inherit it.
POLICY = _Policy(header_factory=_CachedHeaderRegistry())

_TEMPLATES = Path(__file__).parent / "templates"


def _make_env(translations: NullTranslations) -> Environment:
    """The mail templates' environment with ``translations`` installed
    (Jinja2's i18n extension, newstyle: ``_("... %(name)s", name=x)``
    escapes ``x`` in HTML, ``ngettext`` gets ``num``)."""
    env = Environment(
        loader=FileSystemLoader(str(_TEMPLATES)),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],  # {% trans %}, _() and ngettext in the mail templates
    )
    env.install_gettext_translations(translations, newstyle=True)
    env.filters["view_blocks"] = text_board.blocks  # a text board's grid kept whole on a phone
    return env


@functools.lru_cache(maxsize=None)
def _env_for(lang: str) -> Environment:
    """One Environment per language, made once and never changed after.

    ``install_gettext_translations`` writes the environment's globals, so
    installing the recipient's catalog before each render would race
    between threads (a Celery worker, the web app). An overlay would share
    the globals dict and the template cache with its parent (templates
    keep the globals they were loaded with), so each language gets an
    environment of its own: five languages, a few compiled templates each."""
    return _make_env(translations(lang))


_env = _env_for(DEFAULT)  # the English environment (kept for callers that render directly)


def language(locale: str | None) -> str:
    """The supported language of a babel locale name (``"fi_FI"``, ``"fi"``,
    ``"de-AT"``); English for anything else."""
    return pick_language(locale)


def _tr(env_or_locale: "Envelope | str") -> NullTranslations:
    """The catalog of an envelope's (or a locale's) language."""
    locale = env_or_locale if isinstance(env_or_locale, str) else env_or_locale.locale
    return translations(language(locale))


# --- inputs ------------------------------------------------------------------

@dataclass(frozen=True)
class Envelope:
    """Who a message goes to and the headers around it.

    ``sender`` is the From header (``"pbem <pbem@example.org>"``);
    ``reply_to`` the seat's signed reply address (or ``None``);
    ``inbound_address`` our inbound address, written into ``X-PBEM-Loop``.
    ``timezone`` (IANA name) and ``locale`` (babel, e.g. ``"fi_FI"`` or
    ``"fi"``) are the recipient's: the locale's language (:func:`language`)
    is the one the whole mail is written in, and dates use the locale. ``sent_at`` (UTC) is the Date header and
    "now" for "12 hours left"; default: the current time. ``msgid_tag``
    goes into the Message-ID (``<tag.random@domain>``) so an id says what it
    was; ``in_reply_to``/``references`` thread answers to a player's mail.
    ``thread_root`` (a Message-ID, stable per game and seat) comes first in
    ``References`` so a game reads as one conversation; ``list_id`` is the
    game's ``List-Id`` (RFC 2919); ``unsubscribe_url`` (https) goes into
    ``List-Unsubscribe`` with ``List-Unsubscribe-Post`` (RFC 8058 one-click)
    and ``preferences_url`` into the footer.
    """

    sender: str
    to_name: str
    to_address: str
    reply_to: str | None = None
    inbound_address: str = ""
    timezone: str = "UTC"
    locale: str = "en_GB"
    sent_at: datetime | None = None
    msgid_tag: str = ""
    in_reply_to: str | None = None
    references: Sequence[str] = ()
    thread_root: str | None = None
    list_id: str | None = None
    unsubscribe_url: str | None = None
    preferences_url: str | None = None


@dataclass(frozen=True)
class GameRef:
    """The game a message is about: ``title`` ("La Città"), ``number``
    (shown as "#12"), ``url`` (absolute link to the game page)."""

    title: str
    number: int | str
    url: str = ""


@dataclass(frozen=True)
class Turn:
    """A decision a seat owes.

    ``phase`` reads in a sentence ("year 2, round 3"); ``seat`` is what the
    player sees ("seat 2"); ``deadline`` is aware UTC or ``None`` (paused).
    ``private_info`` is the seat's view as preformatted text (hand, gold,
    food, peeked cards: ``Game.view_text``); ``since_last`` the events this
    seat may see since its last move, one line each; ``legal_orders`` the
    orders legal now in the command language; ``order_help`` the game's
    command-language help and ``examples`` a few complete sample replies.
    ``board_png`` is the board picture (bytes) with ``board_alt`` as its
    alternative text; ``closeup_png`` a second picture, the region with the
    legal sites drawn large enough to read on a phone, with ``closeup_alt``
    (shown as its caption too).
    """

    phase: str
    seat: str
    deadline: datetime | None
    order_url: str
    private_info: str = ""
    since_last: Sequence[str] = ()
    legal_orders: Sequence[str] = ()
    order_help: str = ""
    examples: Sequence[str] = ()
    board_png: bytes | None = None
    board_alt: str = ""
    closeup_png: bytes | None = None
    closeup_alt: str = ""


@dataclass(frozen=True)
class Result:
    """What happened when a turn resolved.

    ``events`` are the lines this seat may see; ``missed`` names the seats
    that missed the deadline ("Bob (seat 2)"); ``you_missed`` and
    ``default_order`` (the order applied for you) make it a missed-turn
    notice; ``missed_count`` is how many turns you have missed so far.
    ``next_up`` says who moves next ("Carla (seat 3) is to move").
    ``position_text`` is the position as this seat sees it, as text
    (``Game.view_text``): the words beside the picture, for text-only mail
    clients, screen readers and spam filters that distrust image-only mail.
    """

    phase: str
    events: Sequence[str] = ()
    missed: Sequence[str] = ()
    you_missed: bool = False
    default_order: str = ""
    missed_count: int = 0
    next_up: str = ""
    board_png: bytes | None = None
    board_alt: str = ""
    position_text: str = ""


@dataclass(frozen=True)
class ScoreLine:
    """One seat's final result: ``place`` (1 = winner, ties share a place),
    ``points`` (victory points), ``detail`` (tie-break, e.g. "12 gold"),
    ``parts``: where the points come from, ``(label, points)`` per scoring
    rule in the reader's words (empty when the game gives no breakdown)."""

    place: int
    name: str
    points: int
    detail: str = ""
    is_you: bool = False
    parts: Sequence[tuple[str, int]] = ()


# --- formatting helpers ------------------------------------------------------

def _zone(name: str) -> tuple[ZoneInfo, str]:
    try:
        return ZoneInfo(name), name
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return ZoneInfo("UTC"), "UTC"


def _locale(name: str) -> Locale:
    try:
        return Locale.parse(name)
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse("en_GB")


def format_deadline(when: datetime | None, tz: str = "UTC", locale: str = "en_GB") -> str:
    """An absolute date and time in the recipient's zone, with the zone name:
    ``"Tuesday 24 November 2026, 18:00 (Europe/Helsinki)"``; in Finnish
    ``"tiistai 24. marraskuuta 2026, 18.00 (Europe/Helsinki)"``.
    ``when`` must be aware (UTC or any zone); ``None`` gives
    ``"none (the game is paused)"``. An unknown zone falls back to UTC.
    """
    if when is None:
        return _tr(locale).gettext("none (the game is paused)")
    if when.tzinfo is None:
        raise ValueError("deadline must be timezone-aware (UTC)")
    zone, zone_name = _zone(tz)
    loc = _locale(locale)
    local = when.astimezone(zone)
    if loc.language == "en":
        date_text = format_date(local, "EEEE d MMMM y", locale=loc)
        time_text = format_time(local, "HH:mm", locale=loc)
    else:
        date_text = format_date(local, "full", locale=loc)
        time_text = format_time(local, "short", locale=loc)
    return f"{date_text}, {time_text} ({zone_name})"


def _time_left(deadline: datetime | None, now: datetime, locale: str) -> str:
    """The bare duration to ``deadline`` ("12 hours", "12 Stunden"), for a
    sentence that holds its own "left" word; "" when there is none left."""
    if deadline is None or deadline <= now:
        return ""
    return format_timedelta(deadline - now, threshold=1.5, locale=_locale(locale), format="long")


def subject_prefix(game: GameRef) -> str:
    """``"[pbem] La Città #12"``: every subject starts with it."""
    return f"[pbem] {game.title} #{game.number}"


def _msgid(env: Envelope, kind: str) -> str:
    """``<TAG.RANDOM@domain>``: the tag first, so the service can read which
    notice a reply answers from its In-Reply-To/References."""
    domain = (parseaddr(env.sender)[1].rpartition("@")[2]
              or env.inbound_address.rpartition("@")[2] or "pbem.invalid")
    tag = re.sub(r"[^A-Za-z0-9.\-_]", "_", env.msgid_tag or kind)
    return f"<{tag}.{secrets.token_hex(8)}@{domain}>"


def _one_line(value: str) -> str:
    """Header text from user-written values: no line breaks or control
    characters (they would be refused, or inject headers)."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+", " ", value or "").strip()


def _render(kind: str, context: dict, lang: str = DEFAULT) -> tuple[str, str]:
    env = _env_for(lang)
    text = env.get_template(f"{kind}.txt").render(lang=lang, **context)
    html = env.get_template(f"{kind}.html").render(lang=lang, **context)
    # Template blocks leave runs of blank lines; one blank line separates sections.
    text = re.sub(r"\n{3,}", "\n\n", text.replace("\r", "")).strip("\n") + "\n"
    return text, html


def _thread_headers(msg: EmailMessage, env: Envelope) -> None:
    """``In-Reply-To``/``References``: the seat's thread root first, then the
    chain of the mail answered (RFC 5322 §3.6.4), each id once."""
    refs: list[str] = []
    for ref in (env.thread_root, *env.references, env.in_reply_to):
        if ref and ref not in refs:
            refs.append(ref)
    parent = env.in_reply_to or env.thread_root
    if parent:
        msg["In-Reply-To"] = parent
    if refs:
        msg["References"] = " ".join(refs)


def _list_headers(msg: EmailMessage, env: Envelope) -> None:
    """``List-Id`` (RFC 2919) and one-click ``List-Unsubscribe`` (RFC 2369,
    RFC 8058; what Gmail's and Yahoo's 2024 sender rules ask of bulk mail)."""
    if env.list_id:
        msg["List-Id"] = _one_line(env.list_id)
    if env.unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{_one_line(env.unsubscribe_url)}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"


def _build(kind: str, env: Envelope, subject: str, context: dict, *,
           board_png: bytes | None = None, board_alt: str = "", answering: bool = False,
           asks_for_orders: bool = False, closeup_png: bytes | None = None,
           closeup_alt: str = "") -> EmailMessage:
    sent_at = env.sent_at or datetime.now(timezone.utc)
    tr = _tr(env)
    board_cid = make_msgid(idstring="board", domain="pbem.invalid") if board_png else None
    closeup_cid = make_msgid(idstring="closeup", domain="pbem.invalid") if board_png and closeup_png else None
    context = {
        "env": env, "subject": subject, "board_cid": board_cid[1:-1] if board_cid else None,
        "board_alt": board_alt or tr.gettext("The board"), "max_legal": MAX_LEGAL_SHOWN,
        "closeup_cid": closeup_cid[1:-1] if closeup_cid else None,
        "closeup_alt": closeup_alt or tr.gettext("Close-up of the board"),
        # the footer invites a reply with orders only where orders are due
        "asks_for_orders": asks_for_orders and bool(env.reply_to),
        **context,
    }
    text, html = _render(kind, context, language(env.locale))

    msg = EmailMessage(policy=POLICY)
    msg["From"] = env.sender
    # An Address object, not formataddr(): the stdlib's parser crashes on
    # some encoded display names (". ¡") when it re-reads a formatted string.
    msg["To"] = Address(display_name=_one_line(env.to_name), addr_spec=env.to_address.strip())
    if env.reply_to:
        msg["Reply-To"] = env.reply_to
    msg["Subject"] = _one_line(subject)
    msg["Date"] = format_datetime(sent_at.astimezone(timezone.utc))
    msg["Message-ID"] = _msgid(env, kind)
    _thread_headers(msg, env)
    _list_headers(msg, env)
    # RFC 3834 §5: answers to a person's mail are auto-replied, the rest auto-generated.
    msg["Auto-Submitted"] = "auto-replied" if answering else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    if env.inbound_address:
        msg[LOOP_HEADER] = env.inbound_address
    msg["X-PBEM-Kind"] = kind
    # quoted-printable keeps both parts readable in "show original" and diffs.
    msg.set_content(text, cte="quoted-printable")
    msg.add_alternative(html, subtype="html", cte="quoted-printable")
    if board_png:
        html_part = msg.get_payload()[1]
        html_part.add_related(board_png, "image", "png", cid=board_cid,
                              filename="board.png", disposition="inline")
        if closeup_cid:
            html_part.add_related(closeup_png, "image", "png", cid=closeup_cid,
                                  filename="closeup.png", disposition="inline")
    msg["Content-Language"] = language(env.locale)  # RFC 3282 (set_content clears Content-* headers)
    return msg


def _legal(orders: Sequence[str]) -> tuple[list[str], int]:
    shown = list(orders[:MAX_LEGAL_SHOWN])
    return shown, max(0, len(orders) - len(shown))


def _turn_context(env: Envelope, turn: Turn) -> dict:
    shown, more = _legal(turn.legal_orders)
    return {
        "turn": turn,
        "deadline": format_deadline(turn.deadline, env.timezone, env.locale),
        "legal_shown": shown,
        "legal_more": more,
        "examples": list(turn.examples),
        "help_blocks": help_rows.blocks(turn.order_help) if turn.order_help else [],
    }


# --- the messages ------------------------------------------------------------

def invitation(env: Envelope, game: GameRef, *, host_name: str, seat: int, other_players: Sequence[str],
               signin_url: str, deadline_hours: float, link_expires_at: datetime | None = None,
               game_kind: str = "") -> EmailMessage:
    """The invitation with a sign-in link (signed, expiring, single use).
    ``seat``: the seat's number (1-based; the sentence names the seat).
    ``deadline_hours`` is the time a player has for each move.
    ``game_kind``: the game's name as players read it ("Medina"), shown
    after the title only when the title is another ("Torre Vecchia #2
    (La Città)"). The subject has the game's prefix, as every later mail."""
    subject = _tr(env).gettext("{prefix} — {host} invites you to play").format(
        prefix=subject_prefix(game), host=host_name)
    kind = game_kind if game_kind and game_kind != game.title else ""
    return _build("invitation", env, subject, {
        "game": game, "host_name": host_name, "seat": seat, "others": list(other_players),
        "signin_url": signin_url, "deadline_hours": f"{deadline_hours:g}", "game_kind": kind,
        "expires": format_deadline(link_expires_at, env.timezone, env.locale) if link_expires_at else "",
    })


def turn_notice(env: Envelope, game: GameRef, turn: Turn) -> EmailMessage:
    """"It is your move": board, private information, what happened since
    the seat's last move, legal orders with examples, deadline, order link."""
    subject = _tr(env).gettext("{prefix} — your move ({phase})").format(prefix=subject_prefix(game), phase=turn.phase)
    return _build("turn_notice", env, subject, {"game": game, **_turn_context(env, turn)},
                  board_png=turn.board_png, board_alt=turn.board_alt, asks_for_orders=True,
                  closeup_png=turn.closeup_png, closeup_alt=turn.closeup_alt)


def reminder(env: Envelope, game: GameRef, turn: Turn) -> EmailMessage:
    """The turn notice again, before the deadline, saying how long is left
    (measured from ``env.sent_at``)."""
    now = env.sent_at or datetime.now(timezone.utc)
    left = _time_left(turn.deadline, now, env.locale)
    tr = _tr(env)
    subject = (tr.gettext("{prefix} — reminder: your move, {time} left").format(prefix=subject_prefix(game), time=left)
               if left else tr.gettext("{prefix} — reminder: your move").format(prefix=subject_prefix(game)))
    return _build("reminder", env, subject, {"game": game, "left": left, **_turn_context(env, turn)},
                  board_png=turn.board_png, board_alt=turn.board_alt, asks_for_orders=True,
                  closeup_png=turn.closeup_png, closeup_alt=turn.closeup_alt)


def turn_result(env: Envelope, game: GameRef, result: Result) -> EmailMessage:
    """What happened when a turn resolved (to every seat that should hear).
    With ``result.you_missed`` it is a missed-turn notice instead."""
    tr, prefix = _tr(env), subject_prefix(game)
    if result.you_missed:
        subject = tr.gettext("{prefix} — you missed a turn ({phase})").format(prefix=prefix, phase=result.phase)
    elif result.missed:
        subject = tr.gettext("{prefix} — {phase}: missed deadline").format(prefix=prefix, phase=result.phase)
    else:
        subject = tr.gettext("{prefix} — what happened ({phase})").format(prefix=prefix, phase=result.phase)
    return _build("turn_result", env, subject, {"game": game, "result": result},
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
    subject = _tr(env).gettext("{prefix} — orders accepted ({phase})").format(prefix=subject_prefix(game), phase=phase)
    return _build("order_confirmation", env, subject, {
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
    tr, prefix = _tr(env), subject_prefix(game)
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
    return _build("order_refusal", env, subject, context, answering=env.in_reply_to is not None,
                  asks_for_orders=turn is not None)


def game_over(env: Envelope, game: GameRef, *, scores: Sequence[ScoreLine], events: Sequence[str] = (),
              final_view: str = "", board_png: bytes | None = None, board_alt: str = "") -> EmailMessage:
    """Final scores (``scores`` in place order), the last events and the
    final position."""
    ordered = sorted(scores, key=lambda s: (s.place, s.name))
    winners = [s.name for s in ordered if s.place == 1]
    tr = _tr(env)
    if len(winners) == 1:
        headline = tr.gettext("{name} wins").format(name=winners[0])
    elif winners:
        headline = tr.gettext("shared victory: {names}").format(names=", ".join(winners))
    else:
        headline = tr.gettext("final scores")
    subject = tr.gettext("{prefix} — game over: {headline}").format(prefix=subject_prefix(game), headline=headline)
    return _build("game_over", env, subject, {"game": game, "scores": ordered, "headline": headline,
                                              "events": list(events), "final_view": final_view},
                  board_png=board_png, board_alt=board_alt)


@dataclass(frozen=True)
class DigestItem:
    """One notice inside a daily digest: its ``subject``, its plain ``text``
    (as it would have come on its own) and the ``reply_to`` address that
    takes orders for its game, if any."""

    subject: str
    text: str
    reply_to: str | None = None


def digest(env: Envelope, items: Sequence[DigestItem]) -> EmailMessage:
    """The daily digest of a player who asked for one: every notice of the
    day in one mail, oldest first. No Reply-To: each item names the address
    that takes orders for its game."""
    n = len(items)
    tr = _tr(env)
    subject = tr.ngettext("[pbem] Your daily digest: {n} message",
                          "[pbem] Your daily digest: {n} messages", n).format(n=n)
    return _build("digest", env, subject, {"game": GameRef(tr.gettext("daily digest"), ""), "items": list(items)})


def host_notice(env: Envelope, game: GameRef, *, headline: str, paragraphs: Sequence[str]) -> EmailMessage:
    """A short notice to a game's host (a player's mail bounces): the
    subject ``[pbem] La Città #12 — <headline>`` and plain paragraphs."""
    return _build("notice", env, f"{subject_prefix(game)} — {headline}",  # headline: in the recipient's words
                  {"game": game, "paragraphs": list(paragraphs)})


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
                board_alt: str = "", position_text: str = "") -> EmailMessage:
    """What the host did to the game (``action``, one of
    :data:`HOST_ACTIONS`), told to a seat: its own subject
    (``[pbem] La Città #12 — deadline extended to <deadline>``), the
    action as the first line, the host's ``earlier`` actions told in the
    same mail (one line each, oldest first), the turn the game stands at
    (``phase``), its deadline (aware UTC, shown in ``env.timezone``;
    ``None`` while paused), and the board now. ``hours_left``: an
    extension while paused, the hours left when the game resumes.
    Raises ``ValueError`` for another action."""
    if action not in HOST_ACTIONS:
        raise ValueError(f"action must be one of {HOST_ACTIONS}, not {action!r}")
    tr = _tr(env)
    shown = format_deadline(deadline, env.timezone, env.locale) if action != "cancelled" else ""
    subject, status = _host_words(tr, action, subject_prefix(game), phase, shown, hours_left)
    return _build("host_action", env, subject, {
        # the extension's first line names the turn already
        "game": game, "status": status, "earlier": list(earlier), "deadline": shown,
        "phase": "" if action == "extended" and hours_left is None else phase,
        "position_text": position_text}, board_png=board_png, board_alt=board_alt)


def signin(env: Envelope, *, signin_url: str, expires_at: datetime, new_player: bool = False) -> EmailMessage:
    """The link asked for on the sign-in page (signed, single use, valid
    until ``expires_at``, aware UTC, shown in the recipient's zone).
    ``new_player``: the address plays nowhere yet, the link signs it up.
    About no game: no Reply-To, the footer invites no reply."""
    return _build("signin", env, _tr(env).gettext("[pbem] Your sign-in link"), {
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
    tr = _tr(env)
    if why == "unknown":
        subject = tr.gettext("[pbem] Your email was not read as orders")
    elif why == "replaced":
        subject = tr.gettext("{prefix} — an email for your former seat was not applied").format(
            prefix=subject_prefix(game))
    else:
        subject = tr.gettext("{prefix} — an email for your seat was not applied").format(prefix=subject_prefix(game))
    return _build("not_applied", env, subject, {"game": game, "why": why, "order_url": order_url})
