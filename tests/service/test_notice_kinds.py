"""Every notice kind is known, and nothing goes to an address that bounced
(docs/web.md, "Mail preferences"): the answers to mail sent in a player's
name and the host's bounce notice go through the same preferences as every
other notice."""
from __future__ import annotations

import datetime as dt

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


def test_a_signin_link_asked_for_now_goes_even_to_an_address_that_bounced():
    bounced = Player(email="ada@example.org", notify_mode="none", bounced_at=dt.datetime(2026, 1, 1))
    assert mailprefs.route(bounced, "signin") == "send"
    assert mailprefs.route(None, "signin") == "send"  # an address with no player yet
    assert mailprefs.route(bounced, "digest") == "drop"
    assert mailprefs.route(bounced, "not-applied") == "drop"


def test_only_a_signin_link_goes_to_an_address_with_no_player():
    with pytest.raises(ValueError, match="needs a player"):
        mailprefs.route(None, "turn")


def test_send_is_the_way_in_and_asks_the_preferences(app, t0):
    from email.message import EmailMessage

    from pbem.service.post.send import send

    with app.app_context():
        ada = get_or_create_player("ada@example.org", "Ada", "UTC")
        ada.bounced_at = t0
        db.session.commit()
        msg = EmailMessage()
        msg["To"], msg["Subject"] = "ada@example.org", "hello"
        msg.set_content("hello")
        assert send(msg, kind="paused", dedupe_key="paused:1", player=ada, now=t0) is None
        assert _rows() == 0
        assert send(msg, kind="signin", dedupe_key="signin:1", player=ada, now=t0) is not None
        assert _rows() == 1
        with pytest.raises(ValueError, match="unknown notice kind"):
            send(msg, kind="pause", dedupe_key="pause:1", player=ada, now=t0)


def test_every_module_in_notices_is_a_registered_kind_with_a_builder_that_exists():
    import importlib
    import pkgutil

    from pbem.service.post import notices

    modules = {m.name for m in pkgutil.iter_modules(notices.__path__)} - {"kind"}
    declared = {importlib.import_module(f"pbem.service.post.notices.{m}").NOTICE.kind for m in modules}
    assert declared == set(notices.KINDS) == set(mailprefs.KINDS)
    for notice in notices.REGISTRY.values():
        module, _, name = notice.builder.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), notice.kind


def test_the_registry_is_loud_and_the_keys_are_the_ones_written():
    from pbem.service.post import notices
    from pbem.service.post.notices.kind import Notice

    with pytest.raises(ValueError, match="unknown notice kind 'turn-typo'"):
        notices.get_notice("turn-typo")
    with pytest.raises(ValueError, match="unknown audience"):
        Notice(kind="x", audience="everyone", key=str, builder="x.y")
    assert notices.get_notice("turn").key(game=3, step=7, seat=1) == "turn:3:7:1"
    assert notices.get_notice("signin").key(nonce="n1") == "signin:n1"
    assert notices.get_notice("digest").key(player=4, due=dt.datetime(2026, 1, 2, 8)) == "digest:4:2026-01-02T08"
