"""Board pictures: a game's view dict -> SVG text -> PNG bytes.

``render_svg(game, view, highlight=...)`` dispatches to the module the game
declares (``Game.board``, e.g. ``"pbem.boards.lacitta"``; it has
``render_svg(view, highlight)``), so a new game needs only its own module and
nothing here names a game. Every board marks each site with
``class="site"`` and ``data-site="F7"``; highlighted sites also carry class
``legal``. ``svg_to_png`` renders with the font shipped in
``pbem/boards/fonts/`` so an emailed picture looks the same everywhere.
``render_png(game, view, highlight=...)`` is the fast path for mail: the
same picture from a cached static layer and small dynamic tiles (a board
module's ``layers``; see :mod:`pbem.boards.raster`).

The web page inlines the SVG and uses ``pbem/boards/static/board.js`` (see its
header) to let the player pick a legal order by clicking a site;
``picker_orders(actions)`` gives the order list that script takes.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any, Callable, Iterable

from pbem.boards.png import svg_to_png  # noqa: F401  (re-exported)
from pbem.boards.words import Msg, with_names

STATIC_DIR = Path(__file__).resolve().parent / "static"

#: "Seat 2", "seat 2" as engines write a seat in phase and event texts
SEAT_WORD = re.compile(r"\b([Ss])eat (\d{1,2})\b")

def board_module(game: str):
    """The module drawing ``game``'s board: the one its
    :class:`~pbem.engine.api.Game` declares as ``board``.

    Raises ``KeyError`` for an unknown game or one that declares no board
    picture (callers then show the text view only). A declared module that
    is missing, or lacks ``render_svg``, is a broken installation: that
    raises ``ImportError`` (never a quiet fall back to text).
    """
    from pbem.engine import get_game

    declared = get_game(game).board if isinstance(game, str) else None
    if declared is None:
        raise KeyError(f"no board picture for game {game!r}")
    module = importlib.import_module(declared)
    if not callable(getattr(module, "render_svg", None)):
        raise ImportError(f"board module {declared!r} of game {game!r} has no render_svg")
    return module


def render_svg(game: str, view: dict[str, Any], *, highlight: Iterable[str] = (), lang: str = "en") -> str:
    """The board of ``game`` as SVG text, drawn from ``view``
    (``State.view(seat)``, or :func:`named_view` of it), with the sites in
    ``highlight`` (site names as ``Action.site`` gives them, ``"F7"``)
    marked as legal choices and every word in ``lang``
    (:mod:`pbem.boards.words`).

    Raises ``KeyError`` for a game without a board picture.
    """
    sites = tuple(dict.fromkeys(s for s in highlight if s))
    return board_module(game).render_svg(view, sites, lang=lang)


def named_view(view: dict[str, Any], names: dict[int, str], lang: str | None = None) -> dict[str, Any]:
    """A copy of ``view`` whose ``players`` carry each seat's ``name``
    (``names``: seat index -> the player's name), which every board prints
    in the seat's colour instead of "Seat 2", and whose ``phase`` names
    them too ("Seat 2" -> "Bruno"); the view itself is untouched. Seats
    without a (non-empty) name keep what the view has.

    An engine's phase (a ``Msg``) gets the names as its seat words (so it
    still translates whole); with ``lang`` it is then translated, and a
    seat the message's own text names ("Setup: seat 1 places ...") is
    named too, as far as the text still says "seat 1"."""
    players = []
    for p in view.get("players") or []:
        p = dict(p)
        if names.get(p.get("seat")):
            p["name"] = names[p["seat"]]
        players.append(p)
    phase = view.get("phase")
    if isinstance(phase, Msg):      # an engine's message: the names go in as its seats' words
        phase = with_names(phase, names)
        if lang is not None:
            from pbem.i18n import translate

            phase = translate(phase, lang)
    if isinstance(phase, str) and not isinstance(phase, Msg):
        phase = SEAT_WORD.sub(lambda m: names.get(int(m.group(2)) - 1) or m.group(0), phase)
    return {**view, "players": players, **({"phase": phase} if "phase" in view else {})}


def picker_orders(actions: Iterable[Any], say: Callable[[Any], str] = str) -> list[dict[str, Any]]:
    """Legal actions (``State.legal_actions(seat)``) as the list ``board.js``
    takes: ``[{"label": "build farm", "site": "F7", "text": "build farm F7"}]``,
    in the engine's order, without duplicate texts. An action with
    ``steps`` (:attr:`pbem.engine.api.Action.steps`) also carries them as
    ``"steps": [[question, answer], ...]``, each text passed through ``say``
    (the page's translation), and one with a ``mark`` (a compass point of
    its site) as ``"mark": "NE"``. JSON-serialisable."""
    seen: set[str] = set()
    out: list[dict[str, Any]] = []
    for a in actions:
        text = a.to_text()
        if text in seen:
            continue
        seen.add(text)
        order: dict[str, Any] = {"label": a.label, "site": a.site or None, "text": text}
        steps = getattr(a, "steps", ())
        if steps:
            order["steps"] = [[say(q), say(ans)] for q, ans in steps]
        if getattr(a, "mark", None):
            order["mark"] = a.mark
        out.append(order)
    return out


def render_png(game: str, view: dict[str, Any], *, highlight: Iterable[str] = (), **kw: Any) -> bytes:
    """:func:`pbem.boards.raster.render_png` (imported on first use: the web
    page needs no imaging library)."""
    from pbem.boards import raster

    return raster.render_png(game, view, highlight=highlight, **kw)


def picture_key(game: str, view: dict[str, Any], *, highlight: Iterable[str] = (), **kw: Any) -> bytes:
    """:func:`pbem.boards.raster.picture_key` (imported on first use)."""
    from pbem.boards import raster

    return raster.picture_key(game, view, highlight=highlight, **kw)


#: seat colours of a game whose board module names none
DEFAULT_SEAT_COLOURS = ("#d0312d", "#2a62c9", "#2e9a48", "#e9b308", "#8e44ad")


def seat_colours(game: str, view: dict[str, Any]) -> list[str]:
    """The colour of each seat (``#rrggbb``, index = seat) as the board of
    ``game`` draws it, so pages name seats in the same colours; the board
    module's ``seat_colours(view)``, else a default palette."""
    seats = int(view.get("seats") or len(view.get("players") or ()) or 0)
    try:
        fn = getattr(board_module(game), "seat_colours", None)
    except KeyError:
        fn = None
    colours = list(fn(view)) if fn is not None else []
    return [colours[i] if i < len(colours) else DEFAULT_SEAT_COLOURS[i % len(DEFAULT_SEAT_COLOURS)]
            for i in range(seats)]
