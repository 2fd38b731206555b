"""Flask extensions of the player pages: CSRF on every form (Flask-WTF),
rate limits (Flask-Limiter), the signed-in player, the session cookie,
security headers, and the checks every request passes first
(:mod:`pbem.web.inputs`).

``init_app(app)`` is called once by :func:`pbem.web.create_app`.

Config keys (all optional): ``WTF_CSRF_ENABLED`` (default on),
``RATELIMIT_ENABLED`` (default on), ``PROXY_COUNT`` (or ``PBEM_PROXY_COUNT``:
how many reverse proxies add X-Forwarded-For; default 0, set it to 1 behind
nginx so rate limits count clients, not the proxy), ``RATELIMIT_STORAGE_URI`` (default
``memory://``; production may point it at Redis so every web worker
shares the counts), ``SESSION_DAYS`` (``PBEM_SESSION_DAYS``: how long a
sign-in lasts without a visit, default 30), ``BASE_URL`` (an ``https://``
site gets a ``Secure`` session cookie and ``Strict-Transport-Security``).

The session cookie is always ``HttpOnly`` and ``SameSite=Lax``; these are
set here over Flask's own defaults (which are not these), not as defaults.
"""
from __future__ import annotations

import datetime as dt
import os
from functools import wraps
from typing import Callable

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from flask.ctx import _AppCtxGlobals
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem.service.accounts.players import find_player
from pbem.web import errors, inputs, language, locale, sessions

csrf = CSRFProtect()
# No storage_uri here: a constructor argument would override the app's
# RATELIMIT_STORAGE_URI (Redis in production, see pbem.config).
limiter = Limiter(key_func=get_remote_address, default_limits=[], strategy="fixed-window")

#: previews of a turn being written (``next.json``: asked after each pick
#: and 0.4 s after typing stops), per player and seat; a player typing
#: or clicking never meets it, a script probing position after position does
PREVIEW_LIMIT = "180 per minute; 2400 per hour"
#: dry runs of the Review button (``.../review``), per player and seat
REVIEW_LIMIT = "30 per minute; 600 per hour"

#: Strict-Transport-Security max-age of an https site, seconds (a year)
HSTS_SECONDS = 365 * 86400

#: a page may not be framed, scripts come only from this site, the board SVG
#: carries its own <style>; no external resource of any kind
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")


class PageGlobals(_AppCtxGlobals):
    """``flask.g`` of the player pages. ``g.player_id``: the player id the
    signed session cookie names (``None`` for a visitor), set before every
    request without touching the database; it keys rate limits and picks
    the cache headers, and grants nothing by itself. ``g.player``: that
    :class:`Player`, read on first use, and only when the session still
    holds for it (:func:`pbem.web.sessions.require`: not signed out on this
    device or everywhere). Every page that acts for a player goes through
    ``g.player`` or :func:`pbem.web.common.my_seat`, which makes the same
    check on the seat's player. The order POST never reads the player on
    its own: the game's seats bring their players along, so a page that
    does read ``g.player`` finds it in the session's identity map. A session
    naming a player the database no longer has (a reset development
    database; players are never deleted), or one that no longer holds, is
    cleared, and the request starts again as a visitor's (a redirect to the
    same path)."""

    @property
    def player(self):
        if "_player" not in self.__dict__:
            self.__dict__["_player"] = _read_player(self.__dict__.get("player_id"))
        return self.__dict__["_player"]

    def get(self, name: str, default=None):
        if name == "player":
            return self.player if "player_id" in self.__dict__ else default
        return super().get(name, default)


def _read_player(pid: int | None):
    if pid is None:
        return None
    player = find_player(pid)
    if player is None:
        sessions.signed_out_here()
        abort(redirect(request.full_path.rstrip("?")))
    sessions.require(player)
    return player


def init_app(app: Flask) -> None:
    app.app_ctx_globals_class = PageGlobals
    _session_cookie(app)
    inputs.init_app(app)  # the bounded <int:> converter before any route; control characters refused
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a form may stay open for a day
    # X-RateLimit-* headers cost two more Redis round trips on every limited
    # request (the order POST among them) and browsers do not read them; a
    # 429 still carries Retry-After (pbem.web.errors)
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    # the limiter is shared by every app in the process and otherwise keeps
    # the last app's RATELIMIT_ENABLED as its default (tests make many apps)
    app.config.setdefault("RATELIMIT_ENABLED", True)
    proxies = int(app.config.get("PROXY_COUNT") or os.environ.get("PBEM_PROXY_COUNT") or 0)
    if proxies and not isinstance(app.wsgi_app, ProxyFix):
        # behind nginx/a load balancer: rate limits must count the client's
        # address from X-Forwarded-For, not the proxy's
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    # first: the limiter's per-player keys and the pages read g.player
    app.before_request(_load_player)
    if "csrf" not in app.extensions:
        csrf.init_app(app)
    if "limiter" not in app.extensions:
        limiter.init_app(app)
    app.after_request(_security_headers)
    app.context_processor(_template_globals)
    locale.init_app(app)  # pages in the viewer's language (Flask-Babel)
    language.init_app(app)  # and its filters
    errors.register(app, limiter)


