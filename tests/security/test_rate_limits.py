"""Rate limits on sign-in and inbound mail (memory storage on the embedded
defaults; Redis shared by every process in production: see
tests/integration/test_rate_limits_redis.py)."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import func, select

from pbem.config import load_config
from pbem.service.core.db import db
from pbem.service.core.models import InboundMessage, OutboxMessage
from pbem.service.inbound import handle_inbound

from .conftest import csrf_token, new_lacitta


def test_signin_requests_are_rate_limited_per_client(app, client):
    token = csrf_token(client)
    codes = [client.post("/signin", data={"csrf_token": token, "email": f"p{i}@example.org"}).status_code
             for i in range(8)]
    assert codes[:5] == [200] * 5
    assert codes[5:] == [429] * 3


def test_a_refused_request_says_when_to_come_back_and_ok_answers_carry_no_limit_headers(app, client):
    token = csrf_token(client)
    answers = [client.post("/signin", data={"csrf_token": token, "email": f"p{i}@example.org"})
               for i in range(6)]
    assert not any(h.startswith("X-RateLimit") for h in answers[0].headers.keys())
    refused = answers[-1]
    assert refused.status_code == 429 and "Slow down" in refused.get_data(as_text=True)
    # the sign-in form allows 5 a minute and 20 an hour per client: back within the hour at most
    assert 0 < int(refused.headers["Retry-After"]) <= 3600


def test_signin_links_for_one_address_are_rate_limited(app):
    """Many clients asking links for one address cannot flood its inbox."""
    codes = []
    for i in range(5):
        c = app.test_client()
        token = csrf_token(c)
        codes.append(c.post("/signin", data={"csrf_token": token, "email": "victim@example.org"},
                            environ_base={"REMOTE_ADDR": f"10.0.0.{i + 1}"}).status_code)
    assert codes[:3] == [200] * 3 and codes[3:] == [429, 429]
    db.session.rollback()
    sent = db.session.execute(select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.recipient == "victim@example.org")).scalar_one()
    assert sent <= 3


def _mail(sender: str, to: str, i: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"orders {i}"
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content("castle F7\n")
    return msg.as_bytes()


def test_inbound_mail_is_rate_limited_per_sender(app):
    app.config["INBOUND_RATE_LIMIT"] = "4 per minute"
    new_lacitta()
    results = [handle_inbound(_mail("ada@example.org", "play@pbem.test", i)).result for i in range(7)]
    assert results[:4] == ["unknown"] * 4  # read (not a reply address: a fixed hint to a player)
    assert results[4:] == ["rate-limited"] * 3
    db.session.rollback()
    answers = db.session.execute(select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.recipient == "ada@example.org", OutboxMessage.kind == "not-applied")).scalar_one()
    assert answers == 2  # at most 2 hints an hour to one address; the dropped ones get none
    # another sender is not affected
    assert handle_inbound(_mail("bo@example.org", "play@pbem.test", 9)).result == "unknown"
    limited = db.session.execute(select(func.count()).select_from(InboundMessage).where(
        InboundMessage.result == "rate-limited")).scalar_one()
    assert limited == 3


def test_production_config_keeps_rate_limits_in_redis(tmp_path):
    cfg = load_config(tmp_path, {"PBEM_BROKER_URL": "redis://redis.internal:6379/0"})
    assert cfg["RATELIMIT_STORAGE_URI"] == "redis://redis.internal:6379/0"
    cfg = load_config(tmp_path, {})
    assert cfg["RATELIMIT_STORAGE_URI"] == "memory://"
    cfg = load_config(tmp_path, {"PBEM_BROKER_URL": "redis://r:6379/0",
                                 "PBEM_RATELIMIT_STORAGE_URI": "redis://other:6379/2"})
    assert cfg["RATELIMIT_STORAGE_URI"] == "redis://other:6379/2"


# --- issue 22, "Seven holes" 1: the inbound limits hold across processes -----
#
# An MTA runs one `pbem mail ingest` process per message, each with its own
# app: a count kept in that process's memory (the embedded default,
# memory://) starts at zero for every mail. The counts live in the database.

def _ingest_in_fresh_app(tmp_path, url: str, raw: bytes, **config) -> str:
    """``handle_inbound(raw).result`` in a new app on ``url`` (what one
    ``pbem mail ingest`` process does), with memory:// rate-limit storage."""
    from tests.webapp import make_app

    other = make_app(tmp_path, url, SECRET_KEY="security-test-secret", RATELIMIT_STORAGE_URI="memory://",
                     **config)
    with other.app_context():
        try:
            return handle_inbound(raw).result
        finally:
            db.session.remove()
            db.engine.dispose()


