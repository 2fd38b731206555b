"""Fuzzing the inbound pipeline and the command parser: malformed MIME,
broken encodings, huge or empty parts and garbage orders never crash the
worker and never change a game (unless they are a valid order from the
seat, which is then applied like any other)."""
from __future__ import annotations

import base64
import os
import random
import re
import subprocess
import sys
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import func, select

from pbem.engine import OrderError, get_game
from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage, PendingOrder
from pbem.service.core.snapshot import engine_state
from pbem.service.play.orders import submit_orders

from .conftest import new_lacitta
from pbem.service.post.outbox import render


def _positions():
    out = []
    for name, kwargs in (("lacitta", {"setup": "beginner"}), ("medina", {})):
        game = get_game(name)
        rng = random.Random(5)
        state = game.new_state(3, 17, **kwargs)
        for _ in range(10):
            out.append((game, state.copy()))
            seat = state.current_seats()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


POSITIONS = _positions()
WORDS = ["castle", "build", "farm", "found", "from", "citizens", "gold", "palazzo", "master", "builder",
         "merchant", "palace", "wall", "tower", "pass", "golden", "age", "x1", "F7", "O2", "B2", "Z99",
         "-1", "0", "99999999999999999999", "ä", "\u202e", "\x00", ",", ";", "=", "  "]
order_text = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join),
    st.builds(lambda pos, i, cut: pos[1].legal_actions(pos[1].current_seats()[0])[
        i % len(pos[1].legal_actions(pos[1].current_seats()[0]))].to_text()[:cut],
        st.sampled_from(POSITIONS), st.integers(0, 10 ** 6), st.integers(0, 60)),
)


@settings(max_examples=400, deadline=None)
@given(pos=st.sampled_from(POSITIONS), text=order_text)
def test_command_parser_answers_garbage_with_an_order_error(pos, text):
    game, state = pos
    seat = state.current_seats()[0]
    before = state.to_json()
    try:
        action = game.parse_action(state, seat, text)
    except OrderError as err:
        assert isinstance(err.message, str) and err.message
        assert state.to_json() == before
        return
    assert state.to_json() == before
    trial = state.copy()
    trial.apply(seat, action)  # what parses is legal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(order_text, st.lists(order_text, max_size=30).map("\n".join)))
def test_submitted_garbage_is_refused_and_changes_nothing(app, text):
    gid = _game()
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    before = (g.step, g.state)
    seat = engine_state(g).current_seats()[0]
    res = submit_orders(gid, seat, text, expected_step=g.step, source="web")
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    if res.status == "refused":
        assert (g.step, g.state) == before
        assert res.message
    else:
        assert res.status == "stored"  # a real order: resolved in the normal way
        _reset()


_GAME: dict[str, int] = {}


def _game() -> int:
    if "id" not in _GAME or db.session.get(Game, _GAME["id"]) is None:
        _GAME["id"] = new_lacitta()
    return _GAME["id"]


def _reset() -> None:
    _GAME.clear()


@pytest.fixture(autouse=True)
def _fresh_game_per_test():
    _reset()
    yield
    _reset()


# ------------------------------------------------------------------ inbound mail
def _reply_bytes(gid: int) -> bytes:
    from email import message_from_bytes, policy

    row = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.game_id == gid, OutboxMessage.kind == "turn")).scalars().all()[-1]
    notice = message_from_bytes(render(row), policy=policy.default)
    msg = EmailMessage()
    msg["From"] = str(notice["To"])
    msg["To"] = str(notice["Reply-To"])
    msg["Subject"] = "Re: " + str(notice["Subject"])
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = str(notice["Message-ID"])
    msg.set_content("castle Q99\n\n> quoted turn notice\n")
    return msg.as_bytes()


mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10 ** 6), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, 10 ** 6), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 10 ** 6), st.binary(max_size=200)),
    st.tuples(st.just("header"), st.just(0), st.sampled_from([
        b"Content-Type: multipart/mixed; boundary=\"\"", b"Content-Type: text/plain; charset=x-unknown-42",
        b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: quoted-printable",
        b"Content-Type: multipart/alternative", b"MIME-Version: 9.9", b"Subject: =?utf-8?q?=FF=FE?=",
        b"From: =?iso-8859-1?b?////?= <ada@example.org>", b"Content-Type: message/rfc822",
        b"Content-Disposition: attachment; filename*=utf-8''%FF%FE"])),
    st.tuples(st.just("body"), st.just(0), st.sampled_from([
        b"", b"\xff\xfe\x00" * 200, b"=\r\n" * 500, b"--\r\n" * 300, b"x" * 100_000, b"\r\n" * 5000])),
)


def _mutate(raw: bytes, ops) -> bytes:
    data = bytearray(raw)
    for op, pos, arg in ops:
        if not data and op != "header":
            continue
        if op == "flip":
            data[pos % len(data)] = arg
        elif op == "cut":
            data = data[: pos % (len(data) + 1)]
        elif op == "insert":
            p = pos % (len(data) + 1)
            data[p:p] = arg
        elif op == "header":
            data[0:0] = arg + b"\r\n"
        elif op == "body":
            head, sep, _body = bytes(data).partition(b"\n\n")
            data = bytearray(head + (sep or b"\n\n") + arg)
    return bytes(data)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(mutation, min_size=1, max_size=4))
