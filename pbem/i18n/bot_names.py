"""A seat a bot plays, named in a reader's language (issue 27): the pages'
seat list and the mail's names say "Standard bot" for a seat the host gave
a bot, and "Ada (played by a bot for now)" while a bot stands in for a person.
"""
from __future__ import annotations

from pbem.engine.messages import Msg
from pbem.i18n import translate

#: each bot's name (``seats.bot``), as players read it
BOT_WORDS = {"standard": Msg("Standard bot"), "greedy": Msg("Greedy bot"), "random": Msg("Random bot")}


def bot_name(bot: str, lang: str) -> str:
    """Bot ``bot`` (``"standard"``...) named in ``lang`` (an unknown name as it is)."""
    word = BOT_WORDS.get(bot)
    return translate(word, lang) if word is not None else bot


def holder_name(name: str, bot: str | None, standin: bool, lang: str) -> str:
    """Who holds a seat, in ``lang``: its bot's name when a bot sits there,
    ``"<name> (played by a bot for now)"`` while a bot stands in for the
    person ``name``, else ``name``."""
    if bot:
        return bot_name(bot, lang)
    if standin:
        return translate(Msg("{name} (played by a bot for now)", name=name), lang)
    return name


def seat_holder(seat, lang: str) -> str:
    """:func:`holder_name` of a seat row (``player.name``, ``bot``, ``bot_standin``)."""
    name = seat.player.name if seat.player is not None else ""
    return holder_name(name, seat.bot, bool(seat.bot_standin), lang)
