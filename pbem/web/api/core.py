"""The public API's blueprint (``/api``) and what every request passes
(issue 28; docs/api.md).

- **Tokens only.** A request is authenticated by ``Authorization: Bearer
  <token>`` alone (:func:`pbem.service.accounts.tokens.authenticate`);
  a session cookie grants nothing here (``g.player_id`` is cleared), so the
  blueprint is exempt from CSRF, which stays on for every page. A missing,
  unknown, revoked or expired token is a 401 problem, a token without the
  route's scope (``read`` / ``order``) a 403; each is logged, without the
  token.
- **Problems.** Every error is RFC 9457 (:mod:`pbem.web.api.problems`);
  a request that does not fit the schema is ``invalid-request`` (422).
- **ETags.** A ``GET`` answer carries a strong ETag of its body;
  ``If-None-Match`` with it gets 304 and no body.
- **Rate limits** per token (Flask-Limiter, as the pages):
  ``API_RATE_LIMIT`` (default :data:`READ_LIMIT`) on every route,
  ``API_ORDER_LIMIT`` (:data:`ORDER_LIMIT`) on the order routes besides;
  each answer carries ``RateLimit-Limit``, ``RateLimit-Remaining``,
  ``RateLimit-Reset`` (seconds) and ``RateLimit-Policy``. Refused tokens
  count against the client's address (``API_REFUSED_LIMIT``, default
  :data:`REFUSED_LIMIT`).

:func:`route` declares a route: its path, scope, request and answer
models (spectree, which makes the OpenAPI document from them).
"""
from __future__ import annotations

import json
import logging
import math
import time
from typing import Any, Callable

from flask import Blueprint, Response, current_app, g, request
from flask_babel import refresh
from limits import parse_many
from spectree import Response as Answers, SpecTree
from spectree.models import SecurityScheme, SecuritySchemeData

from pbem.service.accounts.tokens import TokenRefused, authenticate
from pbem.service.core.api_models import SCOPE_ORDER
from pbem.web.api.problems import PROBLEM_JSON, ApiProblem, problem, problem_body
from pbem.web.api.schemas import Problem
from pbem.web.extensions import csrf, limiter

log = logging.getLogger(__name__)

#: every request of a token (default of ``API_RATE_LIMIT``)
READ_LIMIT = "120 per minute; 3000 per hour"
#: order and dry-run requests of a token besides (default of ``API_ORDER_LIMIT``)
ORDER_LIMIT = "30 per minute; 600 per hour"
#: refused tokens from one client address (default of ``API_REFUSED_LIMIT``;
#: a client guessing tokens gets 429s)
REFUSED_LIMIT = "30 per minute; 300 per hour"
#: routes open without a token (the documentation)
PUBLIC = frozenset({"api.openapi", "api.docs"})

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)   # no cookie opens anything here (see above)


def _before(req, resp, error, instance, *rest) -> None:
    """spectree's hook: a request that does not fit its model gets an
    ``invalid-request`` problem listing pydantic's complaints."""
    if error is None or resp is None:
        return
    errors = json.loads(resp.get_data() or b"[]")
    body = problem_body("invalid-request", "The request does not fit the API's description: see errors.",
                        errors=errors)
    resp.set_data(json.dumps(body, default=str))
    resp.mimetype = PROBLEM_JSON


spec = SpecTree(
    "flask", title="pbem API", version="1", mode="strict", path="_spectree_unused", page_templates={},
    description="Your games, your seats' views and the legal orders, as JSON; orders sent as on the web "
                "and by mail. Authenticate with the header Authorization: Bearer <token> (a token from your "
                "account page). docs/api.md has a walk-through.",
    security_schemes=[SecurityScheme(name="token", data=SecuritySchemeData(type="http", scheme="bearer"))],
    validation_error_model=Problem, before=_before,
    naming_strategy=lambda model: model.__name__, nested_naming_strategy=lambda _parent, child: child)


def token_key() -> str:
    """Rate-limit key: the token's id."""
    token = g.get("api_token")
    return f"api-token:{token.id if token is not None else request.remote_addr}"


def _read_limit() -> str:
    return current_app.config.get("API_RATE_LIMIT") or READ_LIMIT


def _order_limit() -> str:
    return current_app.config.get("API_ORDER_LIMIT") or ORDER_LIMIT