def test_mangled_inbound_mail_never_crashes_the_worker_or_changes_the_game(app, ops):
    app.config["INBOUND_RATE_LIMIT"] = ""  # hundreds of mails from one sender here; limits: test_rate_limits
    gid = _game()
    raw = _mutate(_reply_bytes(gid), ops)
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    before = (g.step, g.state)
    task = app.extensions["celery"].tasks["pbem.inbound"]
    result = task.apply(args=[base64.b64encode(raw).decode()], throw=True).get()  # raises = crash
    db.session.rollback()
    g = db.session.get(Game, gid)
    db.session.refresh(g)
    pending = db.session.execute(select(func.count()).select_from(PendingOrder)).scalar_one()
    if result == "stored":  # the mangling left a valid order from the seat: applied normally
        _reset()
        return
    assert (g.step, g.state) == before, result
    assert pending == 0
    assert result in ("rejected", "refused", "stale", "unknown", "wrong-sender", "duplicate")


def test_atheris_fuzz_of_the_order_parsers():
    """A short coverage-guided run (atheris/libFuzzer) of the order parsers."""
    pytest.importorskip("atheris", reason="atheris is optional; not installed here")
    script = Path(__file__).with_name("fuzz_orders.py")
    proc = subprocess.run([sys.executable, str(script), "-runs=3000", "-max_len=300", "-seed=7",
                           "-timeout=60"], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    # libFuzzer says why it stopped (an uncaught exception and its input, or a timeout)
    reason = [line for line in proc.stderr.splitlines() if "ERROR" in line or "Error" in line]
    assert proc.returncode == 0, (reason, proc.stderr[-4000:])


# ------------------------------------------------------------------ the pages
#: field names the pages read, and a few they do not
FIELDS = ["orders", "step", "name", "timezone", "email", "next", "title", "kind", "deadline_hours", "hours",
          "seat-0-name", "seat-0-email", "seat-1-email", "opt-lacitta-setup", "body", "from", "to", "subject",
          "x"]
TRICKY = ["", "0", "-1", "1e309", "nan", "2147483648", "9223372036854775808", "9" * 400, "\x00", "a\x00b",
          "\r\n", "\t", "\x1b[0m", "\u202e", "\ud7ff", "castle F7", "pass", "UTC", "lacitta", "//evil.example",
          "/\\evil", "ada@example.org", "x@example.org,y@example.org", "%00", "' OR 1=1 --"]
field_value = st.one_of(st.sampled_from(TRICKY), st.text(max_size=60))
path_value = st.one_of(st.integers(0, 4), st.sampled_from([2**31 - 1, 2**31, 2**63, 10**25]),
                       st.text(min_size=1, max_size=20))


def _web_game(app) -> int:
    if "web" not in _GAME or db.session.get(Game, _GAME["web"]) is None:
        _GAME["web"] = new_lacitta()
    return _GAME["web"]


@pytest.fixture
def web_app(tmp_path, service_database_url):
    """The app with rate limits off (the fuzzer would only meet 429s) and
    errors answered as in production (a 500 is a page, not an exception)."""
    from .conftest import app_with_schema, make_app

    for app in app_with_schema(make_app(tmp_path, service_database_url, SECRET_KEY="fuzz",
                                        RATELIMIT_ENABLED=False, PROPAGATE_EXCEPTIONS=False)):
        # CI's second run fuzzes PostgreSQL, where a NUL or a too large id once was a 500
        assert db.engine.dialect.name == ("postgresql" if os.environ.get("PBEM_TEST_SERVICE_DB") == "postgres"
                                          else "sqlite")
        yield app


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_form_field_query_or_id_makes_a_page_fail(web_app, data):
    """Every route of the app (sign-out aside), signed in as a seat's player,
    with hostile ids in the URL, query arguments and form fields (NUL and
    other control characters, huge numbers, long text): never a 500, on
    SQLite and on PostgreSQL (CI's second run), and a refused control
    character is a 400."""
    from urllib.parse import quote

    from pbem.web.inputs import MULTILINE_FIELDS, control_character

    from .conftest import CSRF_RE, player_id, sign_in

    gid = _web_game(web_app)
    client = _GAME.get("client")
    if client is None or _GAME.get("client_app") is not web_app:
        client = web_app.test_client()
        sign_in(client, player_id("ada@example.org"))
        _GAME["client"], _GAME["client_app"] = client, web_app
        _GAME["token"] = CSRF_RE.search(client.get("/account").get_data(as_text=True)).group(1)
    # the pages' routes; the API (/api, a bearer token, no cookie) is fuzzed
    # against its own schema by tests/api/test_fuzz_api.py
    rules = sorted((r for r in web_app.url_map.iter_rules()
                    if r.endpoint != "static" and not r.rule.startswith(("/signout", "/api/"))
                    and r.methods & {"GET", "POST"}), key=lambda r: r.rule)
    rule = data.draw(st.sampled_from(rules))
    method = data.draw(st.sampled_from(sorted(rule.methods & {"GET", "POST"})))
    path = rule.rule
    for arg in rule.arguments:
        value = data.draw(st.one_of(st.just(gid), path_value) if arg == "game_id" else path_value)
        path = re.sub(rf"<[^>]*\b{arg}>", quote(str(value), safe=""), path)
    query = data.draw(st.dictionaries(st.sampled_from(FIELDS), field_value, max_size=3))
    form = data.draw(st.dictionaries(st.sampled_from(FIELDS), field_value, max_size=6))
    if method == "POST":
        resp = client.post(path, query_string=query, data={**form, "csrf_token": _GAME["token"]})
    else:
        resp = client.get(path, query_string=query)
    assert resp.status_code < 500, (method, path, query, form, resp.get_data(as_text=True)[:2000])
    sent = list(query.items()) + (list(form.items()) if method == "POST" else [])
    refused = any(control_character(v, multiline=k in MULTILINE_FIELDS) for k, v in sent)
    if refused and resp.status_code != 404:  # a path no route takes is a 404 before any field is read
        assert resp.status_code == 400, (method, path, query, form)
    db.session.rollback()
