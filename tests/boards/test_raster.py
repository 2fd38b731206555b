"""The layered board PNG for mail (pbem.boards.raster): the same picture as
resvg on the whole SVG, from a static layer cached under the right key, and
the same bytes whatever was drawn before."""
from __future__ import annotations

import hashlib
import io
import random
import re

import pytest

PIL = pytest.importorskip("PIL")
from PIL import Image, ImageChops, ImageStat  # noqa: E402

from pbem.boards import lacitta, medina, raster, render_png, render_svg, svg_to_png  # noqa: E402
from pbem.engine import get_game  # noqa: E402


def position(game: str, seats: int, moves: int, seed: int):
    """(view, highlight) of the seat to move after ``moves`` random legal
    decisions of a seeded game, as a turn notice shows it."""
    g = get_game(game)
    rng = random.Random(seed)
    state = g.new_state(seats, seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        cur = state.current_seats()
        seat = cur[0] if len(cur) == 1 else rng.choice(cur)
        acts = state.legal_actions(seat)
        state.apply(seat, acts[rng.randrange(len(acts))])
    if state.is_terminal():
        return state.view(0), []
    seat = state.current_seats()[0]
    return state.view(seat), [a.site for a in state.legal_actions(seat) if a.site]


POSITIONS = [("lacitta", 3, 30, 1), ("lacitta", 3, 90, 2), ("lacitta", 5, 60, 3), ("lacitta", 5, 140, 4),
             ("lacitta", 2, 45, 5), ("medina", 3, 40, 6), ("medina", 4, 80, 7), ("medina", 4, 125, 8)]


@pytest.fixture
def fresh_caches(monkeypatch):
    monkeypatch.setattr(raster, "_static", type(raster._static)())
    monkeypatch.setattr(raster, "_tiles", type(raster._tiles)())
    monkeypatch.setattr(raster, "_tile_pixels", 0)


def full(game, view, hl) -> Image.Image:
    return Image.open(io.BytesIO(svg_to_png(render_svg(game, view, highlight=hl)))).convert("RGB")


def differences(a: Image.Image, b: Image.Image, block: int = 24) -> tuple[float, float]:
    """(largest mean absolute difference of a channel over the picture,
    largest mean absolute difference over any ``block``-pixel square)."""
    assert a.size == b.size
    d = ImageChops.difference(a, b).convert("L")
    worst = 0.0
    for y in range(0, a.height, block):
        for x in range(0, a.width, block):
            worst = max(worst, ImageStat.Stat(d.crop((x, y, x + block, y + block))).mean[0])
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean), worst


@pytest.mark.parametrize("game,seats,moves,seed", POSITIONS)
def test_the_layered_picture_is_the_full_rendering(fresh_caches, game, seats, moves, seed):
    view, hl = position(game, seats, moves, seed)
    module = {"lacitta": lacitta, "medina": medina}[game]
    reference = full(game, view, hl)
    composed = raster.composite(module.layers(view, hl))
    mean, block = differences(reference, composed)
    assert mean < 0.5 and block < 8, (mean, block)   # anti-aliased edges drawn twice, nothing more
    mailed = Image.open(io.BytesIO(render_png(game, view, highlight=hl))).convert("RGB")
    mean, block = differences(reference, mailed)
    assert mean < 2 and block < 12, (mean, block)    # plus the 256-colour palette


@pytest.mark.parametrize("game,seats,moves,seed", POSITIONS[:3] + POSITIONS[-2:])
def test_every_tile_is_drawn_from_what_the_web_svg_shows(game, seats, moves, seed):
    """Privacy: the picture carries nothing the seat's own board SVG does not
    (every line of every tile is in it), and the static layer nothing of the
    seats at all."""
    view, hl = position(game, seats, moves, seed)
    module = {"lacitta": lacitta, "medina": medina}[game]
    svg = render_svg(game, view, highlight=hl)
    layers = module.layers(view, hl)
    assert layers.tiles
    for tile in layers.tiles:
        if isinstance(tile, raster.Crop):   # cut from a static variant, checked below
            assert tile.variant in layers.variants
            continue
        for line in tile.svg.split("\n"):
            assert line in svg
    static = layers.static_svg()
    for p in view.get("players") or []:
        if p.get("name"):
            assert p["name"] not in static
            assert all(p["name"] not in v() for v in layers.variants.values())
    assert not re.search(r'class="[^"]*\blegal\b', static)   # no site highlighted
    bare = module.layers(dict(view, buildings=[], cities=[], palaces=[], merchants=[], walls={}, last_sites=[]), [])
    assert bare.static_key == layers.static_key       # pieces and highlights are not in it
    assert bare.static_svg() == static
    assert {n: v() for n, v in bare.variants.items()} == {n: v() for n, v in layers.variants.items()}


def test_the_static_layer_is_keyed_by_seat_count_and_landscape(fresh_caches):
    three, _ = position("lacitta", 3, 10, 1)
    five, _ = position("lacitta", 5, 10, 1)
    k3, k5 = lacitta.layers(three).static_key, lacitta.layers(five).static_key
    assert k3 != k5
    assert lacitta.layers(three).static_svg() != lacitta.layers(five).static_svg()   # sites left out with 3
    slot, code = sorted(three["landscape"].items())[0]
    other = dict(three, landscape=dict(three["landscape"], **{slot: "M" if code != "M" else "L"}))
    assert lacitta.layers(other).static_key != k3
    assert lacitta.layers(other).static_svg() != lacitta.layers(three).static_svg()
    # the same key draws the same static layer whatever else the views hold
    later, hl = position("lacitta", 3, 60, 1)
    if lacitta.layers(later).static_key == k3:
        assert lacitta.layers(later, hl).static_svg() == lacitta.layers(three).static_svg()


