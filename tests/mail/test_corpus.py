"""The reply corpus (tests/mail/corpus): every reply's orders read exactly;
a third of them through the whole path (``pbem mail ingest``, then the
answer mail); and every one of them answered (no mail from a seat's own
address goes unanswered).

The notice answered is a real one: La Città #1 (seed 7), seat 1 (Ada),
Year 1, political round 1, composed by the service."""
from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from email import message_from_bytes, policy
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from pbem.engine import get_game
from pbem.mail.flowed import plain_text
from pbem.mail.inbound import DEFAULT_MAX_LINES, parse_inbound
from pbem.mail.reply_text import read_reply
from pbem.service.play.replies import notice_texts, order_predicate

from .corpus_loader import Notice, load, reply_bytes

FIXTURES = load()
PATH = [f for f in FIXTURES if f.path]
PHASE = "Year 1, political round 1"
PLAYERS = [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
ENV = {
    "PBEM_SECRET_KEY": "corpus-secret",
    "PBEM_INBOUND_ADDRESS": "play@pbem.test",
    "PBEM_MAIL_FROM": "pbem <pbem@pbem.test>",
    "PBEM_CELERY_EAGER": "1",
    "PBEM_SMTP_PORT": "1",
    "PBEM_BASE_URL": "http://pbem.test",
}


def _env(tmp) -> dict:
    return {**ENV, "PBEM_INSTANCE_PATH": str(tmp / "inst"), "PBEM_DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite'}",
            "PBEM_BROKER_URL": f"sqla+sqlite:///{tmp / 'broker.sqlite'}"}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A migrated database holding a started La Città game whose seat-1
    notice is composed; the notice, and the seat's state."""
    import datetime as dt

    from pbem.service.core.db import db
    from pbem.service.core.migrate import upgrade
    from pbem.service.play.lifecycle import create_game, join_game
    from pbem.web import create_app
    from tests.service.helpers import compose_pending, outbox

    tmp = tmp_path_factory.mktemp("corpus")
    values = _env(tmp)
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        upgrade(values["PBEM_DATABASE_URL"])
        app = create_app()
        with app.app_context():
            t0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
            g = create_game("lacitta", PLAYERS[0][1], PLAYERS, seed=7, now=t0)
            for i in (1, 2):
                join_game(g.id, i, now=t0)
            compose_pending()
            row = outbox(kind="turn", seat_index=0)[0]
            raw = row.raw
            state_json = db.session.get(type(g), g.id).state
            db.session.remove()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    msg = message_from_bytes(raw, policy=policy.default)
    text = lambda kind: msg.get_body((kind,)).get_content().replace("\r\n", "\n")  # noqa: E731
    # the plain part as a reader shows it (and quotes it): soft breaks joined
    notice = Notice(plain=plain_text(msg), html=text("html"),
                    message_id=msg["Message-ID"], reply_to=msg["Reply-To"], subject=msg["Subject"])
    state = get_game("lacitta").state_from_json(state_json)
    return SimpleNamespace(tmp=tmp, notice=notice, raw=raw, state=state)


def _read(world, fx, *, with_notice: bool = True):
    mail = parse_inbound(reply_bytes(fx, world.notice), max_order_lines=DEFAULT_MAX_LINES)
    texts, tokens = notice_texts(world.raw) if with_notice else ([], [])
    is_order = order_predicate(SimpleNamespace(kind="lacitta"), 0, world.state)
    return read_reply(mail.body, notice_texts=texts, sender_tokens=tokens + ["play@pbem.test"],
                      is_order=is_order, order_words=get_game("lacitta").order_words())


def test_the_corpus_is_what_issue_13_asks_for():
    assert len(FIXTURES) >= 80
    assert len({f.name for f in FIXTURES}) == len(FIXTURES)
    langs = Counter(f.meta["lang"] for f in FIXTURES)
    assert set("en de fr es it nl pt da no sv fi cs ca ru pl".split()) <= set(langs)
    clients = " ".join(f.meta["client"] for f in FIXTURES)
    for client in ("Gmail", "Outlook (Windows", "Outlook on the web", "Outlook for iOS", "Outlook for Android",
                   "Apple Mail", "iPhone", "Android", "Samsung Email", "BlackBerry", "Thunderbird", "Yahoo",
                   "AOL", "Zimbra", "Zoho", "K-9", "Mutt", "Windows Mail"):
        assert client in clients, client
    kinds = Counter(f.kind for f in FIXTURES)
    assert kinds["html"] >= 5 and kinds["flowed"] >= 3
    assert sum("forward" in f.meta["client"] for f in FIXTURES) >= 2
    assert len(PATH) * 3 >= len(FIXTURES)


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda f: f.name)
def test_orders_read_exactly(world, fx):
    reading = _read(world, fx)
    assert reading.orders == fx.orders
    assert reading.ignored == fx.ignored


@pytest.mark.parametrize("fx", [f for f in FIXTURES if f.meta.get("needs") != "notice"], ids=lambda f: f.name)
def test_the_patterns_alone_read_them_too(world, fx):
    """The second line of defence (no notice kept: pruned, or the quote of
    another mail): mail-parser-reply with our language entries and the
    shape-based header rule read the orders of every reply but those
    marked ``needs: notice`` (a sign-off the library knows as a signature
    is cut there instead of being named back)."""
    reading = _read(world, fx, with_notice=False)
    assert not reading.found
    assert reading.orders == fx.orders


