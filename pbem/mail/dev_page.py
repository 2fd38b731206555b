"""``/dev/mail``: read the mail the local sink stored, and answer it from
the browser the way a mail client would, so a newcomer can play by email
without a mail account.

Pages: the list (per recipient, newest first), one message (headers, text
part, HTML part in a sandboxed iframe with its inline images, raw source),
and a reply form that quotes the original and sends over SMTP to the sink.

Config keys (app.config, then ``PBEM_*`` environment variables):
``MAIL_SINK_DIR`` (default ``<instance>/mail``), ``SMTP_HOST``,
``SMTP_PORT``, ``INBOUND_ADDRESS``. The page only answers when
``DEV_MAIL`` is true (``PBEM_DEV_MAIL=on``, which ``pbem demo`` sets; off
by default): its reply form sends mail with any From and To through the
configured SMTP server, so no other deployment may serve it, whatever its
SMTP host. :func:`pbem.web.create_app` registers the blueprint only then.
"""
from __future__ import annotations

import email
import os
import re
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, make_msgid, parseaddr
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for

from . import sink
from .smtp import SendError, send_message

bp = Blueprint("dev_mail", __name__, url_prefix="/dev/mail", template_folder="templates")

def _cfg(name: str, default=None):
    for key in (name, f"PBEM_{name}"):
        value = current_app.config.get(key)
        if value not in (None, ""):
            return value
    value = os.environ.get(f"PBEM_{name}")
    return default if value in (None, "") else value


def sink_dir() -> Path:
    """The directory the sink stores mail in for this app."""
    return Path(_cfg("MAIL_SINK_DIR", os.path.join(current_app.instance_path, "mail")))


def enabled(config) -> bool:
    """Whether ``config`` (an app's, falling back to ``PBEM_DEV_MAIL``)
    turns the page on: only an explicit true value does."""
    flag = config.get("DEV_MAIL")
    if flag in (None, ""):
        flag = config.get("PBEM_DEV_MAIL") or os.environ.get("PBEM_DEV_MAIL", "")
    return flag is True or str(flag).strip().lower() in {"1", "true", "yes", "on"}


def _enabled() -> bool:
    return enabled(current_app.config)


@bp.before_request
def _guard():
    if not _enabled():
        abort(404)


@bp.after_request
def _headers(resp: Response) -> Response:
    # Mail HTML is hostile input: no scripts anywhere on these pages.
    resp.headers.setdefault("Content-Security-Policy",
                            "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; "
                            "frame-src 'self'; form-action 'self'; base-uri 'none'")
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    return resp


def _load(mail_id: str) -> tuple[bytes, email.message.EmailMessage]:
    try:
        raw = sink.read_message(sink_dir(), mail_id)
    except KeyError:
        abort(404)
    return raw, email.message_from_bytes(raw, policy=policy.default)


def _body(msg, subtype: str) -> str:
    try:
        part = msg.get_body((subtype,))
        return part.get_content() if part is not None else ""
    except Exception:
        return ""


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


@bp.get("/")
def index():
    """Recipients, and the stored mail (of one recipient with ``?to=``), newest first."""
    to = request.args.get("to") or None
    directory = sink_dir()
    return render_template("dev_mail/index.html", to=to, recipients=sink.recipients(directory),
                           messages=sink.list_messages(directory, recipient=to, limit=500), when=_when,
                           directory=str(directory))


def _html_with_images(mail_id: str, msg) -> str:
    html = _body(msg, "html")
    # Inline images: cid:... -> the part's URL on this page.
    return re.sub(r"""(["'(])cid:([^"')\s]+)""",
                  lambda m: m[1] + url_for(".cid", mail_id=mail_id, cid=m[2]), html) if html else ""


@bp.get("/<mail_id>")
def show(mail_id: str):
    raw, msg = _load(mail_id)
    html = _html_with_images(mail_id, msg)
    inline = []
    for part in msg.walk():
        if part.get("Content-ID") and not part.is_multipart():
            inline.append((part["Content-ID"].strip("<> "), part.get_content_type(), part.get_filename() or ""))
    return render_template("dev_mail/message.html", mail_id=mail_id, msg=msg, headers=list(msg.items()),
                           text=_body(msg, "plain"), html=html, inline=inline, size=len(raw))


