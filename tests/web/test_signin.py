"""Signing in: emailed links (signed, expiring, single use), the "send me a
link" form (rate limited, same answer for known and unknown addresses),
signing out."""
from __future__ import annotations

import datetime as dt
import re

from sqlalchemy import select

from pbem.mail.flowed import plain_text
from pbem.mail.tokens import make_signin_token
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage, Player

from .conftest import csrf_token, new_lacitta, player_id, sign_in
from pbem.service.post.outbox import render


def _path(url: str) -> str:
    return url.removeprefix("http://pbem.test")


def _link_in(row) -> str:
    from email import message_from_bytes, policy

    text = plain_text(message_from_bytes(render(row), policy=policy.default))
    return re.search(r"http://pbem\.test(/signin/[A-Za-z0-9_.\-]+)", text).group(1)


def _post_token(client, path):
    page = client.get(path)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    return client.post(path, data={"csrf_token": token})


def test_link_shows_continue_then_signs_in_and_lands_on_next(app, client):
    gid = new_lacitta()
    bo = player_id("bo@example.org")
    path = _path(links.signin_url(bo, f"/games/{gid}/seat/2"))
    page = client.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "bo@example.org" in html and 'id="continue"' in html
    assert page.headers["Cache-Control"] == "no-store"
    # opening the link does not use it up (mail scanners open links)
    assert client.get(path).status_code == 200
    resp = _post_token(client, path)
    assert resp.status_code == 302 and resp.headers["Location"] == f"/games/{gid}/seat/2"
    assert "Bo" in client.get("/").get_data(as_text=True)


def test_link_works_once(app, client):
    new_lacitta()
    path = _path(links.signin_url(player_id("ada@example.org"), "/"))
    assert _post_token(client, path).status_code == 302
    other = app.test_client()
    token = csrf_token(other)
    again = other.post(path, data={"csrf_token": token})
    assert again.status_code == 410, again.get_data(as_text=True)
    assert "used already" in again.get_data(as_text=True)
    # and the second browser is not signed in
    assert "Send me a sign-in link" in other.get("/").get_data(as_text=True)


def test_forged_and_expired_links_are_refused(app, client, monkeypatch):
    new_lacitta()
    ada = player_id("ada@example.org")
    forged, _ = make_signin_token("another-secret", {"player": ada, "next": "/"})
    resp = client.get(f"/signin/{forged}")
    assert resp.status_code == 410 and "not valid" in resp.get_data(as_text=True)
    path = _path(links.signin_url(ada, "/"))
    import itsdangerous.timed

    later = dt.datetime.now(dt.timezone.utc).timestamp() + 8 * 24 * 3600
    monkeypatch.setattr(itsdangerous.timed.TimestampSigner, "get_timestamp", lambda self: int(later))
    resp = client.get(path)
    assert resp.status_code == 410 and "expired" in resp.get_data(as_text=True)


def test_link_never_redirects_off_site(app, client):
    new_lacitta()
    token, _ = make_signin_token(app.config["SECRET_KEY"],
                                 {"player": player_id("ada@example.org"), "next": "//evil.example/x"})
    resp = _post_token(client, f"/signin/{token}")
    assert resp.status_code == 302 and resp.headers["Location"] == "/"


def test_send_link_form_mails_a_working_link(app, client):
    new_lacitta()
    resp = client.post("/signin", data={"csrf_token": csrf_token(client), "email": "Bo@Example.org",
                                         "next": "/games/1"})
    assert resp.status_code == 200 and "Check your mail" in resp.get_data(as_text=True)
    row = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "signin")).scalar_one()
    assert row.recipient == "bo@example.org"
    url = _link_in(row)
    fresh = app.test_client()
    resp = _post_token(fresh, url)
    assert resp.headers["Location"] == "/games/1"


