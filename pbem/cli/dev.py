"""``pbem dev``: tools for developers and reviewers.

``pbem dev screenshots OUT_DIR``: the page tour (:mod:`pbem.web.tour`) in
Debian's chromium, a full-page PNG of the order page of every kind of
decision of every game at 1280 and 375 px (``--all`` adds every other
page), so a reviewer sees the whole game at a glance.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import click


@click.group()
def dev() -> None:
    """Developer tools."""


@dev.command()
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--width", "widths", type=int, multiple=True, default=(1280, 375), show_default=True,
              help="viewport widths in CSS pixels")
@click.option("--all", "everything", is_flag=True, help="every page of the tour, not only the order pages")
@click.option("--lang", default="en", show_default=True,
              help="the browser's language (Accept-Language): the players' pages speak it from their first sign-in")
def screenshots(out_dir: Path, widths: tuple[int, ...], everything: bool, lang: str) -> None:
    """Write <page>-<width>.png into OUT_DIR."""
    from pbem_dev.tour_browser import CHROMIUM, CHROMIUM_ARGS, open_as, overflow, running_tour

    if not Path(CHROMIUM).exists():
        raise click.ClickException(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, running_tour(Path(tmp)) as tour:
        pages = tour.everything() if everything else {
            f"order-{s.name}": (s.email, s.path) for s in tour.stops}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for width in widths:
                    readers: dict[str | None, object] = {}
                    for name, (email, path) in pages.items():
                        if email not in readers:
                            readers[email] = open_as(browser, tour, email, width, locale=lang)
                        page = readers[email]
                        page.goto(tour.base + path)
                        target = out_dir / f"{name}-{width}.png"
                        page.screenshot(path=str(target), full_page=True)
                        size = overflow(page)
                        wide = " SCROLLS SIDEWAYS" if size["scroll"] > size["client"] else ""
                        if wide:   # name the widest elements that reach past the screen's edge
                            wide += ": " + ", ".join(page.evaluate(_PAST_THE_EDGE))
                        click.echo(f"{target}{wide}")
            finally:
                browser.close()


#: the page's elements that reach past the viewport's right edge, the widest
#: three as tag.class#id (for the screenshots' SCROLLS SIDEWAYS)
_PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .filter(e => !e.parentElement || e.parentElement.getBoundingClientRect().right
               <= document.documentElement.clientWidth + 1)
  .sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width).slice(0, 3)
  .map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string'
       ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + (e.id ? '#' + e.id : ''))"""


@dev.command("fuzz-api")
@click.option("--examples", type=int, default=300, show_default=True,
              help="generated requests per API operation (the test suite runs 20)")
def fuzz_api(examples: int) -> None:
    """The API fuzzing of the test suite (schemathesis against
    /api/openapi.json with a valid token, the leak oracle on every answer;
    tests/api/test_fuzz_api.py), run longer. Needs a checkout with tests/."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    test = root / "tests" / "api" / "test_fuzz_api.py"
    if not test.exists():
        raise click.ClickException(f"{test} is missing: run this from a checkout of pbem")
    env = dict(os.environ, PBEM_FUZZ_EXAMPLES=str(examples))
    raise SystemExit(subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", str(test)],
                                     cwd=root, env=env))
