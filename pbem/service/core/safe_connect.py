"""Connections made for a user's URL reach public addresses only, checked
when they connect (issue 26's chat channels: Apprise's plugins make their
own requests, follow redirects and resolve names again, so checking the
URL beforehand, :mod:`pbem.service.core.safe_url`, leaves a redirect to a
private address and DNS rebinding open).

Inside ``with public_only():`` every name resolution of the current
context (a :class:`contextvars.ContextVar`: the thread, and the workers
Apprise hands a call to, which run in a copy of the caller's context;
``socket.getaddrinfo``, which ``socket.create_connection``,
urllib3/requests and ``smtplib`` all use, for IP literals too) that
yields any address :func:`pbem.service.core.safe_url.is_public` refuses
raises :class:`PrivateAddress`, an ``OSError`` (``socket.gaierror``), so
the library fails the connection as it would an unknown name. The
addresses a resolution returns are the ones the library then connects
to: there is no gap between the check and the connection. Other threads
and contexts are not affected (the SMTP relay on localhost keeps working).
"""
from __future__ import annotations

import contextlib
import contextvars
import socket
import threading
from typing import Iterator

from pbem.service.core import safe_url

_ON: contextvars.ContextVar[bool] = contextvars.ContextVar("pbem_public_only", default=False)
_install_lock = threading.Lock()


class PrivateAddress(socket.gaierror):
    """A connection inside :func:`public_only` would reach a non-public address."""


def _guard(resolve):
    def getaddrinfo(host, *args, **kwargs):
        infos = resolve(host, *args, **kwargs)
        if _ON.get():
            bad = sorted({info[4][0] for info in infos if not safe_url.is_public(info[4][0])})
            if bad:
                raise PrivateAddress(f"{host} resolves to a non-public address ({', '.join(bad)}); not connecting")
        return infos

    getaddrinfo.pbem_public_only = True
    return getaddrinfo


def _install() -> None:
    """Wrap the current ``socket.getaddrinfo`` once (again if something
    replaced it since, e.g. a test's stand-in resolver)."""
    with _install_lock:
        if not getattr(socket.getaddrinfo, "pbem_public_only", False):
            socket.getaddrinfo = _guard(socket.getaddrinfo)


@contextlib.contextmanager
def public_only() -> Iterator[None]:
    """Within the block, this context connects to public addresses only
    (see the module; raises :class:`PrivateAddress` at the resolution);
    nests."""
    _install()
    token = _ON.set(True)
    try:
        yield
    finally:
        _ON.reset(token)


__all__ = ["PrivateAddress", "public_only"]