def _ingest(world, tmp_path, monkeypatch, raw: bytes):
    """``pbem mail ingest`` on a copy of the world's database; the answers written."""
    from pbem.cli import main

    for part in world.tmp.glob("db.sqlite*"):  # with its write-ahead log
        shutil.copy(part, tmp_path / part.name)
    for k, v in _env(tmp_path).items():
        monkeypatch.setenv(k, v)
    result = CliRunner().invoke(main, ["mail", "ingest"], input=raw)
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(tmp_path / "db.sqlite")
    try:
        rows = con.execute("SELECT kind, recipient, raw FROM outbox WHERE kind IN ('confirmation', 'refusal') "
                           "ORDER BY id").fetchall()
    finally:
        con.close()
    return result.output, [(k, r, message_from_bytes(raw, policy=policy.default)) for k, r, raw in rows]


@pytest.mark.parametrize("fx", PATH, ids=lambda f: f.name)
def test_whole_path_and_the_answer(world, fx, tmp_path, monkeypatch):
    output, answers = _ingest(world, tmp_path, monkeypatch, reply_bytes(fx, world.notice))
    assert len(answers) == 1, output
    kind, recipient, msg = answers[0]
    text = plain_text(msg)
    assert recipient == "ada@example.org"
    assert msg["In-Reply-To"] and msg["Auto-Submitted"] == "auto-replied"
    assert f"({PHASE})" in msg["Subject"]
    if fx.ignored and fx.orders:
        assert "ignored, not orders: " + " / ".join(fx.ignored) in text
    if not fx.orders:  # issue 29: prose alone is "no orders found", with what is legal now
        assert kind == "refusal" and output.startswith("refused")
        assert "could not find your orders in this mail" in text
        assert "The first lines of your mail" in text
        assert all(line in text for line in fx.ignored)
        assert "Legal orders now (170)" in text and "REFUSED" not in text
    elif fx.name.endswith("_typo"):
        assert kind == "refusal"
        assert "Did you mean `build farm E6`?" in text
    else:
        assert kind == "confirmation", text
        assert output.startswith("stored game 1 seat 1")
        assert f"Your orders for La Città #1 ({PHASE}) are accepted." in text
        for n, order in enumerate(fx.orders, 1):
            assert f"{n}. {order}" in text


@pytest.mark.parametrize("fx", [f for f in FIXTURES if not f.path], ids=lambda f: f.name)
def test_no_mail_from_the_seat_goes_unanswered(world, fx, tmp_path, monkeypatch):
    """With test_whole_path_and_the_answer (one answer each), every reply
    of the corpus goes through ``pbem mail ingest`` and gets exactly one
    answer to the seat: a confirmation or a refusal."""
    output, answers = _ingest(world, tmp_path, monkeypatch, reply_bytes(fx, world.notice))
    assert [(k, r) for k, r, _m in answers] in ([("confirmation", "ada@example.org")],
                                                [("refusal", "ada@example.org")]), output


def test_the_notice_lists_common_orders_first_in_natural_order(world):
    """Issue #13: `gold` was hidden behind 40 `build …` orders, and sites
    sorted as text (A10 before A2). The true count is in the heading."""
    import re

    plain = world.notice.plain
    heading = re.search(r"Legal orders now \((\d+)\)\n-+\n", plain)
    assert heading, plain
    listed = []
    for line in plain[heading.end():].splitlines():
        if not line.startswith("    ") or line.strip().startswith("..."):
            break
        listed.append(line.strip())
    legal = {a.to_text() for a in world.state.legal_actions(0)}
    assert int(heading.group(1)) == len(legal) > len(listed)
    assert "gold" in listed
    plain_orders = [o for o in listed if not re.search(r"\b[A-Z]{1,2}\d", o)]
    assert listed[:len(plain_orders)] == plain_orders  # no site named: first
    sites = [o for o in listed if o.startswith("found ")]
    nums = [(o.split()[1][0], int(o.split()[1][1:])) for o in sites]
    assert nums == sorted(nums)


def test_the_refusal_names_the_line_that_failed_not_the_greeting(world, tmp_path, monkeypatch):
    """Issue 29: a greeting was reported as the refused line when the line
    below it held two orders. The two orders are read as two lines, the
    greeting is set aside, and the refusal names the line that failed."""
    fx = next(f for f in FIXTURES if f.name == "two_orders_on_a_line_refused_at_the_real_line_fi")
    output, answers = _ingest(world, tmp_path, monkeypatch, reply_bytes(fx, world.notice))
    [(kind, _recipient, msg)] = answers
    text = plain_text(msg)
    assert kind == "refusal" and "order refused: line 2" in msg["Subject"]
    assert "  1. build farm E6\n" in text.replace("\r\n", "\n")
    assert "  2. build farm Q9    <== REFUSED" in text
    assert "(ignored, not orders: Moi,)" in text
