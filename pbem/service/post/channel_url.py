"""An Apprise URL a host gives for their group's chat (issue 26): which
service it is, and whether pbem may post to it.

:func:`check` reads the URL with Apprise (an address Apprise does not
know is refused) and finds the server a post would reach: for a service
at a fixed public address (Discord, Telegram, Slack, Pushover...: the
plugin's own ``*_url`` endpoints) that address; for a self-hosted one
(Matrix, ntfy, Gotify, JSON...) the host in the URL, which must resolve
only to public addresses (:mod:`pbem.service.core.safe_url`: loopback,
private, link-local and the like are refused). A host written into the
URL of a fixed service is checked too. Local-only kinds (syslog, desktop)
have no server and are refused. Checked when the URL is saved and again
before every post.
"""
from __future__ import annotations

import apprise

from pbem.engine.messages import Msg
from pbem.service.core.errors import ServiceError
from pbem.service.core.safe_url import UnsafeAddress, check_host

#: class attributes of an Apprise plugin that are links about it, not where it posts
_NOT_ENDPOINTS = ("service_url", "setup_url")


def _plugin(url: str):
    try:
        plugin = apprise.Apprise.instantiate((url or "").strip())
    except Exception:  # Apprise reads any text; a crash here is a refusal
        plugin = None
    if plugin is None:
        raise ServiceError(Msg("Apprise does not know this address. Copy it from Apprise's page for your chat service."))
    return plugin


def _fixed_endpoints(plugin) -> list[str]:
    return [v for k in dir(type(plugin)) if k.endswith("_url") and k not in _NOT_ENDPOINTS
            and isinstance((v := getattr(type(plugin), k, None)), str) and v.startswith(("https://", "http://"))]


def _looks_like_a_server(host: str) -> bool:
    return bool(host) and ("." in host or ":" in host or host.lower() == "localhost")


def check(url: str) -> str:
    """The service's name ("Discord") when pbem may post to ``url``.
    Raises ``ServiceError`` (a ``Msg``) when Apprise does not know it, it
    has no server, or its server is not public."""
    plugin = _plugin(url)
    hosts = [h for h in (getattr(plugin, "host", None), getattr(plugin, "smtp_host", None)) if h]
    servers = [h for h in hosts if _looks_like_a_server(str(h))]
    if not servers and not _fixed_endpoints(plugin):
        raise ServiceError(Msg("This address names no server pbem could post to."))
    for host in servers:
        try:
            check_host(str(host))
        except UnsafeAddress:
            raise ServiceError(Msg("This address points to a private or local network ({host}); "
                                   "pbem posts only to public servers.", host=str(host)[:100])) from None
    return str(getattr(plugin, "service_name", "") or type(plugin).__name__)[:60]
