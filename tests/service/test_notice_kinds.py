"""Every notice kind is known, and nothing goes to an address that bounced
(docs/web.md, "Mail preferences"): the answers to mail sent in a player's
name and the host's bounce notice go through the same preferences as every
other notice."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from pbem.service.accounts.players import get_or_create_player
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage, Player
from pbem.service.post import mailprefs, notify


@pytest.mark.parametrize("kind", sorted(mailprefs.KINDS))
def test_every_known_kind_has_a_route(kind):
    assert mailprefs.route(Player(email="ada@example.org", notify_mode="every"), kind) in ("send", "hold", "drop")


def test_an_unknown_kind_is_an_error_not_a_mail():
    with pytest.raises(ValueError, match="unknown notice kind 'turn-typo'"):
        mailprefs.route(Player(email="ada@example.org", notify_mode="every"), "turn-typo")


def _rows() -> int:
    return db.session.scalar(select(func.count()).select_from(OutboxMessage))


def test_not_applied_goes_to_a_working_address_but_not_to_one_that_bounced(app, t0):
    with app.app_context():
        ada = get_or_create_player("ada@example.org", "Ada", "UTC")
        db.session.commit()
        notify.not_applied(None, None, ada, "unknown", dedupe_key="not-applied:1", now=t0)
        assert _rows() == 1
        ada.bounced_at = t0
        notify.not_applied(None, None, ada, "unknown", dedupe_key="not-applied:2", now=t0)
        assert _rows() == 1
