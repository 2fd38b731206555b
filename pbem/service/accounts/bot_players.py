"""The player rows that hold bot seats (issue 27): one per bot name, on a
reserved address (:mod:`pbem.service.core.bots`), never mailed, never signed
in. Does not commit: the caller's transaction does.
"""
from __future__ import annotations

from sqlalchemy import select

from pbem.service.core.bots import bot_email
from pbem.service.core.db import db
from pbem.service.core.models import Player


def bot_player(name: str) -> Player:
    """The player row of bot ``name`` (``"standard"``, ``"greedy"``,
    ``"random"``), created on first use with every mail turned off and
    invitations refused. ``ValueError`` for an unknown bot."""
    email = bot_email(name)
    player = db.session.execute(select(Player).where(Player.email == email)).scalar_one_or_none()
    if player is None:
        player = Player(email=email, name=f"Bot ({name})", language="en", timezone="UTC",
                        notify_mode="none", no_invites=True, talk_mail="none")
        db.session.add(player)
        db.session.flush()
    return player
