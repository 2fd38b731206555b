"""Mail nobody wrote, refused: automatic mail (RFC 3834 and common
practice: auto-submitted, auto-replies, bulk and list mail, bounces) and our
own mail coming back (the loop header, our own addresses, too many hops).
"""
from __future__ import annotations

import re
from email.message import Message

from .inbound_headers import all_headers, header
from .inbound_refusals import AutomaticMail, MailLoop


#: Header every message we send carries (value: our inbound address), so our
#: own mail coming back is recognised and dropped.
LOOP_HEADER = "X-PBEM-Loop"
#: more ``Received`` hops than this: a loop somewhere
_MAX_RECEIVED = 40


def _strip_comments(value: str) -> str:
    return re.sub(r"\([^)]*\)", "", value).strip().lower()


def check_automatic(msg: Message, from_address: str) -> None:
    """Raise :class:`AutomaticMail` (``kind``: ``auto-submitted``,
    ``auto-reply``, ``bulk``, ``list`` or ``bounce``) when ``msg``, sent by
    ``from_address``, is mail no person wrote."""
    auto = _strip_comments(header(msg, "Auto-Submitted"))
    if auto and auto.split(";")[0].strip() != "no":
        raise AutomaticMail("auto-submitted", f"Auto-Submitted: {auto}")
    # X-Auto-Response-Suppress is deliberately not a refusal: Exchange puts it
    # on mail people write too (it asks *us* not to auto-reply; see InboundMail).
    for name in ("X-Autoreply", "X-Autorespond", "X-Autoresponse"):
        if header(msg, name):
            raise AutomaticMail("auto-reply", f"{name} present")
    precedence = _strip_comments(header(msg, "Precedence"))
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        raise AutomaticMail("bulk", f"Precedence: {precedence}")
    for name in ("List-Id", "List-Unsubscribe", "List-Post"):
        if header(msg, name):
            raise AutomaticMail("list", f"{name} present")
    return_paths = all_headers(msg, "Return-Path")
    if any(rp.strip() in ("<>", "") for rp in return_paths[:1]) and return_paths:
        raise AutomaticMail("bounce", "Return-Path: <>")
    local = from_address.rpartition("@")[0].lower()
    if local in ("mailer-daemon", "postmaster") or local.startswith("mailer-daemon"):
        raise AutomaticMail("bounce", f"sender {from_address}")
    try:
        ctype = msg.get_content_type()
    except Exception:
        ctype = ""
    if ctype == "multipart/report":
        raise AutomaticMail("bounce", "multipart/report")


def check_loop(msg: Message, from_address: str, own: set[str], own_domain_bases: set[tuple[str, str]]) -> None:
    """Raise :class:`MailLoop` when ``msg`` is our own mail come back: it
    carries :data:`LOOP_HEADER`, ``from_address`` is one of ``own`` (lower
    case) or a ``+tag`` of one (``own_domain_bases``: ``(local part without
    tag, domain)``), or it passed too many hops."""
    if msg.get(LOOP_HEADER) is not None:
        raise MailLoop(f"{LOOP_HEADER} present: our own mail came back")
    addr = from_address.lower()
    if addr in own:
        raise MailLoop(f"sent from our own address {addr}")
    local, _, domain = addr.rpartition("@")
    if (local.split("+", 1)[0], domain) in own_domain_bases:
        raise MailLoop(f"sent from our own address {addr}")
    try:
        hops = len(msg.get_all("Received") or [])
    except Exception:
        hops = 0
    if hops > _MAX_RECEIVED:
        raise MailLoop(f"{hops} Received headers")
