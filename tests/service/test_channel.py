"""The group's chat channel through Apprise (issue 26): an address that
reaches a loopback, private or link-local server is refused (127.0.0.1,
localhost, 10.x, 169.254.x), the URL is never shown back, only public news
is posted, in the channel's language, through the outbox with its retries,
and a turn never waits for it."""
from __future__ import annotations

import contextlib
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.errors import NotAllowed, ServiceError
from pbem.service.core.models import Player
from pbem.service.core.safe_url import UnsafeAddress, check_url, is_public
from pbem.service.play import channel, talk
from pbem.service.play.orders import submit_orders
from pbem.service.post import channel_delivery, channel_url
from pbem.service.post.delivery import deliver_due

from .helpers import game, new_tally, outbox


def _pid(email: str) -> int:
    return db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()


@pytest.mark.parametrize("url", ["json://127.0.0.1:8080/hook", "json://localhost/", "ntfys://10.0.0.5/topic",
                                 "xml://169.254.169.254/latest", "json://[::1]:9000/", "jsons://192.168.1.20/x",
                                 "json://[::ffff:127.0.0.1]/", "gotify://100.64.1.1/token", "json://0.0.0.0/"])
def test_an_address_into_a_private_or_local_network_is_refused(app, t0, url):
    gid = new_tally(t0)
    with pytest.raises(ServiceError, match="private or local network"):
        channel.connect(gid, url, by_player_id=_pid("ada@example.org"), now=t0)
    assert channel.shown(gid) is None


@pytest.mark.parametrize("url", ["not a url", "syslog://", "https://example.org/page"])
def test_an_address_apprise_cannot_post_to_is_refused(app, t0, url):
    gid = new_tally(t0)
    with pytest.raises(ServiceError):
        channel.connect(gid, url, by_player_id=_pid("ada@example.org"), now=t0)


def test_safe_url_judges_addresses():
    assert not is_public("127.0.0.1") and not is_public("::1") and not is_public("fe80::1")
    assert not is_public("10.1.2.3") and not is_public("172.16.0.1") and not is_public("169.254.1.1")
    assert is_public("93.184.216.34") and is_public("2606:4700::1111")
    with pytest.raises(UnsafeAddress):
        check_url("http://127.0.0.1:5000/")
    with pytest.raises(UnsafeAddress):
        check_url("no host")


def test_only_the_host_connects_and_the_url_is_never_shown_back(app, t0):
    gid = new_tally(t0)
    with pytest.raises(NotAllowed):
        channel.connect(gid, "discord://1234/secret-token", by_player_id=_pid("bo@example.org"), now=t0)
    assert channel.connect(gid, "discord://1234/secret-token", by_player_id=_pid("ada@example.org"),
                           lang="de", now=t0) == "Discord"
    assert channel.shown(gid) == {"service": "Discord", "lang": "de"}
    [hello] = outbox(kind="channel")
    assert b"secret-token" not in hello.raw and hello.recipient.endswith("@channel.pbem.invalid")
    channel.disconnect(gid, by_player_id=_pid("ada@example.org"))
    assert channel.shown(gid) is None


def test_a_turn_posts_public_news_in_the_channels_language_and_never_talk(app, t0):
    gid = new_tally(t0)
    channel.connect(gid, "discord://1234/secret-token", by_player_id=_pid("ada@example.org"), lang="fi", now=t0)
    talk.post_message(gid, 0, _pid("ada@example.org"), "SECRET-DEAL", to=[1], now=t0)
    talk.post_message(gid, 0, _pid("ada@example.org"), "PUBLIC-HELLO", to=talk.ALL, now=t0)
    assert submit_orders(gid, 0, "Add 2", expected_step=0, source="web", now=t0).accepted
    posts = outbox(kind="channel")
    assert len(posts) == 2
    raw = posts[-1].raw
    assert b"SECRET-DEAL" not in raw and b"PUBLIC-HELLO" not in raw
    text = posts[-1].subject
    assert text == "Tally: vaihe 1"


class _Hook(BaseHTTPRequestHandler):
    got: list = []
    status = 200

    def do_POST(self):  # noqa: N802
        n = int(self.headers.get("Content-Length", 0))
        type(self).got.append(json.loads(self.rfile.read(n) or b"{}"))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *a):
        pass


@pytest.fixture
def hook():
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    _Hook.got, _Hook.status = [], 200
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield server.server_address[1]
    server.shutdown()


def test_posts_go_through_the_outbox_with_retries(app, t0, hook, monkeypatch):
    """A local stand-in for the chat service (the address check is waived
    for it alone: the test's server is on 127.0.0.1)."""
    gid = new_tally(t0)
    url = f"json://127.0.0.1:{hook}/hook"
    real = channel_url.check
    monkeypatch.setattr(channel_url, "check", lambda u: "JSON" if u == url else real(u))
    monkeypatch.setattr(channel_delivery, "public_only", contextlib.nullcontext)   # and the check as it connects
    channel.connect(gid, url, by_player_id=_pid("ada@example.org"), lang="de", now=t0)
    _Hook.status = 500
    deliver_due(now=t0)
    [row] = outbox(kind="channel")
    assert row.status == "pending" and row.attempts == 1 and _Hook.got  # tried, to be tried again
    _Hook.status, _Hook.got = 200, []
    assert submit_orders(gid, 0, "Add 2", expected_step=0, source="web", now=t0).accepted  # the turn did not wait
    deliver_due(now=t0 + __import__("datetime").timedelta(hours=1))
    assert {r.status for r in outbox(kind="channel")} == {"sent"}
    bodies = " ".join(p.get("message", "") + p.get("title", "") for p in _Hook.got)
    assert "öffentlichen Neuigkeiten" in bodies and "Tally: Schritt 1" in bodies and "Jetzt:" in bodies
    assert game(gid).step == 1
