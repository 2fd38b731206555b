"""What a mail is built from: plain, frozen dataclasses the service fills
in (:class:`Envelope`: who it goes to and the headers around it; the game,
the turn, the result, the scores, a digest's items) and
:mod:`pbem.mail.compose` turns into messages.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence


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
    #: the other seats away now, one line each ("Bo (seat 2): away until …"; issue 25)
    away: Sequence[str] = ()
    #: the player's own secret calendar feed URL, "" when they have none
    #: (issue 25): it goes into this seat's mail only
    calendar_url: str = ""
    #: one person against bots with no deadline: the game waits for them (issue 27)
    paced: bool = False


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
    #: a bot plays for you from now on (issue 27): the link that stops it
    back_url: str = ""


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


@dataclass(frozen=True)
class DigestItem:
    """One notice inside a daily digest: its ``subject``, its plain ``text``
    (as it would have come on its own) and the ``reply_to`` address that
    takes orders for its game, if any."""

    subject: str
    text: str
    reply_to: str | None = None