def test_boards_of_different_player_counts_never_share_a_base(fresh_caches):
    """Drawn one after another in one process, each is still its own full picture."""
    cases = [position("lacitta", n, 40, n) for n in (5, 3, 2, 4)] + [position("lacitta", 5, 41, 5)]
    for view, hl in cases:
        mailed = Image.open(io.BytesIO(render_png("lacitta", view, highlight=hl))).convert("RGB")
        mean, block = differences(full("lacitta", view, hl), mailed)
        assert mean < 2 and block < 12
    # 2, 3, 4 and 5 seats (a base, and its variant with every site legal);
    # the second 5-seat board reused its base
    assert len({(game, key) for game, key, _, _ in raster._static}) == 4


def test_the_same_board_is_the_same_bytes_whatever_was_drawn_before(fresh_caches):
    cases = [position("lacitta", 4, m, 9) for m in (20, 50, 80)] + [position("medina", 3, m, 9) for m in (30, 60)]
    games = ["lacitta"] * 3 + ["medina"] * 2

    def digests(order, cold):
        out = {}
        for i in order:
            if cold:
                raster._tiles.clear()
                raster._tile_pixels = 0
            view, hl = cases[i]
            out[i] = hashlib.sha256(render_png(games[i], view, highlight=hl)).hexdigest()
        return out

    alone = digests(range(len(cases)), cold=True)
    assert digests(range(len(cases)), cold=False) == alone
    assert digests(reversed(range(len(cases))), cold=False) == alone
    assert digests(range(len(cases)), cold=False) == alone   # all tiles cached now


def test_a_tile_is_the_same_pixels_wherever_it_lands_in_the_atlas(fresh_caches):
    view, hl = position("lacitta", 5, 100, 3)
    layers = lacitta.layers(view, hl)
    size = raster.static_raster(layers, 900).size
    together = raster.dynamic_tiles(layers, 900, size)
    for i in (0, len(layers.tiles) // 2, len(layers.tiles) - 1):
        raster._tiles.clear()
        alone = raster.dynamic_tiles(type(layers)(**{**layers.__dict__, "tiles": (layers.tiles[i],)}), 900, size)
        assert alone[0][1] == together[i][1]
        assert alone[0][0].tobytes() == together[i][0].tobytes()


def test_render_png_checks_its_width_and_game():
    with pytest.raises(ValueError):
        render_png("lacitta", {}, width=0)
    with pytest.raises(KeyError):
        render_png("no_such_game", {})
    with pytest.raises(KeyError):
        render_png("raster", {})


def test_an_empty_view_draws():
    for game in ("lacitta", "medina"):
        png = render_png(game, {})
        assert png.startswith(b"\x89PNG") and Image.open(io.BytesIO(png)).size[0] == 900


def test_the_picture_key_names_the_picture():
    from pbem.boards import picture_key

    view, hl = position("lacitta", 4, 50, 3)
    key = picture_key("lacitta", view, highlight=hl)
    assert picture_key("lacitta", dict(view, private={"note": "not drawn"}), highlight=hl) == key
    sites = sorted(set(hl))
    assert sites
    assert picture_key("lacitta", view, highlight=sites[1:]) != key
    assert picture_key("lacitta", view, highlight=hl, width=600) != key
    later, _ = position("lacitta", 4, 51, 3)
    assert picture_key("lacitta", later, highlight=hl) != key
    assert picture_key("medina", {}) != picture_key("medina", {}, highlight=["E5"])


@pytest.mark.parametrize("kind", ["lacitta", "medina"])
def test_a_region_of_the_composite_is_the_whole_picture_cropped(kind):
    """composite(region=...) draws only the tiles meeting the region (a
    close-up), and its pixels are exactly the whole picture's there."""
    import math
    import random

    from pbem.boards import closeup, raster, render_svg
    from pbem.engine import get_game

    for seed in range(3):
        state, rng = get_game(kind).new_state(3, seed), random.Random(seed)
        for _ in range(30):
            seat = state.current_seats()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = state.current_seats()[0]
        legal = [a.site for a in state.legal_actions(seat) if a.site]
        view = state.view(seat)
        layers = raster._layers(kind, view, legal, "en")
        found = closeup.window(render_svg(kind, view, highlight=legal), legal)
        box = found[0] if found else (0, 0, layers.width / 3, layers.height / 3)
        width = round(630 * layers.width / (box[2] - box[0]))
        whole = raster.composite(layers, width)
        scale = whole.width / math.floor(layers.width + 0.5)
        region = (round(box[0] * scale), round(box[1] * scale),
                  min(whole.width, round(box[2] * scale)), min(whole.height, round(box[3] * scale)))
        part = raster.composite(layers, width, region)
        assert part.size == (region[2] - region[0], region[3] - region[1])
        assert part.tobytes() == whole.crop(region).tobytes()
