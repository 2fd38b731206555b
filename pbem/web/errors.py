"""Error pages: a refused CSRF token, a rate limit, not found, forbidden,
a service refusal — each a page that says what happened and what to do."""
from __future__ import annotations

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError

from pbem.service.errors import GameNotFound, NotAllowed, WrongStatus

MESSAGES = {
    400: ("Bad request", "The page could not understand what was sent."),
    403: ("Not yours", "This page belongs to another player. Sign in with the link from your own email."),
    404: ("Not found", "There is no such page or game."),
    405: ("Not allowed", "This page does not take that kind of request."),
    429: ("Slow down", "Too many attempts from here in a short time. Wait a few minutes and try again."),
    500: ("Something broke", "The server could not finish this request. Nothing you sent was lost; try again."),
}


def page(code: int, message: str | None = None, title: str | None = None):
    default_title, default_message = MESSAGES.get(code, ("Error", ""))
    return render_template("web/error.html", code=code, title=title or default_title,
                           message=message or default_message), code


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def _csrf(err):
        return page(400, "This form has expired or did not come from this site (the security "
                         "token is missing or wrong). Go back, reload the page and send it again.",
                    title="Form expired")

    @app.errorhandler(GameNotFound)
    def _nogame(err):
        return page(404, str(err))

    @app.errorhandler(NotAllowed)
    def _notallowed(err):
        return page(403, str(err))

    @app.errorhandler(WrongStatus)
    def _status(err):
        return page(409, str(err), title="Not now")

    @app.errorhandler(500)
    def _server_error(err):
        return page(500)

    @app.errorhandler(429)
    def _slow_down(err):
        # the X-RateLimit-* headers are off (pbem.web.extensions); a refused
        # request still says when to come back: at most one window from now
        body, code = page(429)
        limit = getattr(err, "limit", None)
        window = limit.limit.get_expiry() if limit is not None else 60
        return body, code, {"Retry-After": str(int(window))}

    for code in (400, 403, 404, 405):
        app.register_error_handler(code, lambda err, code=code: page(code, getattr(err, "description", None)
                                                                      if code not in (404, 405) else None))