def _count(kind: str, recipient: str | None = None) -> int:
    db.session.rollback()
    query = select(func.count()).select_from(OutboxMessage).where(OutboxMessage.kind == kind)
    if recipient is not None:
        query = query.where(OutboxMessage.recipient == recipient)
    return db.session.execute(query).scalar_one()


def test_the_per_sender_limit_holds_across_ingest_processes(app, tmp_path, service_database_url):
    new_lacitta()
    db.session.commit()
    results = [_ingest_in_fresh_app(tmp_path, service_database_url, _mail("zed@example.net", "play@pbem.test", i),
                                    INBOUND_RATE_LIMIT="2 per hour") for i in range(4)]
    assert results == ["unknown", "unknown", "rate-limited", "rate-limited"]


def test_two_notices_an_hour_to_a_player_across_ingest_processes(app, tmp_path, service_database_url):
    """Anyone can put a registered player's address in From: at most two
    fixed-text notices an hour reach that player, however many processes."""
    new_lacitta()
    db.session.commit()
    for i in range(5):
        _ingest_in_fresh_app(tmp_path, service_database_url, _mail("ada@example.org", "play@pbem.test", i))
    assert _count("not-applied", "ada@example.org") == 2


def test_the_global_answer_limit_holds_across_ingest_processes(app, tmp_path, service_database_url):
    new_lacitta()
    db.session.commit()
    for i, sender in enumerate(["ada@example.org", "bo@example.org", "cy@example.org"]):
        _ingest_in_fresh_app(tmp_path, service_database_url, _mail(sender, "play@pbem.test", i),
                             UNKNOWN_MAIL_ANSWER_LIMIT="1 per hour")
    assert _count("not-applied") == 1


def test_inbound_counts_are_fixed_windows_in_the_database_and_old_ones_are_deleted(app):
    import datetime as dt

    from pbem.service.core import ratelimit
    from pbem.service.core.models import RateCount

    t = dt.datetime(2026, 11, 28, 10, 0, tzinfo=dt.timezone.utc)
    assert [ratelimit.allow("ns", "k", "2 per hour", now=t) for _ in range(3)] == [True, True, False]
    assert ratelimit.allow("ns", "k", "2 per hour", now=t + dt.timedelta(hours=1))  # the next hour's window
    db.session.commit()
    assert db.session.query(RateCount).count() == 2
    ratelimit.allow("ns", "other", "2 per hour", now=t + dt.timedelta(days=1))
    db.session.commit()
    assert db.session.query(RateCount).count() == 1  # both windows of "k" ended: deleted


def test_a_stranger_forging_a_players_from_cannot_use_up_the_players_own_replies(app):
    """The per-sender count of mail through a seat's reply address is the
    address's own: a stranger who writes the player's From to the bare
    inbound address (anyone can; the reply address is the secret) spends
    nothing of what the player's replies may use."""
    from pbem.service.core import links
    from pbem.service.core.models import Game
    from pbem.service.core.snapshot import engine_state

    app.config["INBOUND_RATE_LIMIT"] = "3 per hour"
    gid = new_lacitta()
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    holder = db.session.get(Game, gid).seat(seat).player.email
    order = state.legal_actions(seat)[0].to_text()
    forged = [handle_inbound(_mail(holder, "play@pbem.test", i)).result for i in range(5)]
    assert forged[-1] == "rate-limited"
    reply = _mail(holder, links.reply_address(gid, seat), 9).replace(b"castle F7", order.encode())
    assert handle_inbound(reply).result in ("stored", "applied")
