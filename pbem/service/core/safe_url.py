"""Whether a URL a user gave may be called by the service (issue 26's chat
channels, the API's webhooks): its host must resolve only to public
addresses, never to a loopback, private, link-local, shared (CGNAT),
multicast, reserved or unspecified one, so a host cannot make pbem post
to the machine it runs on or to its private network (SSRF).

:func:`check_host` resolves a host name (every address it has, IPv4 and
IPv6); :func:`check_url` takes the host out of an ``http(s)``-like URL.
Both raise :class:`UnsafeAddress` (a ``ServiceError``) with a sentence for
the person who typed it. Callers check when the URL is saved and again
before each call (a name may resolve elsewhere later: DNS rebinding); the
gap between the check and the connection is the caller's to keep short.
"""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from pbem.service.core.errors import ServiceError


class UnsafeAddress(ServiceError):
    """The URL's host is, or resolves to, an address pbem will not call."""


def is_public(address: str) -> bool:
    """Whether the IP literal ``address`` is a public unicast address.
    IPv4-mapped and 6to4 (``2002::/16``) IPv6 addresses are judged as the
    IPv4 address they carry (6to4 of 127.0.0.1 is no public server)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and (ip.ipv4_mapped or ip.sixtofour) is not None:
        ip = ip.ipv4_mapped or ip.sixtofour
    return not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast or ip.is_reserved
                or ip.is_unspecified or (isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED)
                or not ip.is_global)


_SHARED = ipaddress.ip_network("100.64.0.0/10")


def resolve(host: str) -> list[str]:
    """Every address ``host`` resolves to (an IP literal: itself). Raises
    :class:`UnsafeAddress` when it does not resolve."""
    host = host.strip().strip("[]")
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return [host]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, OSError):
        raise UnsafeAddress(f"The address {host} could not be found.") from None
    return sorted({info[4][0] for info in infos})


def check_host(host: str) -> list[str]:
    """The public addresses of ``host``. Raises :class:`UnsafeAddress` when
    it is empty, does not resolve, or any of its addresses is not public
    (a name with one private address among public ones is refused too)."""
    if not host or not host.strip():
        raise UnsafeAddress("The address names no server.")
    addresses = resolve(host)
    bad = [a for a in addresses if not is_public(a)]
    if bad or not addresses:
        raise UnsafeAddress(f"The address {host} points into a private network ({', '.join(bad)}); "
                            "only public servers can be used.")
    return addresses


def check_url(url: str) -> list[str]:
    """:func:`check_host` of the host part of ``url`` (any scheme with a
    ``//host`` part). Raises :class:`UnsafeAddress` for a URL without one."""
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        host = None
    if not host:
        raise UnsafeAddress("The address names no server.")
    return check_host(host)
