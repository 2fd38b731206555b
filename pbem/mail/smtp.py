"""Send raw messages over real SMTP (smtplib), with failures typed so the
outbox knows whether to retry.

:class:`TemporaryFailure` — try again later with backoff: the server is
down, unreachable or timed out, answered 4xx, dropped the connection, or
refused our login/TLS (a configuration problem an operator can fix; the
mail must not be lost meanwhile).
:class:`PermanentFailure` — do not retry this message: the server answered
5xx to the sender, a recipient or the data.

Send one recipient per message (pbem's notices are personal): when a
server accepts some recipients and refuses others, a retry would deliver
twice to the accepted ones.
"""
from __future__ import annotations

import re
import smtplib
import functools
import ssl
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from typing import Sequence

__all__ = ["SendError", "TemporaryFailure", "PermanentFailure", "send_raw", "send_message"]

TLS_MODES = ("off", "starttls", "ssl")
_CRLF = re.compile(rb"\r\n|\r|\n")


class SendError(Exception):
    """Sending failed. ``code`` is the SMTP reply code when there was one;
    ``detail`` the server's words or the local error."""

    def __init__(self, detail: str, code: int | None = None):
        super().__init__(f"{code} {detail}" if code else detail)
        self.code = code
        self.detail = detail


class TemporaryFailure(SendError):
    """Retry later."""


class PermanentFailure(SendError):
    """Do not retry: the server refused this message for good."""


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _by_code(code: int | None, detail: str) -> SendError:
    if code is not None and 500 <= code < 600:
        return PermanentFailure(detail, code)
    return TemporaryFailure(detail, code)


@functools.cache
def _default_context() -> ssl.SSLContext:
    """The system's default TLS context, made once per process: loading the
    CA certificates costs milliseconds, far more than sending a mail."""
    return ssl.create_default_context()


def send_raw(raw: bytes, *, mail_from: str, rcpt_to: Sequence[str], host: str, port: int,
             user: str | None = None, password: str | None = None, tls: str = "off",
             timeout: float = 30.0, local_hostname: str | None = None,
             ssl_context: ssl.SSLContext | None = None) -> None:
    """Deliver ``raw`` (RFC 5322 bytes) to ``rcpt_to`` via ``host:port``.

    ``tls`` is ``"off"``, ``"starttls"`` (upgrade, required) or ``"ssl"``
    (implicit TLS, usually port 465). ``user``/``password`` log in when
    ``user`` is given. ``timeout`` is in seconds. ``mail_from`` is the
    envelope sender (bounces go there; ``""`` sends a null sender).
    Raises :class:`TemporaryFailure` or :class:`PermanentFailure`; returns
    ``None`` when the server accepted every recipient.
    """
    if tls not in TLS_MODES:
        raise ValueError(f"tls must be one of {TLS_MODES}, not {tls!r}")
    if not rcpt_to:
        raise ValueError("no recipients")
    # SMTP lines end in CRLF; smtplib sends bytes as they are, and a message
    # serialized with bare LF arrives as one over-long line (500 Line too long).
    raw = _CRLF.sub(b"\r\n", bytes(raw))
    context = ssl_context or (_default_context() if tls != "off" else None)
    needs_utf8 = any(not a.isascii() for a in (mail_from, *rcpt_to))
    client: smtplib.SMTP | None = None
    try:
        if tls == "ssl":
            client = smtplib.SMTP_SSL(host, port, timeout=timeout, local_hostname=local_hostname,
                                      context=context)
        else:
            client = smtplib.SMTP(host, port, timeout=timeout, local_hostname=local_hostname)
        _greet(client, tls == "starttls", context, user, password)
        options = ["SMTPUTF8"] if needs_utf8 and client.has_extn("smtputf8") else []
        refused = client.sendmail(mail_from, list(rcpt_to), raw, mail_options=options)
        if refused:
            raise _refusal("some recipients refused", refused)
    except SendError:
        raise
    except (smtplib.SMTPException, OSError) as exc:
        raise _failure(exc) from exc
    finally:
        _close(client)


def _greet(client: smtplib.SMTP, starttls: bool, context: ssl.SSLContext | None, user: str | None,
           password: str | None) -> None:
    """EHLO (or HELO), the TLS upgrade when ``starttls``, and the login when ``user``."""
    client.ehlo_or_helo_if_needed()
    if starttls:
        client.starttls(context=context)
        client.ehlo()
    if user:
        client.login(user, password or "")


def _refusal(what: str, refused: dict) -> SendError:
    """The failure for refused recipients (``{address: (code, message)}``):
    temporary when every code is 4xx, else permanent with the highest code."""
    codes = [c for c, _ in refused.values()]
    detail = "; ".join(f"{a}: {c} {_text(m)}" for a, (c, m) in refused.items())
    kind = TemporaryFailure if codes and all(400 <= c < 500 for c in codes) else PermanentFailure
    return kind(f"{what}: {detail}", max(codes) if codes else None)


def _failure(exc: smtplib.SMTPException | OSError) -> SendError:
    """What a failed SMTP exchange means for the message: temporary or permanent."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return _refusal("recipients refused", exc.recipients)
    if isinstance(exc, (smtplib.SMTPAuthenticationError, smtplib.SMTPNotSupportedError)):
        # Login or TLS refused: the configuration is wrong, the message is not.
        return TemporaryFailure(f"login/TLS refused: {exc}", getattr(exc, "smtp_code", None))
    if isinstance(exc, (smtplib.SMTPConnectError, smtplib.SMTPHeloError)):
        # Refused before any message was offered: about the connection, not the mail.
        return TemporaryFailure(f"connection refused: {exc.smtp_code} {_text(exc.smtp_error)}", exc.smtp_code)
    if isinstance(exc, smtplib.SMTPResponseException):  # sender refused, data refused, HELO refused...
        return _by_code(exc.smtp_code, _text(exc.smtp_error))
    return TemporaryFailure(f"{type(exc).__name__}: {exc}")  # disconnects, refused connections, timeouts, TLS


def _close(client: smtplib.SMTP | None) -> None:
    """QUIT, else drop the connection; never raises."""
    if client is None:
        return
    try:
        client.quit()
    except Exception:
        try:
            client.close()
        except Exception:
            pass


def send_message(msg: EmailMessage, *, host: str, port: int, mail_from: str | None = None,
                 rcpt_to: Sequence[str] | None = None, **kwargs) -> str:
    """Send an ``EmailMessage``: envelope sender from ``mail_from`` or the
    From header, recipients from ``rcpt_to`` or To/Cc/Bcc (Bcc is not sent
    on). Other keyword arguments as :func:`send_raw`. Returns the
    Message-ID. Raises as :func:`send_raw`."""
    if mail_from is None:
        mail_from = parseaddr(str(msg.get("From", "")))[1]
    if rcpt_to is None:
        fields = [str(v) for name in ("To", "Cc", "Bcc") for v in (msg.get_all(name) or [])]
        rcpt_to = [a for _, a in getaddresses(fields) if a]
    if "Bcc" in msg:
        del msg["Bcc"]
    send_raw(msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")), mail_from=mail_from, rcpt_to=rcpt_to, host=host, port=port, **kwargs)
    return str(msg.get("Message-ID", ""))
