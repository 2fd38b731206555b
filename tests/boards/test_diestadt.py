"""The Carcassonne: Die Stadt city picture: one clickable site per placed
tile and per space the drawn tile may go on, exactly the highlighted sites
legal, every follower, guard, tower and the gate drawn in its seat's
colour, coordinates and the drawn tile's rotations printed, and the mailed
PNG the same picture as the SVG; for positions written in the engine's
position text and for random legal games."""
from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.boards import board_module, diestadt, raster, render_png, render_svg, svg_to_png
from pbem.boards.diestadt import art
from pbem.engine import get_game
from pbem.engine.diestadt.grid import COLUMNS
from tests.engine.diestadt.helpers import random_play
from pbem.engine.diestadt.position import load_position

PIL = pytest.importorskip("PIL")
from PIL import Image, ImageChops, ImageStat  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
GAME = get_game("diestadt")

# seat 1 to place tile 20; a fish, a cattle and a grain market, Chateau
# Comtal with seat 3's overseer, seat 2's citizen, seat 1's merchant; the
# gate with seat 2's guard, a piece each way, seat 3's guard, seat 1's tower
POSITION = """seats 3
tile T20 6 90
tile U20 11 270
tile T21 19 180 citizen S seat 2
tile S20 1 0 overseer N seat 3
tile S21 4 180 merchant S seat 1
gate T20 N guard seat 2
wall cw guard seat 3
wall ccw
tower cw seat 1
piles 0 20 20
turn seat 1 drawn 20
"""


def notice(state, seat=None):
    """(view, highlight) as a turn notice shows them to the seat deciding."""
    if state.is_terminal():
        return state.view(0), []
    seat = state.current_seats()[0] if seat is None else seat
    return state.view(seat), [a.site for a in state.legal_actions(seat) if a.site]


def random_state(seats: int, seed: int, moves: int):
    state = GAME.new_state(seats, seed)
    for state in random_play(seats, seed, moves):   # the same state, moved on after each yield
        pass
    return state


def site_groups(root: ET.Element) -> dict[str, ET.Element]:
    groups = [g for g in root.iter(f"{NS}g") if "site" in (g.get("class") or "").split()]
    names = [g.get("data-site") for g in groups]
    assert len(names) == len(set(names)), "a site drawn twice"
    return dict(zip(names, groups))


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{NS}text")]


def pieces(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if kind in classes(g) and "site" not in classes(g)]


