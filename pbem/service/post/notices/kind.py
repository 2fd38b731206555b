"""What every notice kind declares (:class:`Notice`) and the audiences a
kind can have, which :func:`pbem.service.post.mailprefs.route` reads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

#: a reply to what the player did (or what was sent in their name): sent
#: whatever the preference, never to a bounced address
ANSWER = "answer"
#: mail to the host about the game's mail itself: sent whatever the preference
HOST = "host"
#: turn mail ("your move", reminders, the game's end, the seat given
#: away): at once in every mode but ``none``, never held for a digest
TURN = "turn"
#: asks the player to act but is not turn mail (an invitation)
ACT = "act"
#: news of the game: as the player's mode says (sent, held for the digest, dropped)
NEWS = "news"
#: asked for right now on a page (a sign-in link): sent even to a bounced
#: address or one with no player yet
ASKED_NOW = "asked-now"
#: the day's held notices in one mail
DIGEST = "digest"
#: table talk: as the player's message mail choice says (``Player.talk_mail``:
#: every quiet spell, the daily digest, none; issue 26)
TALK = "talk"
#: the group's chat channel of a game (no player: an Apprise URL; issue 26)
CHANNEL = "channel"

AUDIENCES = (ANSWER, HOST, TURN, ACT, NEWS, ASKED_NOW, DIGEST, TALK, CHANNEL)


@dataclass(frozen=True)
class Notice:
    """One kind of notice: its outbox ``kind``, its ``audience`` (one of
    :data:`AUDIENCES`), ``key`` (keyword arguments -> its dedupe key: the
    same notice is never written twice) and ``builder`` (the dotted name of
    the function that composes and sends it)."""

    kind: str
    audience: str
    key: Callable[..., str]
    builder: str

    def __post_init__(self) -> None:
        if self.audience not in AUDIENCES:
            raise ValueError(f"notice kind {self.kind!r}: unknown audience {self.audience!r}")
