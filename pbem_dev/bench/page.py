"""``pbem bench page``: the weight and render time of the order page.

On the embedded defaults (SQLite in a temporary folder, tasks in-process)
the page tour (:mod:`pbem.web.tour`) stages a game at every kind of
decision of every game; for each, the seat that owes it opens its order
page. Reported per page:

- ``html``: the page's bytes, ``board``: the inline board SVG's bytes,
  ``page w/o board``: the page without the board plus every stylesheet and
  script it loads (first visit, nothing cached, no compression), and the
  same gzipped (what a compressing proxy would send);
- ``render``: the server's time to answer the GET (median and worst of
  ``--repeat`` requests through the WSGI app, no network);
- with ``--browser``: chromium's time from navigation start to the load
  event (median of ``--repeat`` loads, a local server).

The budget (issue 14): under 150 kB without the board, under 300 ms.
"""
from __future__ import annotations

import gzip
import re
import statistics
import tempfile
import time
from pathlib import Path

import click

BUDGET_BYTES = 150_000
BUDGET_MS = 300.0

_ASSET = re.compile(r'<(?:link[^>]+href|script[^>]+src)="(/assets/[^"]+)"')
_SVG = re.compile(r"<svg xmlns=.*?</svg>", re.S)


def measure(client, path: str, repeat: int) -> dict:
    """Bytes and server render times of ``path`` for a signed-in ``client``."""
    times = []
    html = ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        resp = client.get(path)
        times.append((time.perf_counter() - t0) * 1000)
        assert resp.status_code == 200, (path, resp.status_code)
        html = resp.get_data(as_text=True)
    board = sum(len(m.group(0).encode()) for m in _SVG.finditer(html))
    body = _SVG.sub("", html).encode()
    assets = b"".join(client.get(a).data for a in sorted(set(_ASSET.findall(html))))
    rest = body + assets
    return {"html": len(html.encode()), "board": board, "without_board": len(rest),
            "without_board_gzip": len(gzip.compress(rest)), "median_ms": statistics.median(times),
            "worst_ms": max(times)}


def _browser_ms(tour, email: str, path: str, repeat: int) -> float:
    from playwright.sync_api import sync_playwright

    from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, open_as

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = open_as(browser, tour, email, 1280)
            out = []
            for _ in range(repeat):
                page.goto(tour.base + path)
                out.append(page.evaluate(
                    "() => { const n = performance.getEntriesByType('navigation')[0];"
                    " return n.loadEventEnd - n.startTime; }"))
            return statistics.median(out)
        finally:
            browser.close()


@click.command("page")
@click.option("--repeat", type=int, default=20, show_default=True, help="requests per page")
@click.option("--browser", "in_browser", is_flag=True, help="also time the load in Debian's chromium")
def page(repeat: int, in_browser: bool) -> None:
    """Weight and render time of the order page at every kind of decision."""
    from pbem.service.core import links
    from pbem_dev.tour_browser import running_tour

    with tempfile.TemporaryDirectory() as tmp, running_tour(Path(tmp)) as tour:
        worst_bytes = worst_ms = 0.0
        clients = {}
        for stop in tour.stops:
            if stop.email not in clients:
                client = tour.app.test_client()
                with tour.app.app_context():
                    from sqlalchemy import select

                    from pbem.service.core.db import db
                    from pbem.service.core.models import Player

                    pid = db.session.execute(select(Player.id).where(Player.email == stop.email)).scalar_one()
                    link = links.signin_url(pid, "/").split("://", 1)[1].split("/", 1)[1]
                page_html = client.get("/" + link).get_data(as_text=True)
                token = re.search(r'name="csrf_token" value="([^"]+)"', page_html).group(1)
                client.post("/" + link, data={"csrf_token": token})
                clients[stop.email] = client
            m = measure(clients[stop.email], stop.path, repeat)
            extra = ""
            if in_browser:
                extra = f", chromium load {_browser_ms(tour, stop.email, stop.path, max(3, repeat // 4)):.0f} ms"
            click.echo(f"{stop.name:24} html {m['html'] / 1000:6.1f} kB (board {m['board'] / 1000:5.1f} kB), "
                       f"page w/o board {m['without_board'] / 1000:5.1f} kB (gzip {m['without_board_gzip'] / 1000:4.1f}), "
                       f"render median {m['median_ms']:5.1f} ms, worst {m['worst_ms']:5.1f} ms{extra}")
            worst_bytes = max(worst_bytes, m["without_board"])
            worst_ms = max(worst_ms, m["median_ms"])
        ok = worst_bytes < BUDGET_BYTES and worst_ms < BUDGET_MS
        click.echo(f"largest page w/o board {worst_bytes / 1000:.1f} kB (budget {BUDGET_BYTES / 1000:.0f}), "
                   f"slowest median render {worst_ms:.1f} ms (budget {BUDGET_MS:.0f}): "
                   f"{'within budget' if ok else 'OVER BUDGET'}")