def check_sites(view: dict, highlight: list[str]) -> ET.Element:
    """The invariants of every picture; returns the parsed SVG."""
    root = ET.fromstring(render_svg("diestadt", view, highlight=highlight))
    assert root.find(f"{NS}title") is not None and root.find(f"{NS}desc") is not None
    groups = site_groups(root)
    tiles = {t["space"] for t in view["tiles"]}
    spaces = set(view["legal_spaces"])
    assert tiles | spaces <= set(groups)
    extra = set(groups) - tiles - spaces - set(highlight)
    # edges and corners only when asked for; besides them, while a tile is
    # drawn, the empty spaces beside the city where it fits nowhere
    assert not extra or view.get("drawn"), extra
    for name in extra:
        assert "legal" not in classes(groups[name])
        x, y = COLUMNS.index(name.rstrip("0123456789")), int(name.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) - 1
        beside = {(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        assert beside & {(t["x"], t["y"]) for t in view["tiles"]}, name
    assert {n for n, g in groups.items() if "legal" in classes(g)} == set(highlight)
    for g in groups.values():
        assert g.find(f"{NS}title") is not None        # a text alternative per site
    return root


def test_the_game_declares_this_board():
    assert GAME.board == "pbem.boards.diestadt"
    assert board_module("diestadt") is diestadt


def test_a_position_draws_its_tiles_and_spaces_as_sites_with_the_legal_ones_marked():
    state = load_position(POSITION, GAME)
    view, hl = notice(state)
    assert set(hl) == set(view["legal_spaces"]) and hl
    root = check_sites(view, hl)
    groups = site_groups(root)
    # and north of the city, where the drawn tile fits nowhere: sites never legal
    nowhere = {"S19", "T19", "U19"}
    assert not nowhere & set(view["legal_spaces"])
    assert set(groups) == {"T20", "U20", "T21", "S20", "S21"} | set(view["legal_spaces"]) | nowhere
    after = {id(kids[k]): kids[k + 1] for parent in root.iter() for kids in [list(parent)]
             for k in range(len(kids) - 1)}
    for name, rots in view["legal_spaces"].items():
        # the name is the site's only text (its accessible name starts with it);
        # the fitting rotations are a note drawn right after it, not clickable
        assert texts(groups[name]) == [name]
        note = after[id(groups[name])]
        assert "note" in classes(note) and note.get("pointer-events") == "none"
        assert texts(note) == [" ".join(str(r) for r in rots)]
    bare = ET.fromstring(render_svg("diestadt", view))  # a spectator: the same spaces, none marked
    assert set(site_groups(bare)) == set(groups)
    assert not any("legal" in classes(g) for g in site_groups(bare).values())


def test_followers_guards_towers_and_gate_are_drawn_in_their_seats_colours():
    state = load_position(POSITION, GAME)
    view, hl = notice(state)
    root = check_sites(view, hl)
    colour = {p["seat"]: art.SEAT_FILL[p["colour"]] for p in view["players"]}
    drawn = []
    for g in pieces(root, "follower"):
        seat = int(g.find(f"{NS}title").text.split()[1].rstrip(":")) - 1   # "Seat 2: citizen"
        posture = (classes(g) - {"follower"}).pop()
        fills = {p.get("fill") for p in g.iter(f"{NS}path") if p.get("fill") not in (None, "none")}
        assert fills == {colour[seat]}
        drawn.append((seat, posture))
    expected = [(f["seat"], f["posture"]) for f in view["followers"]]
    assert sorted(drawn) == sorted(expected)
    assert {p for _, p in expected} == {"standing", "lying", "guard"}
    towers = pieces(root, "tower")
    assert len(towers) == len(view["towers"]) == 1
    assert towers[0].find(f"{NS}path").get("fill") == colour[0]
    assert texts(towers[0]) == [str(view["towers"][0]["points"])]
    assert len(pieces(root, "gate")) == 1
    assert len(pieces(root, "wall")) == len(view["wall"]["pieces"]) == 2
    assert {c for g in pieces(root, "end") for c in classes(g)} >= {"cw", "ccw"}


def test_markets_are_coloured_by_kind_and_historic_buildings_named():
    state = load_position(POSITION, GAME)
    view, hl = notice(state)
    root = ET.fromstring(render_svg("diestadt", view, highlight=hl))
    groups = site_groups(root)
    for space, kind in (("T20", "fish"), ("U20", "cattle"), ("S21", "grain")):
        fills = {p.get("fill") for p in groups[space].iter(f"{NS}polygon")}
        assert art.MARKET_FILL[kind] in fills
        assert not (set(art.MARKET_FILL.values()) - {art.MARKET_FILL[kind]}) & fills
    names = [" ".join(texts(g)) for g in pieces(root, "name")]
    assert names == ["Chateau Comtal"]
    assert "Chateau Comtal" in groups["S20"].find(f"{NS}title").text


def test_coordinates_cover_the_used_part_of_the_grid_and_a_margin():
    view, hl = notice(load_position(POSITION, GAME))
    root = ET.fromstring(render_svg("diestadt", view, highlight=hl))
    coords = next(g for g in root.iter(f"{NS}g") if g.get("class") == "coordinates")
    printed = set(texts(coords))
    # tiles S-U 20-21 and one space round them, where the drawn tile may go
    assert printed == {COLUMNS[x] for x in range(17, 22)} | {str(r) for r in range(19, 23)}
    assert {"R", "V", "22"} <= printed


def test_the_drawn_tile_is_shown_in_each_rotation_with_its_spaces():
    view, hl = notice(load_position(POSITION, GAME))
    root = ET.fromstring(render_svg("diestadt", view, highlight=hl))
    head = next(g for g in root.iter(f"{NS}g") if g.get("class") == "drawn-head")   # a line across the strip
    assert texts(head) == ["Drawn tile 20: public building"]
    drawn = next(g for g in root.iter(f"{NS}g") if g.get("class") == "drawn")
    labels = texts(drawn)
    for rot in view["drawn"]["rotations"]:
        n = sum(rot["rotation"] in r for r in view["legal_spaces"].values())
        assert f"{rot['rotation']}°" in labels
        assert (f"{n} space{'s' if n != 1 else ''}" if n else "fits nowhere") in labels


def test_spaces_beside_the_city_where_the_drawn_tile_fits_nowhere_are_sites_never_legal():
    # T20 and T21 placed; the drawn tile 75 fits on S20 in no rotation (tests/engine/diestadt/test_steps.py)
    state = load_position("seats 3\ntile T20 23 90\ntile T21 65 90 citizen S seat 2\npiles 27 25 20\n"
                          "pile 1\nturn seat 3 number 3 drawn 75", GAME)
    view, hl = notice(state)
    groups = site_groups(check_sites(view, hl))
    nowhere = set(groups) - {t["space"] for t in view["tiles"]} - set(view["legal_spaces"])
    assert "S20" in nowhere and "legal" not in classes(groups["S20"])
    assert "fits nowhere" in "".join(groups["S20"].find(f"{NS}title").itertext())
    # no tile drawn (a wall decision, the end): no such sites
    bare = site_groups(check_sites(dict(view, drawn=None, legal_spaces={}), []))
    assert set(bare) == {t["space"] for t in view["tiles"]}


def test_wall_edges_and_tower_corners_are_sites_when_highlighted():
    view, _ = notice(load_position(POSITION, GAME))
    hl = ["U20E", "S20W", "U20NE"]
    root = check_sites(dict(view, legal_spaces={}), hl)
    assert {n for n, g in site_groups(root).items() if "legal" in classes(g)} == set(hl)


@pytest.fixture
def fresh_caches(monkeypatch):
    monkeypatch.setattr(raster, "_static", type(raster._static)())
    monkeypatch.setattr(raster, "_tiles", type(raster._tiles)())
    monkeypatch.setattr(raster, "_tile_pixels", 0)


def differences(a: Image.Image, b: Image.Image, block: int = 24) -> tuple[float, float]:
    """(mean absolute difference of the worst channel, worst mean over any
    ``block``-pixel square)."""
    assert a.size == b.size
    d = ImageChops.difference(a, b).convert("L")
    worst = max(ImageStat.Stat(d.crop((x, y, x + block, y + block))).mean[0]
                for y in range(0, a.height, block) for x in range(0, a.width, block))
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean), worst


@pytest.mark.parametrize("case", ["position", "mid", "end"])
def test_the_mailed_png_is_the_svg_picture(fresh_caches, case):
    state = {"position": lambda: load_position(POSITION, GAME), "mid": lambda: random_state(3, 5, 70),
             "end": lambda: random_state(2, 3, 10**4)}[case]()
    view, hl = notice(state)
    reference = Image.open(io.BytesIO(svg_to_png(render_svg("diestadt", view, highlight=hl)))).convert("RGB")
    mailed = Image.open(io.BytesIO(render_png("diestadt", view, highlight=hl))).convert("RGB")
    mean, block = differences(reference, mailed)
    assert mean < 2 and block < 12, (mean, block)
    if case == "end":
        assert view["over"] and view["drawn"] is None


def test_every_layer_tile_is_part_of_the_svg_and_the_static_layer_holds_no_pieces():
    view, hl = notice(random_state(4, 2, 90))
    svg = render_svg("diestadt", view, highlight=hl)
    layers = diestadt.layers(view, hl)
    assert layers.tiles
    for tile in layers.tiles:
        for line in tile.svg.split("\n"):
            assert line in svg
    static = layers.static_svg()
    assert 'class="site' not in static and "follower" not in static
    bare = diestadt.layers(dict(view, followers=[], towers=[], wall={}, tiles=view["tiles"][:1]), [])
    if bare.static_key == layers.static_key:
        assert bare.static_svg() == static


def test_an_empty_view_draws():
    root = ET.fromstring(render_svg("diestadt", {}))
    assert site_groups(root) == {}
    assert render_png("diestadt", {}).startswith(b"\x89PNG")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**6), moves=st.integers(0, 260))
