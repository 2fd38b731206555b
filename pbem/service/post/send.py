"""The one way into the outbox: :func:`send` for a composed notice,
:func:`send_deferred` for a turn notice composed at delivery.

Both ask the recipient's mail preferences first
(:func:`pbem.service.post.mailprefs.route`: a kind not in
:data:`~pbem.service.post.mailprefs.KINDS` raises ``ValueError``) and then
write the row (:mod:`pbem.service.post.store`, whose ``INSERT`` nothing
outside post may import: the ``post-store-private`` import contract):

- ``send``: written, due at once (or at ``due_at``);
- ``hold``: written, kept for the player's daily digest
  (:mod:`pbem.service.post.digest`) until their next digest hour;
- ``drop``: nothing written (the player does not want this kind, or the
  address bounced).

Every kind goes through here, answers and the host's mail included, so
what reaches a bounced address is decided in one place (``route``): only
a sign-in link the player has just asked for on the sign-in page.
"""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from pbem.service.core.models import Player
from pbem.service.post import mailprefs, store


def _held_until(player: Player | None, kind: str, now: dt.datetime, about_you: bool) -> tuple[bool, dt.datetime | None]:
    """``(goes, held_until)`` for a mail of ``kind`` to ``player`` (``None``:
    an address with no player yet, see :func:`pbem.service.post.mailprefs.route`)."""
    way = mailprefs.route(player, kind, about_you=about_you)
    if way == "drop":
        return False, None
    return True, (mailprefs.next_digest_at(player, now) if way == "hold" else None)


def send(msg: EmailMessage, *, kind: str, dedupe_key: str, player: Player | None, now: dt.datetime,
         game_id: int | None = None, seat_index: int | None = None, about_you: bool = True,
         due_at: dt.datetime | None = None) -> int | None:
    """Queue the composed ``msg`` of outbox ``kind`` to ``player`` in the
    current transaction (does not commit), as their mail preferences say.
    ``about_you``: False for a notice about another seat; ``due_at`` (UTC):
    not sent before then (unless held for the digest). Returns the new
    row's id, or ``None`` when it was dropped or ``dedupe_key`` was queued
    already. Raises ``ValueError`` for an unknown ``kind``."""
    goes, held = _held_until(player, kind, now, about_you)
    if not goes:
        return None
    return store.add(msg, kind=kind, dedupe_key=dedupe_key, game_id=game_id, seat_index=seat_index, now=now,
                     held_until=held, due_at=due_at)


def send_deferred(*, kind: str, dedupe_key: str, player: Player, game_id: int, seat_index: int, step: int,
                  now: dt.datetime, due_at: dt.datetime | None = None) -> int | None:
    """Queue a notice composed at delivery (seat ``seat_index`` of game
    ``game_id`` is asked to move at ``step``; :func:`pbem.service.post.store.add_deferred`)
    to ``player``, as their mail preferences say. Same returns and errors as :func:`send`."""
    goes, held = _held_until(player, kind, now, True)
    if not goes:
        return None
    return store.add_deferred(kind=kind, dedupe_key=dedupe_key, game_id=game_id, seat_index=seat_index, step=step,
                              recipient=player.email, now=now, due_at=due_at, held_until=held)
