"""Orders echoed to a player in their language (issue 22).

The service reads orders in any language a game has words for, and stores
and compares them in the canonical (English) command language
(:meth:`~pbem.engine.api.Action.to_text`). Whatever it shows back to a
player (the lines read, what is legal now, the orders sent) is written in
the player's language by :meth:`~pbem.engine.api.Game.order_text`.

- :class:`Order` is a canonical order text (a ``str``, so storing, joining
  and comparing it is unchanged) that remembers its action and game;
  :func:`order_in` writes it (or a ``Msg`` such as "... and 12 more", or a
  plain text) in a language.
- :class:`Held` is a line held for a later decision (canonical, no action
  until due), written in a language by :meth:`~pbem.engine.api.Game.held_text`;
  :func:`said_orders` joins orders into a message that reads in every
  language.
- :func:`orders_of` turns canonical texts legal on a state into
  :class:`Order` items; :func:`text_in` writes stored order lines in a
  language by reading them again on the state they were written for.
- :func:`as_written` makes an engine refusal quote the line as the player
  wrote it, not its canonical English form; :func:`reason_in` gives its
  reason alone.
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.engine import OrderError
from pbem.engine.fold import LANGUAGES
from pbem.engine.messages import Msg, msg_from_json, said_by
from pbem.i18n import translate


class Order(str):
    """A canonical order text (``str(o) == action.to_text()``) with its
    ``action`` and ``engine`` (the :class:`~pbem.engine.api.Game`), so it
    can be written in any language: :meth:`in_lang`."""

    action: Any
    engine: Any

    def __new__(cls, action: Any, engine: Any) -> "Order":
        self = str.__new__(cls, action.to_text())
        self.action, self.engine = action, engine
        return self

    def __reduce__(self):  # pickles and copies as the plain canonical text
        return (str, (str(self),))

    def in_lang(self, lang: str) -> str:
        """The order in ``lang``'s words (``kulta`` for ``gold`` in ``fi``)."""
        return self.engine.order_text(self.action, lang)


class Held(str):
    """A held line's canonical text (``wall cw guard``; :meth:`~pbem.engine.api.Game.hold_order`)
    with its ``engine``, which writes it in any language: :meth:`in_lang`."""

    engine: Any

    def __new__(cls, text: str, engine: Any) -> "Held":
        self = str.__new__(cls, text)
        self.engine = engine
        return self

    def __reduce__(self):  # pickles and copies as the plain canonical text
        return (str, (str(self),))

    def in_lang(self, lang: str) -> str:
        """The line in ``lang``'s words (``muuri myötä vartija`` in ``fi``)."""
        return self.engine.held_text(str(self), lang)


def order_in(order: Any, lang: str) -> str:
    """``order`` for a reader of ``lang``: an :class:`Order` or
    :class:`Held` in the language's words, a ``Msg`` translated, anything
    else (a text with no action behind it) as it is; ``None`` stays ``None``."""
    if order is None:
        return None
    if isinstance(order, (Order, Held)):
        return order.in_lang(lang)
    return translate(order, lang)


def orders_in(orders: Iterable[Any], lang: str) -> list[str]:
    """:func:`order_in` over a list."""
    return [order_in(o, lang) for o in orders]


def read_as(text: str, order: Any, lang: str) -> str:
    """A line as the player wrote it and what it was read as, in ``lang``
    (``kultaa  ->  kulta``); the order alone when the line says just that,
    and the line alone when the order has no writer (a plain text)."""
    if not isinstance(order, (Order, Held, Msg)):
        return text
    said = order_in(order, lang)
    return said if " ".join(text.split()).lower() == said.lower() else f"{text}  ->  {said}"


def said_orders(orders: Iterable[Any]) -> Msg:
    """``orders`` (:class:`Order`, :class:`Held`, texts) joined with ``; ``
    as a message that reads in each language's words
    (:func:`pbem.engine.messages.said`), a parameter of a sentence."""
    orders = list(orders)
    return said_by(lambda lang: "; ".join(orders_in(orders, lang)), LANGUAGES)


def quoted_orders(orders: Iterable[Any]) -> Msg:
    """``orders`` each in quotation marks, joined with ``, ``, as a message
    that reads in each language's words and marks (the catalogs write
    “{order}” as „{order}“ in German and Czech, ”{order}” in Finnish)."""
    orders = list(orders)
    return said_by(lambda lang: ", ".join(translate(Msg("\u201c{order}\u201d", order=o), lang)
                                          for o in orders_in(orders, lang)), LANGUAGES)


def orders_of(engine: Any, state: Any, seat: int, texts: Iterable[Any]) -> list[Any]:
    """``texts`` (canonical orders legal for ``seat`` on ``state``, perhaps
    ending with a ``Msg`` "... and N more") as :class:`Order` items; a text
    that does not read on ``state`` is kept as it is."""
    out = []
    for text in texts:
        if isinstance(text, (Order, Msg)):
            out.append(text)
            continue
        try:
            out.append(Order(engine.parse_action(state, seat, text), engine))
        except (OrderError, ValueError, KeyError, IndexError):
            out.append(text)
    return out


def text_in(engine: Any, state: Any, seat: int, text: str, lang: str) -> str:
    """Stored order lines (canonical, one a line, written on ``state``) in
    ``lang``'s words, read again on a copy of ``state`` line by line. From
    a line that no longer reads on, the rest is given as stored."""
    lines = [line for line in text.splitlines() if line.strip()]
    trial, out = state.copy(), []
    for number, line in enumerate(lines):
        try:
            action = engine.parse_action(trial, seat, line)
            trial.apply(seat, action)
        except (OrderError, ValueError, KeyError, IndexError):
            return "\n".join(out + lines[number:])
        out.append(engine.order_text(action, lang))
    return "\n".join(out)


def as_written(message: Any, line: str) -> Any:
    """An engine refusal ``message`` whose subject is the order it refused
    (it starts with its ``order`` parameter: ``'{order}' is not legal:
    {why}``, the canonical English text): the same message quoting
    ``line``, what the player wrote (in ``repr`` quotes when the engine
    quoted so). Any other message (one giving an example order: "like:
    {order}") is returned unchanged."""
    if not isinstance(message, Msg) or not message.template.lstrip("'").startswith("{order}"):
        return message
    quoted = message.params.get("order")
    if not isinstance(quoted, str) or isinstance(quoted, Msg):
        return message
    data = message.to_json()
    data["p"]["order"] = repr(line) if quoted[:1] == quoted[-1:] == "'" and len(quoted) > 1 else line
    return msg_from_json(data)


def reason_in(message: Any, lang: str) -> str | None:
    """Why an order was refused, without the order: the ``why`` of an
    engine refusal about the order itself (``'{order}' is not legal:
    {why}``), else the whole message; in ``lang``. ``None`` for ``None``."""
    if message is None:
        return None
    if isinstance(message, Msg) and message.template.lstrip("'").startswith("{order}") \
            and "why" in message.params:
        return translate(message.params["why"], lang)
    return translate(message, lang)


__all__ = ["Order", "Held", "said_orders", "order_in", "orders_in", "read_as", "orders_of", "text_in", "as_written", "reason_in"]
