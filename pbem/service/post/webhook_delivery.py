"""Calling a webhook (issue 28), for outbox rows of kind ``webhook``
(:mod:`pbem.service.post.webhook_post`), called by
:mod:`pbem.service.post.delivery` instead of SMTP, with the same claim,
retry and backoff.

- The hook and its token are read when the call goes: a hook removed or
  disabled, or a token revoked or expired since, fails the row for good.
- The address is checked again now (:func:`pbem.service.core.safe_url.
  check_url`: a name may resolve elsewhere since it was registered: DNS
  rebinding), and the connection goes to an address just checked (the
  TLS certificate is still checked against the host's name).
- The body is the row's JSON, ``POST``\\ed with ``Content-Type:
  application/json`` and ``Pbem-Signature: t=<Unix seconds>,v1=<hex>``,
  the HMAC-SHA256 with the hook's secret of ``"<t>.<body>"`` (the scheme
  of GitHub's and Stripe's webhooks: the receiver recomputes it and
  refuses an old ``t``, which stops replays).
- A 2xx answer is success. Anything else fails the call (retried by the
  outbox) and counts against the hook; :data:`MAX_FAILURES` failed calls
  in a row disable it (``disabled_at``, ``last_error``: the API's webhook
  list shows it) and its player is told by mail
  (:mod:`pbem.service.post.webhook_notice`).
"""
from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import socket
import ssl
import threading
import time
from email import message_from_bytes, policy
from urllib.parse import urlsplit

from sqlalchemy import update

from pbem.mail.smtp import PermanentFailure, TemporaryFailure
from pbem.service.core.api_models import ApiToken, ApiWebhook
from pbem.service.core.db import begin_write, db
from pbem.service.core.errors import ServiceError
from pbem.service.core.models import Game, utcnow
from pbem.service.core.safe_url import check_url
from pbem.service.post import webhook_notice
from pbem.service.post.webhook_post import DOMAIN, hook_of

log = logging.getLogger(__name__)

#: failed calls in a row that disable a hook
MAX_FAILURES = 10
#: seconds a call may take
TIMEOUT = 10


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Pbem-Signature`` header of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def post(raw: bytes, recipient: str) -> None:
    """Make the call of the stored row ``raw`` to the hook ``recipient``
    names. Raises ``PermanentFailure`` or ``TemporaryFailure``."""
    hook_id = hook_of(recipient)
    body = _body(raw)
    game_id = json.loads(body).get("game")   # the game it tells of (named in the mail if the hook is disabled now)
    hook = db.session.get(ApiWebhook, hook_id) if hook_id is not None else None
    token = db.session.get(ApiToken, hook.token_id) if hook is not None else None
    live = hook is not None and hook.disabled_at is None and token is not None and token.revoked_at is None \
        and token.expires_at > utcnow()
    url, secret = (hook.url, hook.secret) if hook is not None else (None, None)
    db.session.commit()
    if not live:
        raise PermanentFailure("the webhook or its token is gone, disabled, revoked or expired")
    try:
        addresses = check_url(url)
    except ServiceError as err:
        _failed(hook_id, f"address refused now: {err}", game_id)
        raise PermanentFailure(f"the webhook's address is refused now: {err}") from None
    try:
        status = call(url, addresses[0], body, signature(secret, int(time.time()), body))
    except (OSError, http.client.HTTPException, ssl.SSLError) as err:
        _failed(hook_id, f"{type(err).__name__}: {err}", game_id)
        raise TemporaryFailure(f"webhook {hook_id}: {err}") from None
    if not 200 <= status < 300:
        _failed(hook_id, f"HTTP {status}", game_id)
        raise TemporaryFailure(f"webhook {hook_id} answered {status}")
    _succeeded(hook_id)


def _body(raw: bytes) -> bytes:
    msg = message_from_bytes(raw, policy=policy.default)
    part = msg.get_body(("plain",))
    text = part.get_content().strip() if part is not None else "{}"
    return json.dumps(json.loads(text), sort_keys=True).encode()


def call(url: str, address: str, body: bytes, signed: str) -> int:
    """``POST`` ``body`` to ``url``, connecting to ``address`` (checked
    public) with TLS verified for the URL's host; the answer's status.
    The whole call takes at most ``2 * TIMEOUT`` seconds: a server that
    answers a byte now and then (each read within ``TIMEOUT``) is cut off
    then (an ``OSError``), so no hook holds the outbox's delivery."""
    parts = urlsplit(url)
    conn = _PinnedHTTPS(parts.hostname, parts.port or 443, address, timeout=TIMEOUT)
    watchdog = threading.Timer(2 * TIMEOUT, conn.cut)
    watchdog.daemon = True
    watchdog.start()
    try:
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        conn.request("POST", target, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "pbem-webhook/1", "Pbem-Signature": signed})
        resp = conn.getresponse()
        resp.read(65536)
        if conn.was_cut:   # what was read ended at the cut, not with the answer
            raise TimeoutError(f"the call took more than {2 * TIMEOUT} seconds")
        return resp.status
    finally:
        watchdog.cancel()
        conn.close()


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to ``address`` for ``host``: no second DNS lookup between the
    check and the connection; :meth:`cut` ends it from another thread."""

    def __init__(self, host: str, port: int, address: str, *, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address
        self._over = threading.Event()

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)
        if self._over.is_set():   # the time ran out during the handshake
            self.cut()

    @property
    def was_cut(self) -> bool:
        return self._over.is_set()

    def cut(self) -> None:
        """End the connection now: a read blocked on it fails."""
        self._over.set()
        sock = self.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _failed(hook_id: int, error: str, game_id: int | None) -> None:
    """Count a failed call; at :data:`MAX_FAILURES` disable the hook and
    tell its player (:mod:`pbem.service.post.webhook_notice`), in one transaction."""
    begin_write()
    hook = db.session.get(ApiWebhook, hook_id, populate_existing=True)
    if hook is not None:
        hook.failures += 1
        hook.last_error = error[:300]
        if hook.failures >= MAX_FAILURES and hook.disabled_at is None:
            now = utcnow()
            hook.disabled_at = now
            log.warning("webhook %s of api token %s disabled after %s failed calls: %s", hook.id, hook.token_id,
                        hook.failures, error)
            game = db.session.get(Game, game_id) if game_id is not None else None
            if game is not None:
                webhook_notice.hook_disabled(hook, db.session.get(ApiToken, hook.token_id).player, game, now=now)
    db.session.commit()


def _succeeded(hook_id: int) -> None:
    begin_write()
    db.session.execute(update(ApiWebhook).where(ApiWebhook.id == hook_id).values(failures=0))
    db.session.commit()
