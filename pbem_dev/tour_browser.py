"""The page tour (:mod:`pbem.web.tour`) on a running pbem, for a browser:
``running_tour(folder)`` builds an app on embedded defaults in ``folder``
(SQLite, tasks in-process, mail left in the outbox), stages the tour and
serves it on a free 127.0.0.1 port; ``open_as`` gives a signed-in
Playwright page at a width. Used by the chromium tests and
``pbem dev screenshots``. Playwright is imported by the caller.
"""
from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem.web.tour import PLAYERS, Stop, other_pages, stage

#: Debian's chromium; never a browser downloaded by playwright
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@dataclass
class Tour:
    """A served tour: ``base`` URL, the ``app``, the order-page ``stops``
    and the ``pages`` (name -> (email signed in or None, path))."""

    base: str
    app: Any
    stops: list[Stop]
    pages: dict[str, tuple[str | None, str]]

    def signin_link(self, email: str) -> str:
        """A new sign-in link of the player with ``email`` (each is single-use)."""
        from sqlalchemy import select

        from pbem.service.core import links
        from pbem.service.core.db import db
        from pbem.service.core.models import Player

        with self.app.app_context():
            pid = db.session.execute(select(Player.id).where(Player.email == email)).scalar_one()
            return links.signin_url(pid, "/")

    def everything(self) -> dict[str, tuple[str | None, str]]:
        """Every page of the tour: the order page of each stop (as the seat
        that owes the decision), then the others."""
        out = {f"order-{s.name}": (s.email, s.path) for s in self.stops}
        out.update(self.pages)
        return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_tour(folder: Path, *, seeds: tuple[int, ...] = (7,)) -> Iterator[Tour]:
    """Build, stage and serve the tour in ``folder`` (created); stops the
    server on exit."""
    from werkzeug.serving import make_server

    from pbem.service.core.db import db
    from pbem.web import create_app
    from pbem.web.extensions import limiter

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    was_enabled = limiter.enabled
    app = create_app({
        "INSTANCE_PATH": str(folder / "instance"), "SECRET_KEY": "tour-secret",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'tour.sqlite'}",
        "BROKER_URL": f"sqla+sqlite:///{folder / 'broker.sqlite'}", "CELERY_EAGER": True,
        "DELIVER_AFTER_COMMIT": False, "INBOUND_ADDRESS": "play@pbem.test",
        "MAIL_FROM": "pbem <pbem@pbem.test>", "BASE_URL": base, "SMTP_PORT": 1,
        "RATELIMIT_ENABLED": False,
    })
    app.extensions["celery"].conf.task_always_eager = True
    with app.app_context():
        db.create_all()
        stops = stage(seeds=seeds)
        pages = other_pages(stops)
        db.session.remove()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Tour(base, app, stops, pages)
    finally:
        server.shutdown()
        thread.join(10)
        limiter.enabled = was_enabled
        with app.app_context():
            db.engine.dispose()


def open_as(browser, tour: Tour, email: str | None, width: int, height: int = 900, **context_options):
    """A new page (its own cookies) ``width`` CSS pixels wide, signed in as
    ``email`` through a sign-in link (None: a visitor). ``context_options``
    go to Playwright's ``new_context`` (``bypass_csp=True`` to inject a
    test script such as axe-core)."""
    context = browser.new_context(viewport={"width": width, "height": height}, **context_options)
    page = context.new_page()
    page.set_default_timeout(15000)
    if email is not None:
        page.goto(tour.signin_link(email))
        page.click("#continue")
        page.wait_for_load_state()
    return page


def overflow(page) -> dict[str, int]:
    """The page's widths: ``scroll`` (whole document) and ``client`` (the
    viewport); ``scroll > client`` means the page scrolls sideways."""
    return page.evaluate("() => ({scroll: document.documentElement.scrollWidth,"
                         " client: document.documentElement.clientWidth})")


def widest(page, limit: int = 5) -> list[str]:
    """The elements reaching furthest right, for a failure message."""
    return page.evaluate("""(limit) => {
      const w = document.documentElement.clientWidth, out = [];
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right > w + 1) out.push([r.right, el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
          (el.className && el.className.baseVal === undefined ? '.' + String(el.className).split(' ').join('.') : '')]);
      }
      out.sort((a, b) => b[0] - a[0]);
      return out.slice(0, limit).map(x => Math.round(x[0]) + ' ' + x[1]);
    }""", limit)


__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "PLAYERS", "Tour", "running_tour", "open_as", "overflow", "widest"]
