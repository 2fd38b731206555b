"""The game log line of a missed deadline (docs/service.md, "Missed
turns"): who missed it and the default orders applied, in each reader's
words (:func:`pbem.service.core.echo.quoted_orders`; a bot's seat named by
:data:`pbem.i18n.bot_names.BOT_WORDS`)."""
from __future__ import annotations

from typing import Any

from pbem.engine.messages import Msg
from pbem.i18n.bot_names import BOT_WORDS
from pbem.service.core.echo import Order, quoted_orders


def missed_line(row: Any, seat: int, defaults: list, engine: Any) -> Msg:
    """The line for seat row ``row`` (index ``seat``, 0-based) whose
    default orders ``defaults`` (engine actions of game ``engine``) were
    applied: a message that reads in every language, the orders quoted in
    the reader's words and quotation marks."""
    quoted = quoted_orders(Order(a, engine) for a in defaults)
    name = BOT_WORDS.get(row.bot, row.player.name) if row.bot else row.player.name
    if len(defaults) > 1:
        return Msg("{name} (seat {n}) missed the deadline; the default orders {orders} were applied.",
                   name=name, n=seat + 1, orders=quoted)
    return Msg("{name} (seat {n}) missed the deadline; the default order {orders} was applied.",
               name=name, n=seat + 1, orders=quoted)


__all__ = ["missed_line"]
