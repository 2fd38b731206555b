"""Bot seats' reserved addresses (issue 27; docs/bots.md, "In the service").

A seat the host gives to a bot is held by one :class:`~pbem.service.core.models.Player`
row per bot name, on an address of the reserved ``.invalid`` domain
(RFC 2606: never deliverable, and refused by
:func:`pbem.service.accounts.addresses.normalise_email`, so no person can
type it to sign in or be invited as a bot). No mail is ever written to
such an address (:func:`pbem.service.post.mailprefs.route` drops it).
"""
from __future__ import annotations

#: the reserved domain of the bots' player rows
BOT_DOMAIN = "bots.invalid"
#: the bots a host may seat (the names of :data:`pbem.bots.BOTS`)
BOT_NAMES = ("standard", "greedy", "random")
#: the bots the pages offer (random is for tests and the bench)
OFFERED_BOTS = ("standard", "greedy")


def bot_email(name: str) -> str:
    """The reserved address of bot ``name`` (``"standard@bots.invalid"``);
    ``ValueError`` for a name not in :data:`BOT_NAMES`."""
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
    return f"{name}@{BOT_DOMAIN}"


def is_bot_email(email: str | None) -> bool:
    """Whether ``email`` is a bot's reserved address."""
    return bool(email) and email.lower().endswith("@" + BOT_DOMAIN)


def has_bots(game) -> bool:
    """Whether a bot makes decisions for a seat of ``game`` (a seated bot or
    a stand-in), read on its loaded seat rows: no query. Read it before a
    commit, while the rows are still loaded."""
    return any(s.bot_name for s in game.seats)


#: the purpose of a "come back" link's secret (:mod:`pbem.service.core.secret_links`)
BACK = "back"


def back_nonce(seat) -> str:
    """What a seat's "I'm back" link is signed over: the seat's current
    player, so the link of a player who left the seat opens nothing."""
    return f"p{seat.player_id}"


def back_path(seat) -> str:
    """The path of the signed link that stops the bot standing in for the
    seat's person: ``/back/<seat id>.<secret>`` (issue 27)."""
    from pbem.service.core.secret_links import token_for

    return f"/back/{token_for(BACK, seat.id, back_nonce(seat))}"
