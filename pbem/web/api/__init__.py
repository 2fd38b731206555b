"""The public API under ``/api`` (issue 28; docs/api.md): personal access
tokens, JSON under ``/api/v1``, RFC 9457 problems, ETags, per-token rate
limits; its OpenAPI 3.1 description at ``/api/openapi.json`` and a page
at ``/api/docs``. One module per resource:

- :mod:`.core`: the blueprint, the token check, problems, ETags, rate limits
- :mod:`.games`: me, my games, a game's public view
- :mod:`.seats`: my seat's view, the legal orders now
- :mod:`.orders`: send orders, dry runs
- :mod:`.history`: the log since step N
- :mod:`.webhooks`: the token's webhooks
- :mod:`.talk`, :mod:`.absences`: table talk and absences (read only)
- :mod:`.docs`: the OpenAPI document and its page
"""
from __future__ import annotations

from pbem.web.api import absences, docs, games, history, orders, seats, talk, webhooks  # noqa: F401  (each adds its routes)
from pbem.web.api.core import bp, spec

__all__ = ["bp", "spec"]
