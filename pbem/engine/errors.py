"""The refusals of an order, shared by every game: :class:`OrderError` and
its kinds (does not parse, not legal now, not this seat's turn). Raised by
``Game.parse_action`` and ``State.apply``; ``str(err)`` is for the player."""
from __future__ import annotations

from typing import Sequence


class OrderError(Exception):
    """An order a player wrote was refused; ``str(err)`` is for the player.

    ``message`` is a :class:`~pbem.engine.messages.Msg` (English, with its
    template for translation: ``pbem.i18n.translate(err.message, lang)``).

    ``text`` is the order as read; ``legal`` is a short list of orders that
    are legal now (to quote back in the refusal).
    """

    def __init__(self, message: str, *, text: str = "", legal: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.text = text
        self.legal = list(legal)


class OrderParseError(OrderError):
    """The text is not an order of this game's command language."""


class IllegalOrderError(OrderError):
    """The text parses, but the order is not legal in this state now."""


class NotYourTurnError(IllegalOrderError):
    """The seat owes no decision now."""
