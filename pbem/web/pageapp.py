"""The Flask class of the player pages: the same framework, with two
per-request costs paid once instead (issue 24: the order POST's Python).

- :meth:`PageApp.ensure_sync`: Flask asks, for every hook and view of
  every request, whether the function is a coroutine
  (``inspect.iscoroutinefunction``: ~90 calls an order POST). The answer
  for a function never changes; it is kept per function.
- :class:`SessionCookies`: Flask's signed cookie session
  (:class:`flask.sessions.SecureCookieSessionInterface`, same cookie,
  same keys, same ``SECRET_KEY_FALLBACKS``) with its serializer built once
  per set of keys instead of twice a request (opening and saving the
  session: ~90 calls an order POST). A changed ``SECRET_KEY`` or fallback
  list builds a new one.
"""
from __future__ import annotations

from typing import Any, Callable

from flask import Flask
from flask.sessions import SecureCookieSessionInterface


#: at most this many functions' answers are kept: the app's hooks, views
#: and error handlers are a few dozen; a function made afresh per request
#: (``after_this_request``) is then asked each time, as Flask does, and the
#: cache never grows without bound
KEPT_FUNCTIONS = 512


class SessionCookies(SecureCookieSessionInterface):
    """Flask's cookie session; its signing serializer kept per app and keys."""

    def get_signing_serializer(self, app: Flask):
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = app.extensions.get("pbem_session_serializer")
        if kept is None or kept[0] != keys:
            kept = app.extensions["pbem_session_serializer"] = (keys, super().get_signing_serializer(app))
        return kept[1]


class PageApp(Flask):
    """:class:`flask.Flask` with :meth:`ensure_sync` answered once per function."""

    session_interface = SessionCookies()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable, Callable] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            return self._sync[func]
        except KeyError:
            done = super().ensure_sync(func)
            if len(self._sync) < KEPT_FUNCTIONS:
                self._sync[func] = done
            return done
        except TypeError:  # an unhashable callable: asked each time, as Flask does
            return super().ensure_sync(func)
