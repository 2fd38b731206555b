"""The page's language and time zone (Flask-Babel over :mod:`pbem.i18n`).

A signed-in player's pages are in their language (``players.language``);
anyone else's in the best supported language of the browser's
``Accept-Language``, else English. Dates use the viewer's time zone
(:func:`pbem.web.common.viewer_zone` for a game's pages). The catalogs are
:func:`pbem.i18n.translations`, so pages and mail read the same ones.
"""
from __future__ import annotations

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, Domain, get_locale, refresh

from pbem.engine.fold import LANGUAGES
from pbem.i18n import DEFAULT, pick_language, translations


class _Catalogs(Domain):
    """Flask-Babel's domain reading pbem's catalogs (compiled or not)."""

    def get_translations(self):
        # a page makes hundreds of gettext calls: the catalog of the
        # request's locale (Flask-Babel's, chosen once; a refresh() makes a
        # new Locale object) is looked up once per request
        locale = get_locale()
        if locale is None:
            return translations(select_locale())
        kept = g.get("_pbem_catalog")
        if kept is None or kept[0] is not locale:
            kept = g._pbem_catalog = (locale, translations(str(locale)))
        return kept[1]


def select_locale() -> str:
    """The page's language code (``"fi"``): the signed-in player's, else
    that of the player a visitor's link names (:func:`speak_to`: the
    sign-in confirmation, the mail preferences reached from a mail), else
    the browser's best supported one, else ``"en"``."""
    player = g.get("player") if has_request_context() else None
    if player is not None and getattr(player, "language", None):
        return pick_language(player.language)
    if player is not None:  # nobody has said yet (``""``): the browser's, as for a visitor
        return pick_language(request.accept_languages.best_match(LANGUAGES))
    if has_request_context():
        return pick_language(g.get("visitor_language"), request.accept_languages.best_match(LANGUAGES))
    return DEFAULT


def speak_to(player) -> None:
    """This page is for ``player`` (a ``Player`` or ``None``) though nobody
    is signed in: an invitee following a sign-in link, a reader of the
    mail preferences. Their ``language`` (the host's choice for an
    invitee, or their own) is the page's, unless someone is signed in; a
    player whose language nobody has said yet (``""``) reads the browser's."""
    if player is None or not getattr(player, "language", None):
        return
    g.visitor_language = player.language
    g.visitor_timezone = getattr(player, "timezone", None)
    refresh()  # Flask-Babel keeps the locale it chose for the request


def select_timezone() -> str:
    """The signed-in player's time zone, else that of the player a
    visitor's link names (:func:`speak_to`), else UTC."""
    player = g.get("player") if has_request_context() else None
    if player is None and has_request_context():
        return g.get("visitor_timezone") or "UTC"
    return getattr(player, "timezone", None) or "UTC"


def shown_zone() -> str:
    """The time zone this page's times are in (for the footer): the zone
    the page last wrote a deadline in (:func:`pbem.web.common.deadline_text`
    records it), else :func:`select_timezone`."""
    return g.get("shown_zone") or select_timezone() if has_request_context() else "UTC"


def no_store(response):
    """``response`` (anything ``make_response`` takes) for a page whose URL
    carries a secret (a sign-in link, a mail-preferences token): no cache
    keeps it and no link on it sends the URL on as a ``Referer``."""
    from flask import make_response

    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def init_app(app: Flask) -> None:
    """Install Flask-Babel: ``_``, ``gettext``, ``ngettext`` in templates
    (the page filters are :func:`pbem.web.language.init_app`'s)."""
    if "babel" not in app.extensions:
        babel = Babel(app, locale_selector=select_locale, timezone_selector=select_timezone)
        # Flask-Babel 4 builds its domain from the ``default_domain`` name
        # (a string); pbem's catalogs come from a Domain of their own
        babel.domain_instance = _Catalogs()
        app.add_template_global(shown_zone, "shown_zone")
