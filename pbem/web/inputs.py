"""What every request must satisfy before a view reads it, checked once for
the whole app (:func:`init_app`), not per route:

- **No control characters in form fields or query arguments.** A NUL
  cannot be stored in a PostgreSQL text column (the statement fails), and
  no field of these pages has a use for control characters. Multi-line
  fields (:data:`MULTILINE_FIELDS`: the order text, the /dev/mail reply
  body) may hold tab, CR and LF, which browsers send from a text area;
  every other field may hold none. A refused request gets a 400 answer
  naming the field and the character, and nothing is read or stored.
- **Ids in URLs fit the database.** ``<int:...>`` in any route is
  :class:`BoundedInt`: 0 to 2**31 - 1 (a PostgreSQL ``integer``), so
  ``/games/2147483648`` is a 404 like any game that does not exist, never a
  database error.
"""
from __future__ import annotations

import re

from flask import Flask, request
from flask_babel import gettext, lazy_gettext
from werkzeug.exceptions import BadRequest
from werkzeug.routing import IntegerConverter

#: form fields written in a text area: tab, CR and LF are allowed there
MULTILINE_FIELDS = frozenset({"orders", "body"})
#: the largest id a route accepts (PostgreSQL ``integer``)
MAX_ID = 2**31 - 1


class BoundedInt(IntegerConverter):
    """Werkzeug's ``int`` converter with a default ``max`` of :data:`MAX_ID`:
    a larger number does not match the route (404)."""

    def __init__(self, map, fixed_digits: int = 0, min: int | None = None, max: int | None = None,
                 signed: bool = False) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=MAX_ID if max is None else max,
                         signed=signed)


#: Unicode category ``Cc`` (C0, DEL, C1: fixed by Unicode's stability
#: policy), and the same without tab, LF and CR; one regex search a field
#: instead of a Python call per character
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(value: str, *, multiline: bool = False) -> str | None:
    """The first control character (Unicode category ``Cc``: C0, DEL, C1)
    in ``value`` that a field may not hold, or ``None``. ``multiline``
    fields may hold tab, CR and LF."""
    found = (_CONTROL_IN_TEXT if multiline else _CONTROL).search(value)
    return found.group() if found else None


def _describe(char: str) -> str:
    named = {"\x00": gettext("a NUL byte"), "\t": gettext("a tab"), "\n": gettext("a line break"),
             "\r": gettext("a line break")}
    return named.get(char) or gettext("the control character U+%(code)s", code=f"{ord(char):04X}")


class ControlCharacter(BadRequest):
    """400: a query argument or form field holds a control character."""

    title = lazy_gettext("Character not accepted")


def refuse_control_characters() -> None:
    """``before_request``: :class:`ControlCharacter` (400) when a query
    argument or form field (name or value) holds a control character it
    may not. Each name and value is one regex search (no Python call a
    field): this runs on every request, the order POST among them."""
    req = request._get_current_object()  # one context lookup, not one an attribute
    sources = [("query", req.args)]
    if req.method in ("POST", "PUT", "PATCH") and req.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        sources.append(("form", req.form))
    plain, text = _CONTROL.search, _CONTROL_IN_TEXT.search
    for kind, values in sources:
        for name, value in values.items(multi=True):
            if plain(name) or (text if name in MULTILINE_FIELDS else plain)(value):
                raise _refusal(kind, name, value)


def _refusal(kind: str, name: str, value: str) -> ControlCharacter:
    """The 400 naming the field (``kind``: ``query`` or ``form``) and the character."""
    bad = control_character(name) or control_character(value, multiline=name in MULTILINE_FIELDS)
    field = name[:40] if control_character(name) is None else repr(name[:40])
    if kind == "query":
        text = gettext("The query argument \u201c%(field)s\u201d holds %(what)s, which this site does "
                       "not accept there. Nothing was read or stored; remove it and send again.",
                       field=field, what=_describe(bad))
    else:
        text = gettext("The form field \u201c%(field)s\u201d holds %(what)s, which this site does "
                       "not accept there. Nothing was read or stored; remove it and send again.",
                       field=field, what=_describe(bad))
    return ControlCharacter(text)


def init_app(app: Flask) -> None:
    """Register the converter (before any route is added) and the check."""
    app.url_map.converters["int"] = BoundedInt
    app.before_request(refuse_control_characters)
