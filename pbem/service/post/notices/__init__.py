"""Every kind of notice pbem mails, one module each (:class:`~pbem.service.post.notices.kind.Notice`:
kind, audience, dedupe key, builder), and the registry: :func:`get_notice`
raises for an unknown kind, like :func:`pbem.engine.get_game` for an
unknown game. A new kind is a module here and a line in :data:`_MODULES`;
its audience decides what the mail preferences do with it
(:func:`pbem.service.post.mailprefs.route`).
"""
from __future__ import annotations

from pbem.service.post.notices import (
    turn, reminder, missed, over, cancelled, invite, seat_given, paused, resumed, extended, confirmation, refusal, not_applied, bounce, signin, digest,
)
from pbem.service.post.notices import grace, absence, watchable  # issue 25
from pbem.service.post.notices import talk, talk_answer, channel  # issue 26
from pbem.service.post.notices import webhook, webhook_off  # issue 28
from pbem.service.post.notices.kind import Notice

_MODULES = (turn, reminder, missed, over, cancelled, invite, seat_given, paused, resumed, extended, confirmation, refusal, not_applied, bounce, signin, digest,)
_MODULES += (grace, absence, watchable)  # issue 25

_MODULES += (talk, talk_answer, channel)  # issue 26
_MODULES += (webhook, webhook_off)  # issue 28
#: outbox kind -> its declaration
REGISTRY: dict[str, Notice] = {m.NOTICE.kind: m.NOTICE for m in _MODULES}
#: every kind of notice
KINDS = frozenset(REGISTRY)


def get_notice(kind: str) -> Notice:
    """The declaration of outbox ``kind``. Raises ``ValueError`` for an
    unknown kind (a typo is an error, never a mail)."""
    try:
        return REGISTRY[kind]
    except KeyError:
        raise ValueError(f"unknown notice kind {kind!r}") from None


def of_audience(*audiences: str) -> frozenset[str]:
    """The kinds whose audience is one of ``audiences``."""
    return frozenset(k for k, n in REGISTRY.items() if n.audience in audiences)
