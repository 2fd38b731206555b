"""One email from a template kind, an envelope and a context
(:func:`build`).

Every message is ``multipart/alternative``: a plain-text part that is
complete on its own (``format=flowed; delsp=no``, :mod:`.flowed`), and an
HTML part (``multipart/related`` with the board PNG inline by Content-ID
when one is given). Text comes from Jinja2
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

from datetime import datetime, timezone
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from .flowed import encode_flowed
from .headers import POLICY, list_headers, message_id, one_line, thread_headers
from .inbound_automatic import LOOP_HEADER
from .inputs import Envelope, GameRef
from .render import catalog, language, render


#: Legal orders listed in one email; the rest are on the order page.
MAX_LEGAL_SHOWN = 40


def subject_prefix(game: GameRef) -> str:
    """``"[pbem] La Città #12"``: every subject starts with it."""
    return f"[pbem] {game.title} #{game.number}"


def build(kind: str, env: Envelope, subject: str, context: dict, *,
          board_png: bytes | None = None, board_alt: str = "", answering: bool = False,
          asks_for_orders: bool = False, closeup_png: bytes | None = None,
          closeup_alt: str = "") -> EmailMessage:
    """The mail of kind ``kind`` (its template pair) to ``env``, with
    ``subject`` and the template's ``context``, in the envelope's
    language. ``board_png`` (and ``closeup_png``) go inline into the HTML
    part, with their alternative texts; ``answering``: a reply to a
    player's mail (``Auto-Submitted: auto-replied``); ``asks_for_orders``:
    the footer invites a reply with orders (only with a Reply-To)."""
    sent_at = env.sent_at or datetime.now(timezone.utc)
    tr = catalog(env)
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
    text, html = render(kind, context, language(env.locale))

    msg = EmailMessage(policy=POLICY)
    msg["From"] = env.sender
    # An Address object, not formataddr(): the stdlib's parser crashes on
    # some encoded display names (". ¡") when it re-reads a formatted string.
    msg["To"] = Address(display_name=one_line(env.to_name), addr_spec=env.to_address.strip())
    if env.reply_to:
        msg["Reply-To"] = env.reply_to
    msg["Subject"] = one_line(subject)
    msg["Date"] = format_datetime(sent_at.astimezone(timezone.utc))
    msg["Message-ID"] = message_id(env, kind)
    thread_headers(msg, env)
    list_headers(msg, env)
    # RFC 3834 §5: answers to a person's mail are auto-replied, the rest auto-generated.
    msg["Auto-Submitted"] = "auto-replied" if answering else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    if env.inbound_address:
        msg[LOOP_HEADER] = env.inbound_address
    msg["X-PBEM-Kind"] = kind
    # quoted-printable keeps both parts readable in "show original" and diffs;
    # format=flowed (RFC 3676): lines of at most 78 characters (RFC 5322
    # 2.1.1) that a flowed-aware reader joins back into paragraphs.
    msg.set_content(encode_flowed(text), cte="quoted-printable",
                    params={"format": "flowed", "delsp": "no"})
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