#: config keys that give Flask-Limiter limits of its own to check before
#: every request (not a route's decorator)
MIDDLEWARE_LIMITS = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META",
                     "RATELIMIT_IN_MEMORY_FALLBACK", "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED")


def route_limits_only(app: Flask) -> bool:
    """After the blueprints are registered: when no limit but the routes'
    own (``@limiter.limit``) is set anywhere, drop Flask-Limiter's
    ``before_request`` check and return True. That check looks only for
    default, application, blueprint, meta and fallback limits (a route's
    limits are checked by its decorator, when the view runs): with none
    set it finds nothing, at ~220 Python calls a request, the order POST
    among them (issue 24). Any of them configured keeps it."""
    manager = limiter.limit_manager
    if (any(app.config.get(key) for key in MIDDLEWARE_LIMITS) or manager.default_limits
            or manager.application_limits or any(manager.blueprint_limits(app, name) for name in app.blueprints)):
        return False
    hooks = app.before_request_funcs.get(None, [])
    app.before_request_funcs[None] = [hook for hook in hooks if hook != limiter._check_request_limit]
    return True


def _session_cookie(app: Flask) -> None:
    """The session cookie's attributes, over Flask's defaults (SameSite
    unset, not Secure, 31 days)."""
    https = str(app.config.get("BASE_URL", "")).startswith("https://")
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_SECURE"] = https
    app.config["PERMANENT_SESSION_LIFETIME"] = dt.timedelta(days=float(app.config.get("SESSION_DAYS", 30)))
    #: sent on every answer of an https site: browsers use https only, for a year
    app.config["HSTS"] = f"max-age={HSTS_SECONDS}" if https else None


def _load_player() -> None:
    pid = session.get("player_id")
    g.player_id = pid if isinstance(pid, int) else None


def _security_headers(resp):
    """The headers every answer carries, each only where the view did not
    set it: one pass over the answer's headers (``Headers.setdefault``
    walks them once per header it adds)."""
    path, headers = request.path, resp.headers
    have = {name.lower() for name, _value in headers}
    add = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin")]
    hsts = current_app.config.get("HSTS")
    if hsts:
        add.append(("Strict-Transport-Security", hsts))
    mimetype = resp.mimetype
    if mimetype == "text/html" and not path.startswith("/dev/mail"):
        add += [("Content-Security-Policy", CSP), ("X-Frame-Options", "DENY")]
    if g.get("player_id") is not None and mimetype in ("text/html", "application/json"):
        # a signed-in page may carry a seat's private information: no shared cache keeps it
        add.append(("Cache-Control", "private, no-store"))
    for name, value in add:
        if name.lower() not in have:
            headers.add(name, value)
    if path.startswith("/signin/"):
        # the token is in the URL: keep it out of caches and Referer headers
        headers["Cache-Control"] = "no-store"
        headers["Referrer-Policy"] = "no-referrer"
    return resp


def _template_globals() -> dict:
    return {"me": g.get("player")}


def seat_key() -> str:
    """Rate-limit key of a seat's page (the route's ``game_id`` and
    ``number``) for the player the session names: the holder's budget is
    their own, and nobody else's requests (refused 403 anyway) spend it."""
    args = request.view_args or {}
    return f"seat:{g.get('player_id')}:{args.get('game_id')}:{args.get('number')}"


def current_player():
    """The signed-in :class:`Player`, or ``None``."""
    return g.get("player")


def login_required(view: Callable) -> Callable:
    """Send a visitor who is not signed in to the sign-in page (and back).
    Reads only the session (``g.player_id``), not the player's row: the
    view's ``g.player`` or ``my_seat`` checks that the session still holds."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if g.get("player_id") is None:
            return redirect(url_for("auth.signin", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapper


__all__ = ["csrf", "limiter", "init_app", "seat_key", "PREVIEW_LIMIT", "REVIEW_LIMIT", "current_player", "login_required", "CSRFError", "abort",
           "current_app"]