def route(rule: str, *, methods: tuple[str, ...] = ("GET",), scope: str = "read",
          answers: dict[str, Any], tags: tuple[str, ...], **models: Any) -> Callable:
    """Declare an API route on :data:`bp`: ``answers`` maps ``HTTP_200``
    and the like to models (the 401, 403, 404 and 429 problems and a
    GET's 304 are added), ``models`` the request's ``query``, ``json``,
    ``headers`` models; ``scope`` the token scope it needs."""
    codes = {"HTTP_400": Problem, "HTTP_401": Problem, "HTTP_403": Problem, "HTTP_404": Problem, "HTTP_429": Problem, **answers}
    plain = ("HTTP_304",) if "GET" in methods else ()

    def decorate(view: Callable) -> Callable:
        view._api_scope = scope
        checked = spec.validate(resp=Answers(*plain, **codes), tags=tags, security={"token": []},
                                operation_id=view.__name__, **models)(view)
        limited = limiter.limit(_read_limit, key_func=token_key)(checked)
        if scope == SCOPE_ORDER or methods != ("GET",):
            limited = limiter.limit(_order_limit, key_func=token_key)(limited)
        limited._api_scope = scope
        bp.add_url_rule(rule, view_func=limited, methods=list(methods))
        return limited

    return decorate


@bp.before_request
def _authenticate():
    """Open the request for the bearer token's player (see the module)."""
    if request.endpoint in PUBLIC:   # the documentation: a page like any other
        return None
    g.player_id = None   # the session cookie grants nothing on the API itself
    g.__dict__.pop("_player", None)
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    try:
        row = authenticate(token.strip() if scheme.lower() == "bearer" else None)
    except TokenRefused as refused:
        if not _refusal_allowed():
            return problem("rate-limited", "Too many refused tokens from this address; wait a minute.",
                           headers={"Retry-After": "60"})
        return problem(f"token-{refused.reason}", _REFUSALS[refused.reason],
                       headers={"WWW-Authenticate": 'Bearer realm="pbem"'})
    g.api_token = row
    g.__dict__["_player"] = row.player   # the pages' language machinery speaks to the token's player
    refresh()
    view = current_app.view_functions.get(request.endpoint)
    if getattr(view, "_api_scope", "read") == SCOPE_ORDER and not row.can_order:
        log.warning("api request refused: token %s (%s...) lacks the order scope for %s", row.id, row.prefix,
                    request.endpoint)
        return problem("scope", "This token may only read; make one that may send orders.")
    return None


def _refusal_allowed() -> bool:
    """Count a refused token against the client's address
    (:data:`REFUSED_LIMIT`, in the limiter's storage); False when over."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return True
    try:
        return all(limiter.limiter.hit(item, "api-refused", request.remote_addr or "?")
                   for item in parse_many(current_app.config.get("API_REFUSED_LIMIT") or REFUSED_LIMIT))
    except Exception:   # the counts' storage is unreachable: refuse the token, do not fail
        log.warning("refused-token count unavailable", exc_info=True)
        return True


_REFUSALS = {
    "missing": "Send your token as 'Authorization: Bearer <token>'.",
    "invalid": "No such token.",
    "revoked": "This token was revoked.",
    "expired": "This token has expired; make a new one on your account page.",
}


@bp.errorhandler(ApiProblem)
def _problem(err: ApiProblem):
    return err.response()


@bp.errorhandler(429)
def _slow_down(err):
    current = limiter.current_limit
    wait = max(1, math.ceil(current.reset_at - time.time())) if current is not None else 60
    return problem("rate-limited", f"Too many requests with this token; try again in {wait} seconds.",
                   headers={"Retry-After": str(wait)})


@bp.errorhandler(400)
def _bad_request(err):
    """What the app refuses before any route reads it (a control character
    in a query argument, :mod:`pbem.web.inputs`), as a problem."""
    return problem("bad-request", str(getattr(err, "description", "") or "Bad request."))


@bp.errorhandler(404)
def _not_found(err):
    return problem("not-found", "No such thing here.")


@bp.after_request
def _headers(resp: Response) -> Response:
    """ETag and 304, the RateLimit headers, no shared caching."""
    if g.get("api_token") is not None:
        resp.headers["Cache-Control"] = "private, no-cache"
        resp.headers["Vary"] = "Authorization"
        _rate_headers(resp)
    if request.method == "GET" and resp.status_code == 200 and not resp.direct_passthrough:
        resp.add_etag()
        resp.make_conditional(request)
    return resp


def _rate_headers(resp: Response) -> None:
    try:
        current = limiter.current_limit
        if current is None:
            return
        window = int(current.limit.get_expiry())
        resp.headers["RateLimit-Limit"] = str(current.limit.amount)
        resp.headers["RateLimit-Remaining"] = str(max(0, current.remaining))
        resp.headers["RateLimit-Reset"] = str(max(0, min(window, math.ceil(current.reset_at - time.time()))))
        resp.headers["RateLimit-Policy"] = f"{current.limit.amount};w={window}"
    except Exception:   # the counts' storage is unreachable: the answer goes without the headers
        log.warning("rate limit headers unavailable", exc_info=True)
