"""CPU per emailed board picture: full resvg rendering vs the layered path.

Run: ``.venv/bin/python -m pbem_dev.bench.pictures [--n 20] [--seed 1] [--game diestadt]``
(``--game``, repeatable: only that game's cases, and no interleaved run)

For each case (game, seats, how far into a seeded random game) it prints
medians of ``time.process_time()`` (CPU of this process, steady on a shared
machine) in ms per picture, and PNG sizes:

- ``svg``: ``render_svg(...)`` alone (the web page's picture);
- ``full``: ``svg_to_png(render_svg(...))`` (the old path, RGB PNG by resvg);
- ``cold``: ``raster.render_png`` with the static layer cached but no tile
  cached (a worker that has not drawn this game yet);
- ``turns``: ``raster.render_png`` for the notices of ``n`` consecutive
  decisions of the game, each to the seat that moves next with its legal
  sites highlighted, tile cache as the previous notices left it (a worker
  that mails every turn of the game);
- ``static``: drawing the static layer once (a new process, or a landscape
  not drawn before);
- ``mad``: mean absolute difference per channel of the layered picture from
  the full rendering (0-255).

Then ``interleaved``: notices of 12 La Città games (3-5 seats) and 6 Medina
games, mid-game, round-robin (each game's next decision in turn) through one
process with the default cache sizes: a worker mailing many games at once.
"""
from __future__ import annotations

import argparse
import io
import random
import statistics
import time

from PIL import Image, ImageChops, ImageStat

from pbem.boards import raster, render_svg, svg_to_png
from pbem.engine import get_game

CASES = [("lacitta", 3, 0.5), ("lacitta", 3, 0.9), ("lacitta", 5, 0.5), ("lacitta", 5, 0.9), ("medina", 4, 0.5),
         ("medina", 4, 0.9), ("diestadt", 3, 0.5), ("diestadt", 4, 0.9)]


def notices(name: str, seats: int, at: float, count: int, seed: int):
    """``count`` (view, highlight) pairs for consecutive decisions from
    fraction ``at`` of a random game (seeded), as a turn notice shows them."""
    game = get_game(name)

    def play(limit):
        rng = random.Random(seed)
        state, k = game.new_state(seats, seed), 0
        while not state.is_terminal() and k < limit:
            cur = state.current_seats()
            seat = cur[0] if len(cur) == 1 else rng.choice(cur)
            acts = state.legal_actions(seat)
            yield state, seat, acts
            state.apply(seat, acts[rng.randrange(len(acts))])
            k += 1

    length = sum(1 for _ in play(10**6))
    start = max(0, min(int(length * at), length - count))
    out = []
    for k, (state, seat, acts) in enumerate(play(start + count)):
        if k >= start:
            out.append((state.view(seat), [a.site for a in acts if a.site]))
    return out


def cpu_ms(fn, *args, **kw) -> tuple[float, object]:
    t0 = time.process_time()
    out = fn(*args, **kw)
    return (time.process_time() - t0) * 1000, out


def clear_tiles() -> None:
    with raster._lock:
        raster._tiles.clear()
        raster._tile_pixels = 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="pictures per figure (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", help="only this game's cases (repeatable)")
    args = ap.parse_args()
    print(f"{'case':<22}{'svg ms':>8}{'full ms':>9}{'cold ms':>9}{'turns ms':>10}{'static ms':>11}"
          f"{'full KB':>9}{'new KB':>8}{'mad':>6}")
    for name, seats, at in CASES:
        if args.game and name not in args.game:
            continue
        shown = notices(name, seats, at, args.n, args.seed)
        svg_ms, full, cold, turns, kb_full, kb_new, mad = [], [], [], [], [], [], []
        raster._static.clear()
        static_ms, _ = cpu_ms(raster.render_png, name, *shown[0][:1], highlight=shown[0][1])
        for view, hl in shown:
            svg_ms.append(cpu_ms(render_svg, name, view, highlight=hl)[0])
            ms, png = cpu_ms(lambda: svg_to_png(render_svg(name, view, highlight=hl)))
            full.append(ms)
            kb_full.append(len(png) / 1024)
            clear_tiles()
            ms, new = cpu_ms(raster.render_png, name, view, highlight=hl)
            cold.append(ms)
            kb_new.append(len(new) / 1024)
            a = Image.open(io.BytesIO(png)).convert("RGB")
            b = Image.open(io.BytesIO(new)).convert("RGB")
            mad.append(max(ImageStat.Stat(ImageChops.difference(a, b)).mean))
        clear_tiles()
        raster.render_png(name, shown[0][0], highlight=shown[0][1])   # the notice before the first
        for view, hl in shown[1:]:
            ms, _ = cpu_ms(raster.render_png, name, view, highlight=hl)
            turns.append(ms)
        med = statistics.median
        print(f"{f'{name} {seats} seats {int(at * 100)}%':<22}{med(svg_ms):>8.1f}{med(full):>9.1f}{med(cold):>9.1f}{med(turns):>10.1f}"
              f"{static_ms:>11.1f}{med(kb_full):>9.0f}{med(kb_new):>8.0f}{med(mad):>6.2f}")
    if not args.game:
        interleaved(args.n, args.seed)


def interleaved(n: int, seed: int) -> None:
    games = [("lacitta", 3 + g % 3, seed + g) for g in range(12)] + [("medina", 3 + g % 2, seed + g) for g in range(6)]
    per_game = max(2, n // 4)
    streams = [(name, notices(name, seats, 0.5, per_game, s)) for name, seats, s in games]
    raster._static.clear()
    clear_tiles()
    for name, shown in streams:   # first notices: static layers drawn, tiles cached
        raster.render_png(name, shown[0][0], highlight=shown[0][1])
    times = {"lacitta": [], "medina": []}
    for k in range(1, per_game):
        for name, shown in streams:
            ms, _ = cpu_ms(raster.render_png, name, shown[k][0], highlight=shown[k][1])
            times[name].append(ms)
    for name, ts in times.items():
        print(f"interleaved {name}: {statistics.median(ts):.1f} ms median, {max(ts):.1f} ms max over {len(ts)} "
              f"pictures ({len(streams)} games round-robin)")


if __name__ == "__main__":
    main()
