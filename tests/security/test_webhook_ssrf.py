"""An API token holder aiming the webhooks (issue 28) at pbem's own
machine or network (SSRF), or at other games' news: every spelling of a
private address, addresses embedding one (IPv4-mapped, 6to4, NAT64), a
name resolving to one (at registration or only later: DNS rebinding), a
redirect from a public server, and a token for one game hearing of another."""
from __future__ import annotations

import ipaddress
import json

import pytest
from hypothesis import given, strategies as st
from sqlalchemy import select

from pbem.mail.smtp import TemporaryFailure
from pbem.service.core import safe_url
from pbem.service.core.models import OutboxMessage
from pbem.service.core.db import db
from pbem.service.post import webhook_delivery
from tests.api.conftest import app, bearer, client, token_for  # noqa: F401  (fixtures)
from tests.api.games import new_game
from tests.webapp import PLAYERS, game_state

PUBLIC = "93.184.216.34"

#: private addresses as an attacker may spell them in a URL
PRIVATE_SPELLINGS = [
    "https://0x7f000001/h", "https://2130706433/h", "https://127.1/h", "https://0177.0.0.1/h",
    "https://0/h", "https://0.0.0.0/h", "https://localhost/h", "https://LOCALHOST./h",
    "https://[::ffff:127.0.0.1]/h", "https://[::ffff:7f00:1]/h", "https://[::127.0.0.1]/h",
    "https://[0:0:0:0:0:ffff:a9fe:a9fe]/h", "https://[fe80::1%25eth0]/h", "https://[fd00::1]/h",
    "https://[2002:7f00:1::1]/h",        # 6to4 of 127.0.0.1
    "https://[2002:a9fe:a9fe::1]/h",     # 6to4 of 169.254.169.254 (cloud metadata)
    "https://[2002:c0a8:0101::1]/h",     # 6to4 of 192.168.1.1
    "https://[64:ff9b::a9fe:a9fe]/h",    # NAT64 of 169.254.169.254
    "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h",   # Teredo
    "https://169.254.169.254:443/latest/meta-data/", "https://100.100.100.200/h", "https://192.0.0.170/h",
    "https://198.18.0.1/h", "https://224.0.0.1/h", "https://255.255.255.255/h",
]


@pytest.fixture
def dns(monkeypatch):
    table = {}
    real = safe_url.resolve
    monkeypatch.setattr(safe_url, "resolve", lambda host: table[host] if host in table else real(host))
    return table


def _register(client, token, url):  # noqa: F811
    return client.post("/api/v1/webhooks", json={"url": url}, headers=bearer(token))


@pytest.mark.parametrize("url", PRIVATE_SPELLINGS)
def test_no_spelling_of_a_private_address_is_registered(app, client, url):  # noqa: F811
    new_game("medina")
    resp = _register(client, token_for(PLAYERS[0][1], "read"), url)
    assert resp.status_code == 422, url


def test_a_name_with_any_private_address_is_refused(app, client, dns):  # noqa: F811
    new_game("medina")
    token = token_for(PLAYERS[0][1], "read")
    dns["six.example"] = [PUBLIC, "::1"]
    dns["mapped.example"] = ["::ffff:10.0.0.1"]
    dns["sixtofour.example"] = ["2002:a9fe:a9fe::1"]
    for host in ("six.example", "mapped.example", "sixtofour.example"):
        assert _register(client, token, f"https://{host}/h").status_code == 422, host


def _rows():
    db.session.rollback()
    return db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "webhook")
                              .order_by(OutboxMessage.id)).scalars().all()


def _play_one(client, gid):  # noqa: F811
    state = game_state(gid)
    mover = state.current_seats()[0]
    client.post(f"/api/v1/games/{gid}/seats/{mover + 1}/orders",
                json={"orders": state.legal_actions(mover)[0].to_text()},
                headers=bearer(token_for(PLAYERS[mover][1], "order")))


class _Redirecting:
    """A connection whose server answers every request with a redirect to
    the metadata service; records every request made."""

    requests: list = []

    def __init__(self, host, port, address, *, timeout):
        self.host, self.address = host, address

    def request(self, method, target, body=None, headers=None):
        _Redirecting.requests.append((self.address, self.host, method, target))

    def getresponse(self):
        class Answer:
            status = 307
            headers = {"Location": "https://169.254.169.254/latest/meta-data/"}

            def read(self, n=-1):
                return b""
        return Answer()

    def close(self):
        pass

    was_cut = False

    def cut(self):
        pass


