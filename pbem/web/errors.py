"""Error pages: a refused CSRF token, a rate limit, not found, forbidden,
a service refusal — each a page that says what happened and what to do.

Every error answer first rolls back the database session: a statement
that failed (PostgreSQL refusing a value) leaves it unusable, and the page
itself reads the signed-in player. A request for a ``.json`` URL gets its
error as JSON (``status``, ``title``, ``message``) that the page's scripts
show as they show a refusal.
"""
from __future__ import annotations

import logging
import math
import time

from babel.dates import format_timedelta
from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, NotFound

from pbem.service.core.errors import GameNotFound, NotAllowed, WrongStatus
from pbem.service.core.requests import discard
from pbem.web.language import page_lang, said

log = logging.getLogger(__name__)

MESSAGES = {
    400: (lazy_gettext("Bad request"), lazy_gettext("The page could not understand what was sent.")),
    403: (lazy_gettext("Not yours"),
          lazy_gettext("This page belongs to another player. Sign in with the link from your own email.")),
    404: (lazy_gettext("Not found"), lazy_gettext("There is no such page or game.")),
    405: (lazy_gettext("Not allowed"), lazy_gettext("This page does not take that kind of request.")),
    429: (lazy_gettext("Slow down"),
          lazy_gettext("Too many attempts from here in a short time. Wait a few minutes and try again.")),
    500: (lazy_gettext("Something broke"),
          lazy_gettext("The server could not finish this request. Nothing you sent was lost; try again.")),
}


def page(code: int, message: str | None = None, title: str | None = None):
    """``(body, code)`` of the error page (or JSON), after a rollback
    (:func:`pbem.service.core.requests.discard`: when the connection itself
    is gone, the page is still shown)."""
    discard()
    default_title, default_message = MESSAGES.get(code, (lazy_gettext("Error"), ""))
    title, message = str(title or default_title), str(message or default_message)
    if request.path.endswith(".json"):
        return jsonify({"status": "error", "code": code, "title": title, "message": message}), code
    return render_template("web/error.html", code=code, title=title, message=message), code


def _retry_after(err, limiter) -> int:
    """Seconds until the limit that refused this request lets one through
    again (its window's reset, read from ``limiter``'s storage)."""
    try:
        current = limiter.current_limit
        if current is not None and current.breached:
            # the storage keeps whole seconds: the reset can read a fraction
            # past the window's length, which is the most anyone waits
            wait = math.ceil(current.reset_at - time.time())
            return max(1, min(wait, int(current.limit.get_expiry())))
    except Exception:  # storage unreachable: fall back to the window's length
        log.warning("rate limit reset time unavailable", exc_info=True)
    limit = getattr(err, "limit", None)
    return int(limit.limit.get_expiry()) if limit is not None else 60


def _wait_text(seconds: int) -> str:
    # "45 seconds", "3 minutes", "1.5 hours" in the page's language
    return format_timedelta(seconds, threshold=1.5, format="long", locale=page_lang())


def _route_exists(err) -> bool:
    """Whether a 405's URL is served for some other method. Werkzeug answers
    405 when a rule of another method has the same shape even though this
    URL's values fail every rule's converters (``POST /games/2147483648/seat/1``):
    that is a URL nothing serves, a 404."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    for method in getattr(err, "valid_methods", None) or ():
        try:
            adapter.match(method=method)
        except NotFound:
            continue
        except HTTPException:  # a redirect or another method: the route is there
            return True
        return True
    return False


def register(app: Flask, limiter) -> None:
    """The error handlers of ``app``; ``limiter`` (Flask-Limiter's) says
    when a refused request may come again."""
    @app.errorhandler(CSRFError)
    def _csrf(err):
        return page(400, gettext("This form has expired or did not come from this site (the security "
                                 "token is missing or wrong). Go back, reload the page and send it again."),
                    title=gettext("Form expired"))

    @app.errorhandler(GameNotFound)
    def _nogame(err):
        return page(404, said(err))

    @app.errorhandler(NotAllowed)
    def _notallowed(err):
        return page(403, said(err))

    @app.errorhandler(WrongStatus)
    def _status(err):
        return page(409, said(err), title=gettext("Not now"))

    @app.errorhandler(500)
    def _server_error(err):
        return page(500)

    @app.errorhandler(429)
    def _slow_down(err):
        # the X-RateLimit-* headers are off (pbem.web.extensions); a refused
        # request still says when to come back, in the header and the text
        wait = _retry_after(err, limiter)
        body, code = page(429, gettext("Too many requests of this kind in a short time. Try again in "
                                       "%(wait)s; nothing you sent was stored.", wait=_wait_text(wait)))
        return body, code, {"Retry-After": str(wait)}

    @app.errorhandler(405)
    def _method(err):
        return page(405 if _route_exists(err) else 404)

    for code in (400, 403, 404):
        app.register_error_handler(code, lambda err, code=code: page(
            code, getattr(err, "description", None) if code != 404 else None, title=getattr(err, "title", None)))