def test_random_games_draw_every_site_follower_and_tower(seats, seed, moves):
    state = random_state(seats, seed, moves)
    view, hl = notice(state)
    root = check_sites(view, hl)
    placed = {(t["x"], t["y"]) for t in view["tiles"]}
    beside = {f"{COLUMNS[x + dx]}{y + dy + 1}" for x, y in placed for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
              if 0 <= x + dx < 40 and 0 <= y + dy < 40 and (x + dx, y + dy) not in placed}
    nowhere = beside - set(view["legal_spaces"]) if view["drawn"] else set()
    assert set(site_groups(root)) == {t["space"] for t in view["tiles"]} | set(view["legal_spaces"]) | set(hl) | nowhere
    colour = {p["seat"]: art.SEAT_FILL[p["colour"]] for p in view["players"]}
    followers = pieces(root, "follower")
    assert len(followers) == len(view["followers"])
    for g, fo in zip(followers, view["followers"]):
        assert colour[fo["seat"]] in {p.get("fill") for p in g.iter(f"{NS}path")}
        assert fo["posture"] in classes(g)
    assert [t.find(f"{NS}path").get("fill") for t in pieces(root, "tower")] == \
        [colour[t["seat"]] for t in view["towers"]]
    assert len(pieces(root, "gate")) == (1 if view["wall"]["gate"] else 0)


def test_every_notice_of_a_whole_game_marks_its_sites():
    """Tile, gate, wall and tower decisions: the spaces, outline edges and
    corners of the legal orders are sites, exactly those legal."""
    game_rng, state = random.Random(11), GAME.new_state(3, 11)
    seen = set()
    while not state.is_terminal():
        view, hl = notice(state)
        seen.add(view["turn"]["decision"])
        check_sites(view, hl)
        seat = state.current_seats()[0]
        acts = state.legal_actions(seat)
        state.apply(seat, acts[game_rng.randrange(len(acts))])
    assert seen >= {"tile", "gate", "wall", "tower"}


def test_a_player_name_cannot_break_the_picture():
    view, hl = notice(load_position(POSITION, GAME))
    name = 'Eve <script>&"\x01 with a very long name indeed'
    view = dict(view, players=[dict(view["players"][0], name=name)] + view["players"][1:])
    root = check_sites(view, hl)
    seat_line = next(t for t in texts(root) if t.startswith("▶ Eve"))
    assert seat_line.startswith("▶ Eve <script>&\"\ufffd… (you): ")   # cut to 16 characters
