"""The whole path in Debian's chromium: an invited player signs in from the
link in the emailed invitation and joins; the first seat signs in from the
link in its emailed turn notice, picks an order by clicking the board,
confirms it, and the next seat's turn notice arrives in the mail sink.

Runs the real app on a free port (a werkzeug server thread) with the local
SMTP sink; tasks run in-process, mail goes over SMTP to the sink.
"""
from __future__ import annotations

import os
import re
import threading
import time
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from pbem.mail.flowed import plain_text

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
SHOTS = os.environ.get("PBEM_SCREENSHOTS")  # a folder to keep screenshots of each page in


def _need_chromium():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing in CI (scripts/test.sh installs Debian's chromium)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); never downloaded by playwright")
    return pytest.importorskip("playwright.sync_api")


@pytest.fixture
def site(tmp_path):
    """(base URL, mail directory, app) of a running pbem with a mail sink."""
    from werkzeug.serving import make_server

    from pbem.mail.sink import MailSink, free_port
    from pbem.service.core.db import db
    from pbem.web import create_app

    mail_dir = tmp_path / "mail"
    sink = MailSink(mail_dir, port=0).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = create_app({
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "browser-test-secret",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'pbem.sqlite'}",
        "BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}",
        "CELERY_EAGER": True,
        "SMTP_HOST": "127.0.0.1", "SMTP_PORT": sink.port,
        "INBOUND_ADDRESS": "play@pbem.test", "MAIL_FROM": "pbem <pbem@pbem.test>",
        "BASE_URL": base, "MAIL_SINK_DIR": str(mail_dir),
        # the tests follow each turn notice as it is written (the live-play
        # grace: tests/service/test_live_play.py)
        "NOTICE_GRACE_SECONDS": 0,
    })
    app.extensions["celery"].conf.task_always_eager = True
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base, mail_dir, app
    finally:
        server.shutdown()
        thread.join(10)
        sink.stop()
        with app.app_context():
            db.engine.dispose()


def _mails(mail_dir, to: str, subject_has: str = "") -> list:
    from pbem.mail.sink import list_messages, read_message

    out = []
    for rec in list_messages(mail_dir, recipient=to):
        if subject_has in rec.subject:
            out.append(message_from_bytes(read_message(mail_dir, rec.id), policy=policy.default))
    return out


def _wait_mail(mail_dir, to: str, subject_has: str, timeout: float = 15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = _mails(mail_dir, to, subject_has)
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no mail to {to} with {subject_has!r} in the subject")


def _link(msg, base: str) -> str:
    text = plain_text(msg)
    match = re.search(re.escape(base) + r"/signin/[A-Za-z0-9_.\-]+", text)
    assert match, text
    return match.group(0)


def _open_link(browser, msg, base: str):
    """A new browser page (its own cookies) on the sign-in link of ``msg``."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(15000)
    page.goto(_link(msg, base))
    return page


def _order_page_from_notice(browser, notice, base: str, gid: int, number: int):
    """Follow a turn notice's sign-in link (Continue) to seat ``number``'s
    order page, board shown."""
    page = _open_link(browser, notice, base)
    page.click("#continue")
    page.wait_for_url(f"{base}/games/{gid}/seat/{number}")
    assert page.locator("#board svg").count() == 1
    return page


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_sign_in_from_mail_join_order_by_clicking_the_board_next_seat_notified(site):
    sync_api = _need_chromium()
    base, mail_dir, app = site
    from pbem.service.play.lifecycle import create_game, join_game

    with app.app_context():
        game = create_game("lacitta", "ada@example.org",
                           [("Ada", "ada@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")],
                           options={"setup": "beginner"}, seed=11)
        gid = game.id

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            # Bo: the invitation's link signs in and lands on the join page
            invite = _wait_mail(mail_dir, "bo@example.org", "")
            bo = _open_link(browser, invite, base)
            _shot(bo, "1-signin")
            bo.click("#continue")
            assert bo.url.endswith(f"/games/{gid}/join/2")
            _shot(bo, "2-join")
            bo.click("#join")
            bo.wait_for_url(f"{base}/games/{gid}")

            with app.app_context():
                join_game(gid, 2)  # Cy joins too: the game starts, seat 1 gets its turn notice

            # Ada: the turn notice's link leads to the order page
            notice = _wait_mail(mail_dir, "ada@example.org", "")  # the host gets no invitation
            ada = _order_page_from_notice(browser, notice, base, gid, 1)
            _shot(ada, "3-order")

            # choose "build farm", then click one of its highlighted sites
            ada.select_option("#order-label", "build farm")
            legal = ada.eval_on_selector_all("#board .site.legal", "els => els.map(e => e.dataset.site)")
            assert legal, "no site highlighted for build farm"
            ada.locator(f'#board .site.legal[data-site="{legal[0]}"]').click(force=True)
            assert ada.input_value("#order-text") == f"build farm {legal[0]}"
            _shot(ada, "4-picked")
            ada.click("#review")
            assert ada.locator("code.order").inner_text() == f"build farm {legal[0]}"
            _shot(ada, "5-confirm")
            assert ada.locator(f'.confirm-board .site.legal[data-site="{legal[0]}"]').count() == 1
            before = {m["Message-ID"] for m in _mails(mail_dir, "bo@example.org")}
            ada.click("#confirm")
            ada.wait_for_url(f"{base}/games/{gid}/seat/1")
            assert "Not your move now" in ada.content()
            _shot(ada, "6-sent")

            # Bo's turn notice is in the sink, and his page now offers him the move
            end = time.monotonic() + 15
            fresh = []
            while time.monotonic() < end and not fresh:
                fresh = [m for m in _mails(mail_dir, "bo@example.org") if m["Message-ID"] not in before]
                time.sleep(0.1)
            assert fresh, "seat 2 was not notified"
            body = plain_text(fresh[0])
            assert f"farm at {legal[0]}" in body  # what happened since Bo's last move
            assert f"/games/{gid}/seat/2" in body or "/signin/" in body
            bo.goto(f"{base}/games/{gid}/seat/2")
            assert bo.locator("#order-form").count() == 1
            _shot(bo, "7-next-seat")

            # the public game page: the replay goes back a step with the link and with the slider
            bo.goto(f"{base}/games/{gid}")
            last = int(bo.get_attribute("#step", "max"))
            bo.click("#prev")
            bo.wait_for_url(re.compile(rf".*step={last - 1}.*"))
            assert "Replay: after step" in bo.inner_text("#replay h2")
            bo.eval_on_selector("#step", "el => { el.value = el.min; el.dispatchEvent(new Event('change')); }")
            bo.wait_for_url(re.compile(r".*step=0.*"))
            assert bo.locator("#replay svg").count() == 1
            _shot(bo, "8-replay")
        finally:
            browser.close()
