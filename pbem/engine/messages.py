"""Messages the engines write for players, translatable by the service.

The engines stay free of I/O and of the translation machinery: a message is
an English :class:`Msg`, a ``str`` (so logs, tests and the text form read
it as before) that also remembers its *template* and *parameters*. The
service (``pbem.i18n.translate``) looks the template up in the player's
catalog and formats the translation with the same parameters.

``pybabel extract`` finds the templates through the keywords ``Msg`` and
``Msgn`` (``babel.cfg``), so every message an engine can write is in the
catalogs. Parameters that are themselves words of the game (a building, a
card) are passed as ``Msg`` too and are translated recursively; numbers and
board coordinates are passed as they are.

Example::

    raise IllegalOrderError(Msg("{site} is not empty.", site="F7"))
    Msgn("{n} citizen starves.", "{n} citizens starve.", n)
"""
from __future__ import annotations

from typing import Any, Callable, Iterable


class Msg(str):
    """An English message: ``str(m)`` is ``template.format(**params)``.

    ``template`` uses ``str.format`` fields named after ``params``; the
    translations in the catalogs use the same names. Raises ``KeyError``
    when a field has no parameter.
    """

    template: str
    #: the plural template and the count, set by :func:`Msgn` only
    plural: str | None = None
    n: int | None = None
    params: dict[str, Any]
    #: a gettext context telling apart two meanings of one English word
    #: (:func:`Msgc`); ``None`` for most messages
    context: str | None = None

    def __new__(cls, template: str, **params: Any) -> "Msg":
        self = str.__new__(cls, template.format_map(params))
        self.template, self.params = template, params
        return self

    def __reduce__(self):  # pickles (celery, copies) keep the template
        return (_rebuild, (self.template, self.plural, self.n, self.params, self.context))

    def to_json(self) -> dict[str, Any]:
        """The message as JSON data (stored in event logs): see :func:`msg_from_json`."""
        d: dict[str, Any] = {"t": self.template, "p": {k: _param_json(v) for k, v in self.params.items()}}
        if self.plural is not None:
            d["pl"], d["n"] = self.plural, self.n
        if self.context is not None:
            d["c"] = self.context
        return d


def Msgn(singular: str, plural: str, n: int, **params: Any) -> Msg:
    """A message with a plural form chosen by the count ``n`` (``n`` is also
    a parameter of both templates)."""
    params = {"n": n, **params}
    m = Msg.__new__(Msg, singular if n == 1 else plural, **params)
    m.template, m.plural, m.n = singular, plural, n
    return m


def Msgc(context: str, template: str, **params: Any) -> Msg:
    """A message whose English word has another meaning elsewhere in the
    service: the catalogs translate it under ``context`` (gettext's
    ``pgettext``), e.g. ``Msgc("Die Stadt", "merchant")``, Die Stadt's
    follower, apart from Medina's merchant."""
    m = Msg(template, **params)
    m.context = context
    return m


BY_LANGUAGE = "by language"
"""The context of a :func:`said` message: ``pbem.i18n.translate`` picks the
text of the language from its parameters instead of a catalog."""


def said(texts: dict[str, str]) -> Msg:
    """Text an engine writes itself in every language, not looked up in a
    catalog: order words from a game's words tables (``build farm F6`` /
    ``rakenna maatila F6``), put into a translated message such as the order
    help. ``texts`` maps language codes to the text and must hold ``"en"``
    (``str()`` of the message, and the text for a language not given).
    Raises ``KeyError`` without ``"en"``."""
    template = "{en}"        # a variable: pybabel must not take it for a message
    m = Msg(template, **texts)
    m.context = BY_LANGUAGE
    return m


def said_by(write: Callable[[str], str], langs: Iterable[str]) -> Msg:
    """:func:`said` of ``write(lang)`` for each of ``langs`` (which include ``"en"``)."""
    return said({lang: write(lang) for lang in langs})


def said_text(m: Msg, lang: str) -> str:
    """The text of a :func:`said` message in ``lang`` (English when not given)."""
    return str(m.params.get(lang, m.params["en"]))


def msg_from_json(d: Any) -> Any:
    """Inverse of :meth:`Msg.to_json`; anything else is returned unchanged."""
    if not (isinstance(d, dict) and "t" in d and "p" in d):
        return d
    params = {k: msg_from_json(v) for k, v in d["p"].items()}
    # variables, not literals, in the calls: pybabel would take the keys for messages
    template, plural, count, context = d["t"], d.get("pl"), d.get("n"), d.get("c")
    return _rebuild(template, plural, count, params, context)


def _param_json(v: Any) -> Any:
    return v.to_json() if isinstance(v, Msg) else v


def _rebuild(template: str, plural: str | None, n: int | None, params: dict[str, Any],
             context: str | None = None) -> Msg:
    if plural is not None:
        m = Msgn(template, plural, n or 0, **{k: v for k, v in params.items() if k != "n"})
    else:
        m = Msg(template, **params)
    if context is not None:
        m.context = context
    return m