@bp.get("/<mail_id>/html")
def html_part(mail_id: str):
    """The HTML part alone, for the sandboxed frame: no scripts, no forms,
    nothing fetched but this message's own images."""
    _, msg = _load(mail_id)
    resp = Response(_html_with_images(mail_id, msg) or "<p>(no HTML part)</p>", mimetype="text/html")
    resp.headers["Content-Security-Policy"] = ("sandbox; default-src 'none'; img-src 'self' data:; "
                                               "style-src 'unsafe-inline'")
    return resp


@bp.get("/<mail_id>/raw")
def raw(mail_id: str):
    data, _ = _load(mail_id)
    return Response(data, mimetype="text/plain", headers={"Content-Disposition": "inline"})


@bp.get("/<mail_id>/cid/<path:cid>")
def cid(mail_id: str, cid: str):
    _, msg = _load(mail_id)
    for part in msg.walk():
        if (part.get("Content-ID") or "").strip("<> ") == cid and not part.is_multipart():
            ctype = part.get_content_type()
            if not ctype.startswith("image/"):
                abort(404)
            return Response(part.get_payload(decode=True) or b"", mimetype=ctype)
    abort(404)


def quote_for_reply(msg) -> tuple[str, str]:
    """(quote header, quoted text) the way Gmail writes them:
    ``On Tue, 24 Nov 2026 at 18:00, pbem <pbem@localhost> wrote:`` and
    the original plain text with ``> `` before every line."""
    when = msg.get("Date")
    try:
        dt = email.utils.parsedate_to_datetime(str(when))
        when_text = f"{dt:%a, %d %b %Y at %H:%M}"
    except Exception:
        when_text = str(when or "an earlier date")
    header = f"On {when_text}, {msg.get('From', 'someone')} wrote:"
    text = _body(msg, "plain")
    quoted = "\n".join(("> " + line).rstrip() for line in text.splitlines())
    return header, quoted


@bp.route("/<mail_id>/reply", methods=["GET", "POST"])
def reply(mail_id: str):
    _, msg = _load(mail_id)
    reply_to = str(msg.get("Reply-To") or msg.get("From") or "")
    senders = [a for _, a in getaddresses([str(v) for v in (msg.get_all("To") or [])])] or [""]
    subject = str(msg.get("Subject") or "")
    if not subject.lower().startswith("re:"):
        subject = "Re: " + subject
    header, quoted = quote_for_reply(msg)
    if request.method == "GET":
        return render_template("dev_mail/reply.html", mail_id=mail_id, msg=msg, to=reply_to, sender=senders[0],
                               subject=subject, body=f"\n\n{header}\n{quoted}\n")
    sender = (request.form.get("from") or senders[0]).strip()
    to = (request.form.get("to") or reply_to).strip()
    body = request.form.get("body", "")
    if not parseaddr(sender)[1] or not parseaddr(to)[1]:
        flash("Both From and To need an email address.", "error")
        return redirect(url_for(".reply", mail_id=mail_id))
    out = EmailMessage()
    out["From"] = sender
    out["To"] = to
    out["Subject"] = (request.form.get("subject") or subject).strip()
    out["Date"] = format_datetime(datetime.now(timezone.utc))
    out["Message-ID"] = make_msgid(idstring="devmail", domain=parseaddr(sender)[1].rpartition("@")[2] or "localhost")
    original_id = str(msg.get("Message-ID") or "").strip()
    if original_id:
        out["In-Reply-To"] = original_id
        refs = str(msg.get("References") or "").split()
        out["References"] = " ".join([*refs, original_id])
    out["User-Agent"] = "pbem /dev/mail"
    out.set_content(body.replace("\r\n", "\n"))
    try:
        send_message(out, host=str(_cfg("SMTP_HOST", "127.0.0.1")), port=int(_cfg("SMTP_PORT", 8025)),
                     mail_from=parseaddr(sender)[1], rcpt_to=[parseaddr(to)[1]], timeout=15)
    except SendError as exc:
        flash(f"Sending failed: {exc}", "error")
        return redirect(url_for(".reply", mail_id=mail_id))
    flash(f"Sent to {to}.", "ok")
    return redirect(url_for(".index", to=parseaddr(sender)[1]))
