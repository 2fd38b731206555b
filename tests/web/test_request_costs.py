"""What every request pays for before and after its view, kept small
without dropping a check (issue 24; pbem/web/pageapp.py,
pbem/web/extensions.py): the rate limits stay, the security headers stay,
a stale session is still refused on the order page."""
from __future__ import annotations

import pytest

from pbem.service.accounts import sessions as accounts_sessions
from pbem.web.extensions import limiter

from .conftest import app_with_schema, csrf_token, make_app, new_lacitta, player_id, signed_in


def test_the_routes_limits_hold_without_flask_limiters_check_before_every_request(app, client):
    assert limiter._check_request_limit not in app.before_request_funcs[None]
    codes = [client.post("/signin", data={"csrf_token": csrf_token(client, "/signin"),
                                          "email": f"x{i}@example.org"}).status_code for i in range(6)]
    assert codes == [200] * 5 + [429]


@pytest.fixture
def no_default_limits_after():
    yield
    limiter.limit_manager.set_default_limits([])   # the limiter is the process's: the next app has none


def test_a_default_limit_keeps_the_check_before_every_request(tmp_path, service_database_url,
                                                              no_default_limits_after):
    for app in app_with_schema(make_app(tmp_path, service_database_url, RATELIMIT_DEFAULT="2 per minute")):
        assert limiter._check_request_limit in app.before_request_funcs[None]
        client = app.test_client()
        assert [client.get("/signin").status_code for _ in range(3)] == [200, 200, 429]


def test_a_redirect_and_a_page_carry_the_security_headers_and_the_view_can_set_its_own(app, client):
    new_lacitta()
    ada = signed_in(app, "ada@example.org")
    assert ada.get("/account").headers.getlist("Cache-Control") == ["private, no-store"]   # a signed-in page
    for resp in (ada.get("/account"), ada.post("/signout", data={"csrf_token": csrf_token(ada, "/account")})):
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in resp.headers[
            "Content-Security-Policy"]
        assert resp.headers.getlist("Referrer-Policy") == ["same-origin"]
    link = client.get("/signin/not-a-token")   # the token is in the URL: its own headers, once each
    assert link.headers.getlist("Cache-Control") == ["no-store"]
    assert link.headers.getlist("Referrer-Policy") == ["no-referrer"]


def test_the_order_page_refuses_a_session_ended_elsewhere(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    accounts_sessions.end_all_sessions(player_id("ada@example.org"))   # signed out everywhere, e.g. on a phone
    refused = ada.post(f"/games/{gid}/seat/1", data={"csrf_token": token, "orders": "gold", "step": "0"})
    assert refused.status_code == 302 and refused.headers["Location"] == f"/games/{gid}/seat/1"
    assert ada.get(f"/games/{gid}/seat/1").headers["Location"].startswith("/signin")
