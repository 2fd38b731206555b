"""Errors of the public API as RFC 9457 problem details
(``application/problem+json``; issue 28, docs/api.md).

Every error kind has a stable ``type``: ``/api/docs#problem-<kind>``, a
relative URI that resolves to its entry on the API's docs page (the
kinds: :data:`KINDS`). ``title`` is the kind's short English name (stable,
for programs); ``detail`` says what happened in the token owner's
language; ``status`` repeats the HTTP status. A problem may carry members
of its own (a refused order's ``lines`` and ``legal``).
"""
from __future__ import annotations

import json
from typing import Any

from flask import Response

PROBLEM_JSON = "application/problem+json"

#: kind -> (HTTP status, title): every problem the API answers with
KINDS: dict[str, tuple[int, str]] = {
    "token-missing": (401, "No token"),
    "token-invalid": (401, "Unknown token"),
    "token-revoked": (401, "Token revoked"),
    "token-expired": (401, "Token expired"),
    "scope": (403, "Token lacks the scope"),
    "game-not-allowed": (403, "Token limited to another game"),
    "not-your-seat": (403, "Not your seat"),
    "not-found": (404, "Not found"),
    "not-previewable": (409, "Game has no dry runs"),
    "orders-stale": (409, "Orders made on an older turn"),
    "idempotency-key-reused": (422, "Idempotency-Key used for another request"),
    "orders-refused": (422, "Orders refused"),
    "invalid-request": (422, "Invalid request"),
    "bad-request": (400, "Bad request"),
    "rate-limited": (429, "Too many requests"),
}


def problem_type(kind: str) -> str:
    """The stable ``type`` URI of ``kind``."""
    return f"/api/docs#problem-{kind}"


def problem_body(kind: str, detail: str, **members: Any) -> dict[str, Any]:
    """The problem document of ``kind`` (one of :data:`KINDS`) as a dict."""
    status, title = KINDS[kind]
    return {"type": problem_type(kind), "title": title, "status": status, "detail": str(detail), **members}


def problem(kind: str, detail: str, *, headers: dict[str, str] | None = None, **members: Any) -> Response:
    """The problem response of ``kind``."""
    body = problem_body(kind, detail, **members)
    return Response(json.dumps(body, ensure_ascii=False), status=body["status"], mimetype=PROBLEM_JSON,
                    headers=headers or {})


class ApiProblem(Exception):
    """Raised inside an API view: answered as :func:`problem` of ``kind``."""

    def __init__(self, kind: str, detail: str, **members: Any):
        super().__init__(kind, detail)
        self.kind, self.detail, self.members = kind, detail, members

    def response(self) -> Response:
        return problem(self.kind, self.detail, **self.members)