def test_a_redirect_is_not_followed_and_counts_as_a_failed_call(app, client, dns, monkeypatch):  # noqa: F811
    gid = new_game("medina")
    dns["hooks.example"] = [PUBLIC]
    assert _register(client, token_for(PLAYERS[0][1], "read"), "https://hooks.example/h").status_code == 201
    _play_one(client, gid)
    row = _rows()[0]
    _Redirecting.requests = []
    monkeypatch.setattr(webhook_delivery, "_PinnedHTTPS", _Redirecting)
    with pytest.raises(TemporaryFailure):
        webhook_delivery.post(row.raw, row.recipient)
    assert _Redirecting.requests == [(PUBLIC, "hooks.example", "POST", "/h")]


def test_a_token_for_one_game_hears_nothing_of_another(app, client, dns):  # noqa: F811
    first, second = new_game("medina"), new_game("medina", seed=6)
    mover = game_state(second).current_seats()[0]
    listener = PLAYERS[(mover + 1) % 3][1]   # plays in both games
    token = token_for(listener, "read", game_id=first)
    assert _register(client, token, f"https://{PUBLIC}/h").status_code == 201
    _play_one(client, second)
    assert _rows() == []
    _play_one(client, first)
    games = [json.loads(webhook_delivery._body(r.raw))["game"] for r in _rows()]
    assert games and set(games) == {first}


@given(st.ip_addresses(v=4))
def test_an_ipv6_spelling_of_an_ipv4_address_is_judged_as_that_address(v4):
    """IPv4-mapped and 6to4 spellings of any IPv4 address are public
    exactly when the address is (hypothesis over all of IPv4)."""
    mapped = ipaddress.IPv6Address(f"::ffff:{v4}")
    sixtofour = ipaddress.IPv6Address((0x2002 << 112) | (int(v4) << 80) | 1)
    assert safe_url.is_public(str(mapped)) == safe_url.is_public(str(v4))
    assert safe_url.is_public(str(sixtofour)) == safe_url.is_public(str(v4))


def _tls_listener(tmp_path):
    """A TLS listening socket for hooks.example (a certificate made with
    the openssl command) and the client context that trusts it."""
    import shutil
    import socket
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=hooks.example", "-addext",
                    "subjectAltName=DNS:hooks.example"], check=True, capture_output=True)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    return listener, server, cert


def test_a_hook_that_trickles_its_answer_cannot_hold_the_delivery(tmp_path, monkeypatch):
    """A token holder's server answers "200 OK" and then a header a byte at
    a time, each within the socket timeout: only a limit on the whole call
    stops it holding the outbox's delivery (every game's mail waits behind
    it, one row at a time)."""
    import ssl
    import threading
    import time

    listener, server_context, cert = _tls_listener(tmp_path)
    stop = threading.Event()

    def trickle():
        raw, _ = listener.accept()
        try:
            conn = server_context.wrap_socket(raw, server_side=True)
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            while not stop.is_set():
                conn.sendall(b"a")
                time.sleep(0.2)
        except OSError:
            pass
        finally:
            raw.close()

    threading.Thread(target=trickle, daemon=True).start()
    real_context = ssl.create_default_context
    monkeypatch.setattr(ssl, "create_default_context", lambda *a, **kw: real_context(cafile=str(cert)))
    monkeypatch.setattr(webhook_delivery, "TIMEOUT", 1)
    outcome = []

    def make_call():
        try:
            outcome.append(webhook_delivery.call(f"https://hooks.example:{listener.getsockname()[1]}/h",
                                                 "127.0.0.1", b"{}", "t=1,v1=0"))
        except Exception as err:   # noqa: BLE001  (what the delivery catches is asserted below)
            outcome.append(err)

    caller = threading.Thread(target=make_call, daemon=True)
    started = time.monotonic()
    caller.start()
    caller.join(timeout=20)
    took = time.monotonic() - started
    stop.set()
    listener.close()
    assert not caller.is_alive(), "the call is still running after 20 s"
    assert took < 4 * webhook_delivery.TIMEOUT
    assert isinstance(outcome[0], (OSError, __import__("http.client").client.HTTPException, ssl.SSLError)), outcome