def test_unknown_address_gets_the_same_answer_and_a_sign_up_link(app, client):
    resp = client.post("/signin", data={"csrf_token": csrf_token(client), "email": "new@example.org"})
    assert resp.status_code == 200 and "Check your mail" in resp.get_data(as_text=True)
    assert db.session.execute(select(Player).where(Player.email == "new@example.org")).scalar_one_or_none() is None
    row = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "signin")).scalar_one()
    url = _link_in(row)
    assert _post_token(client, url).status_code == 302
    db.session.rollback()  # a fresh snapshot: the request wrote in its own session
    assert db.session.execute(select(Player).where(Player.email == "new@example.org")).scalar_one()


def test_not_an_address_is_answered_and_kept(app, client):
    resp = client.post("/signin", data={"csrf_token": csrf_token(client), "email": "no at sign"})
    assert resp.status_code == 422
    assert 'value="no at sign"' in resp.get_data(as_text=True)


def test_send_link_is_rate_limited_per_address(app, client):
    token = csrf_token(client)
    codes = [client.post("/signin", data={"csrf_token": token, "email": "ada@example.org"}).status_code
             for _ in range(4)]
    assert codes[:3] == [200, 200, 200] and codes[3] == 429
    # another address from the same client still works (within the per-client limit)
    assert client.post("/signin", data={"csrf_token": token, "email": "bo@example.org"}).status_code == 200


def test_send_link_is_rate_limited_per_client(app, client):
    token = csrf_token(client)
    codes = [client.post("/signin", data={"csrf_token": token, "email": f"p{i}@example.org"}).status_code
             for i in range(6)]
    assert codes == [200] * 5 + [429]
    assert "Slow down" in client.post("/signin", data={"csrf_token": token, "email": "x@example.org"}) \
        .get_data(as_text=True)


def test_sign_out(app, client):
    new_lacitta()
    sign_in(client, player_id("ada@example.org"))
    assert "My games" in client.get("/").get_data(as_text=True)
    resp = client.post("/signout", data={"csrf_token": csrf_token(client, "/")})
    assert resp.status_code == 302
    assert client.get("/games/1/seat/1").status_code == 302  # back to sign-in


def test_account_sets_name_and_zone(app, client):
    new_lacitta()
    sign_in(client, player_id("ada@example.org"))
    token = csrf_token(client, "/account")
    bad = client.post("/account", data={"csrf_token": token, "name": "Ada", "timezone": "Mars/Olympus"})
    assert bad.status_code == 200 and "time zone" in bad.get_data(as_text=True)
    ok = client.post("/account", data={"csrf_token": token, "name": "Ada L.", "timezone": "Europe/Helsinki"})
    assert ok.status_code == 302
    db.session.rollback()  # a fresh snapshot: the request wrote in its own session
    p = db.session.get(Player, player_id("ada@example.org"))
    assert (p.name, p.timezone) == ("Ada L.", "Europe/Helsinki")
    assert "(Europe/Helsinki)" in client.get("/").get_data(as_text=True)


def test_behind_a_proxy_limits_count_each_client(tmp_path):
    """With PROXY_COUNT=1 the per-client limit uses X-Forwarded-For, so one
    noisy client behind nginx does not lock everyone else out."""
    from pbem.web import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path / "i"), "SECRET_KEY": "k", "PROXY_COUNT": 1,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
                      "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'b.sqlite'}", "CELERY_EAGER": True,
                      "DELIVER_AFTER_COMMIT": False, "SMTP_PORT": 1})
    with app.app_context():
        db.create_all()
    try:
        noisy, calm = app.test_client(), app.test_client()
        for client, ip in ((noisy, "203.0.113.1"), (calm, "203.0.113.2")):
            client.environ_base["HTTP_X_FORWARDED_FOR"] = ip
        token = csrf_token(noisy)
        codes = [noisy.post("/signin", data={"csrf_token": token, "email": f"n{i}@example.org"}).status_code
                 for i in range(6)]
        assert codes[-1] == 429
        assert calm.post("/signin", data={"csrf_token": csrf_token(calm), "email": "c@example.org"}).status_code == 200
    finally:
        with app.app_context():
            db.engine.dispose()


