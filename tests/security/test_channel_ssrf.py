"""A host aiming the group's channel (issue 26, Apprise) into pbem's own
network past the address check: the chat server, public when checked,
answers with a redirect to a private address, or its name resolves to a
private address only when the post connects (DNS rebinding). Apprise's
plugins make the requests themselves, so the check of the URL alone does
not stop either; no connection of a post may reach a private address.

Two local servers stand in: the "public" chat server on 127.0.0.2 (the
test treats that one address as public) and the private target on
127.0.0.1, which must never be reached."""
from __future__ import annotations

import datetime as dt
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from sqlalchemy import select

from pbem.service.core import safe_url
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage, Player
from pbem.service.play import channel
from pbem.service.post.delivery import deliver_due
from tests.service.helpers import new_tally
from tests.security.tally_app import app, tally_game  # noqa: F401  (fixtures)

T0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
STAND_IN = "127.0.0.2"   # the chat server, public for these tests


class _Private(BaseHTTPRequestHandler):
    hits: list = []

    def do_GET(self):  # noqa: N802
        _Private.hits.append(("GET", self.path))
        self.send_response(200)
        self.end_headers()

    do_POST = do_GET  # noqa: N815

    def log_message(self, *args):
        pass


def _redirecting_to(port: int):
    class Chat(BaseHTTPRequestHandler):
        hits: list = []

        def do_POST(self):  # noqa: N802
            Chat.hits.append(self.path)
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(307)
            self.send_header("Location", f"http://127.0.0.1:{port}/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass
    return Chat


def _serve(address: str, handler) -> tuple[HTTPServer, int]:
    server = HTTPServer((address, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


@pytest.fixture
def private():
    _Private.hits = []
    server, port = _serve("127.0.0.1", _Private)
    yield port
    server.shutdown()


@pytest.fixture
def stand_in_is_public(monkeypatch):
    real = safe_url.is_public
    monkeypatch.setattr(safe_url, "is_public", lambda a: a == STAND_IN or real(a))


def _ada() -> int:
    return db.session.execute(select(Player.id).where(Player.email == "ada@example.org")).scalar_one()


def _post_rows() -> list[OutboxMessage]:
    db.session.rollback()
    return list(db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "channel")).scalars())


def test_a_redirect_from_the_chat_server_is_not_followed_into_the_network(app, private, stand_in_is_public):
    chat_handler = _redirecting_to(private)
    chat, port = _serve(STAND_IN, chat_handler)
    try:
        gid = new_tally(T0)
        channel.connect(gid, f"json://{STAND_IN}:{port}/hook", by_player_id=_ada(), lang="en", now=T0)
        deliver_due(now=T0)
        assert chat_handler.hits, "the chat server was not called at all"
        assert _Private.hits == []
        assert all(r.status != "sent" for r in _post_rows())
    finally:
        chat.shutdown()


def test_a_name_that_resolves_privately_only_when_the_post_connects_is_not_reached(app, private, monkeypatch):
    gid = new_tally(T0)
    monkeypatch.setattr(safe_url, "resolve", lambda host, real=safe_url.resolve:
                        ["93.184.216.34"] if host == "rebind.example" else real(host))   # what the check sees
    real_getaddrinfo = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **kw: real_getaddrinfo(
        "127.0.0.1" if host == "rebind.example" else host, *a, **kw))                 # what the post gets
    channel.connect(gid, f"json://rebind.example:{private}/hook", by_player_id=_ada(), lang="en", now=T0)
    deliver_due(now=T0)
    assert _Private.hits == []
    assert all(r.status != "sent" for r in _post_rows())


def test_the_guard_holds_in_its_context_only(private):
    """Inside ``public_only`` a private address is refused at resolution,
    also in a worker that runs in a copy of the context (as Apprise's do);
    another thread resolving at the same time (the SMTP relay on
    localhost) is not affected, nor is anything after the block."""
    import concurrent.futures
    import contextvars

    from pbem.service.core.safe_connect import PrivateAddress, public_only

    def connect():
        socket.create_connection(("127.0.0.1", private), timeout=5).close()
        return True

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        with public_only():
            with pytest.raises(PrivateAddress):
                connect()
            with pytest.raises(PrivateAddress):
                pool.submit(contextvars.copy_context().run, connect).result()
            assert pool.submit(connect).result()   # a thread of its own context
        assert connect()


class _Trickling(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        for _ in range(40):                       # 8 seconds, a byte at a time
            try:
                self.wfile.write(b"a")
                self.wfile.flush()
            except OSError:
                return
            import time
            time.sleep(0.2)

    def log_message(self, *args):
        pass


def test_a_chat_server_trickling_its_answer_holds_the_delivery_briefly(app, stand_in_is_public, monkeypatch):
    import time

    from pbem.service.post import channel_delivery

    monkeypatch.setattr(channel_delivery, "POST_SECONDS", 2)
    server, port = _serve(STAND_IN, _Trickling)
    try:
        gid = new_tally(T0)
        channel.connect(gid, f"json://{STAND_IN}:{port}/hook", by_player_id=_ada(), lang="en", now=T0)
        started = time.monotonic()
        deliver_due(now=T0)
        assert time.monotonic() - started < 5    # POST_SECONDS and a little: not the 8 s of the answer
        assert all(r.status != "sent" for r in _post_rows())
    finally:
        server.shutdown()
