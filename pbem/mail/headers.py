"""How pbem writes mail headers: the email policy (:data:`POLICY`: cached
header classes; a non-ASCII Subject folded without losing its spaces;
URLs and ids never encoded), header text made one line, the Message-ID,
and the thread and list headers.
"""
from __future__ import annotations

import base64
import re
import secrets
from email import policy as _policy
from email.header import Header
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.utils import parseaddr

from .inputs import Envelope


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


def message_id(env: Envelope, kind: str) -> str:
    """``<TAG.RANDOM@domain>``: the tag first, so the service can read which
    notice a reply answers from its In-Reply-To/References."""
    domain = (parseaddr(env.sender)[1].rpartition("@")[2]
              or env.inbound_address.rpartition("@")[2] or "pbem.invalid")
    tag = re.sub(r"[^A-Za-z0-9.\-_]", "_", env.msgid_tag or kind)
    return f"<{tag}.{secrets.token_hex(8)}@{domain}>"


def one_line(value: str) -> str:
    """Header text from user-written values: no line breaks or control
    characters (they would be refused, or inject headers)."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+", " ", value or "").strip()


def thread_headers(msg: EmailMessage, env: Envelope) -> None:
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


def list_headers(msg: EmailMessage, env: Envelope) -> None:
    """``List-Id`` (RFC 2919) and one-click ``List-Unsubscribe`` (RFC 2369,
    RFC 8058; what Gmail's and Yahoo's 2024 sender rules ask of bulk mail)."""
    if env.list_id:
        msg["List-Id"] = one_line(env.list_id)
    if env.unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{one_line(env.unsubscribe_url)}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