def test_a_page_that_needs_sign_in_comes_back_after_the_emailed_link(app, client):
    gid = new_lacitta()
    resp = client.get(f"/games/{gid}/seat/2")
    assert resp.status_code == 302
    form = client.get(resp.headers["Location"]).get_data(as_text=True)
    nxt = re.search(r'name="next" value="([^"]+)"', form).group(1)
    assert nxt == f"/games/{gid}/seat/2"
    client.post("/signin", data={"csrf_token": csrf_token(client), "email": "bo@example.org", "next": nxt})
    row = db.session.execute(select(OutboxMessage).where(OutboxMessage.kind == "signin")).scalar_one()
    landed = _post_token(client, _link_in(row))
    assert landed.headers["Location"] == f"/games/{gid}/seat/2"
    assert client.get(landed.headers["Location"]).status_code == 200


def test_a_first_signin_that_fails_leaves_the_link_usable(app, client, monkeypatch):
    """Issue 22: storing the browser's language failed ("database is
    locked") after the link had been spent in a transaction of its own;
    the same link then said it was used. The link is spent only by the
    transaction that succeeds."""
    from sqlalchemy.exc import OperationalError

    from pbem.service.accounts import first_signin

    new_lacitta(start=False)
    path = _path(links.signin_url(player_id("bo@example.org"), "/"))
    page = client.get(path, headers={"Accept-Language": "fi"})
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    real = first_signin.zone_or_none

    def locked(*args):
        raise OperationalError("UPDATE players", {}, Exception("database is locked"))

    monkeypatch.setattr(first_signin, "zone_or_none", locked)
    app.config["PROPAGATE_EXCEPTIONS"] = False   # the visitor sees the error page, as in production
    failed = client.post(path, data={"csrf_token": token, "browser_zone": "Europe/Helsinki"},
                         headers={"Accept-Language": "fi"})
    assert failed.status_code == 500
    monkeypatch.setattr(first_signin, "zone_or_none", real)
    again = client.post(path, data={"csrf_token": token, "browser_zone": "Europe/Helsinki"},
                        headers={"Accept-Language": "fi"})
    assert again.status_code == 302, again.get_data(as_text=True)
    db.session.rollback()
    bo = db.session.execute(select(Player).where(Player.email == "bo@example.org")).scalar_one()
    assert (bo.language, bo.timezone) == ("fi", "Europe/Helsinki") and bo.first_signin_at is not None


def test_many_first_signins_at_once_all_succeed(app):
    """Issue 22 under load: 40 first sign-ins posted at once on a threaded
    server. Before, the browser's language went in a transaction of its own
    after the link was spent: on SQLite about two in three got a 500
    ("database is locked") and their link then said it was used."""
    import http.cookiejar
    import threading
    import urllib.error
    import urllib.parse
    import urllib.request

    from werkzeug.serving import make_server

    from pbem.web.extensions import limiter

    n = 40
    for i in range(n):
        db.session.add(Player(email=f"load{i}@example.org", name=f"L{i}", language=""))
    db.session.commit()
    paths = [_path(links.signin_url(player_id(f"load{i}@example.org"), "/")) for i in range(n)]
    app.config["PROPAGATE_EXCEPTIONS"] = False
    was, limiter.enabled = limiter.enabled, False
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base, codes, start = f"http://127.0.0.1:{server.server_port}", [], threading.Barrier(n)

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def first_signin(path):
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), Stay())
        token = re.search(r'name="csrf_token" value="([^"]+)"',
                          opener.open(base + path, timeout=60).read().decode()).group(1)
        start.wait()
        request = urllib.request.Request(base + path, headers={"Accept-Language": "fi"},
                                         data=urllib.parse.urlencode({"csrf_token": token}).encode())
        try:
            codes.append(opener.open(request, timeout=60).status)
        except urllib.error.HTTPError as err:
            codes.append(err.code)

    try:
        threads = [threading.Thread(target=first_signin, args=(p,)) for p in paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        server.shutdown()
        limiter.enabled = was
    db.session.rollback()
    assert codes == [302] * n
    assert len(db.session.execute(select(Player).where(Player.language == "fi")).scalars().all()) == n
