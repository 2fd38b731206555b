"""In production the pages' rate-limit counts live in Redis, so every web
process and every worker shares them; inbound mail counts in the database."""
from __future__ import annotations

import secrets
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
import redis

from pbem.service.inbound import handle_inbound

pytestmark = pytest.mark.integration


def test_signin_and_inbound_counts_are_kept_in_redis(stack):
    app = stack.app
    assert app.config["RATELIMIT_STORAGE_URI"] == stack.env["PBEM_BROKER_URL"]
    prefix = f"pbemtest{secrets.token_hex(4)}"
    app.config["RATELIMIT_KEY_PREFIX"] = prefix
    from pbem.web.extensions import limiter

    limiter._key_prefix = prefix  # the shared limiter read the prefix at init; keep tests apart
    client = redis.Redis.from_url(stack.env["PBEM_BROKER_URL"])
    try:
        c = app.test_client()
        import re

        html = c.get("/signin").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
        codes = [c.post("/signin", data={"csrf_token": token, "email": f"x{i}@example.org"}).status_code
                 for i in range(6)]
        assert codes[-1] == 429 and codes[0] == 200
        assert client.keys(f"*{prefix}*")  # the counts are in Redis, visible to every process

        app.config["INBOUND_RATE_LIMIT"] = "2 per minute"
        sender = f"flood{secrets.token_hex(3)}@example.org"
        results = []
        for i in range(3):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = sender, "play@pbem.test", "x"
            msg["Message-ID"] = make_msgid(domain="example.org")
            msg.set_content("add 1\n")
            results.append(handle_inbound(msg.as_bytes()).result)
        assert results == ["unknown", "unknown", "rate-limited"]
        # inbound mail counts in the database, which every `pbem mail ingest` process shares (issue 22)
        assert not client.keys("*pbem-inbound*")
        from pbem.service.core.db import db
        from pbem.service.core.models import RateCount

        db.session.rollback()
        assert db.session.query(RateCount).filter(RateCount.bucket.startswith("pbem-inbound:")).count()
    finally:
        for pattern in (f"*{prefix}*",):
            for k in client.keys(pattern):
                client.delete(k)
        client.close()
