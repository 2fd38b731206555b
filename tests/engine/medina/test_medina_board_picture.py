"""The Medina board picture (pbem/boards/medina/)."""
import random
import xml.etree.ElementTree as ET

from pbem.boards import render_svg, svg_to_png
from pbem.engine.medina import board as B

from .helpers import GAME

NS = "{http://www.w3.org/2000/svg}"


def sites_of(svg):
    root = ET.fromstring(svg)
    out = {}
    for el in root.iter():
        cls = (el.get("class") or "").split()
        if "site" in cls:
            assert el.get("data-site") not in out
            out[el.get("data-site")] = cls
    return root, out


def played(n=60, seed=5):
    st = GAME.new_state(4, seed)
    rng = random.Random(seed)
    for _ in range(n):
        if st.is_terminal():
            break
        s = st.current_seats()[0]
        st.apply(s, rng.choice(st.legal_actions(s)))
    return st


def test_every_square_and_wall_space_is_a_site():
    st = GAME.new_state(3, 1)
    root, sites = sites_of(render_svg("medina", st.view(0)))
    expected = {B.square_name(i) for i in range(B.SQUARES)} | {B.wall_name(w) for w in range(B.WALLS)}
    assert set(sites) == expected and len(expected) == 176 + 54
    assert all("legal" not in c for c in sites.values())


def test_legal_sites_are_highlighted():
    st = played()
    seat = st.current_seats()[0]
    legal = {a.site for a in st.legal_actions(seat)}
    _, sites = sites_of(render_svg("medina", st.view(seat), highlight=legal))
    assert {s for s, c in sites.items() if "legal" in c} == legal


def test_coordinates_and_wall_numbers_are_printed_in_dejavu_sans():
    root, _ = sites_of(render_svg("medina", played().view(None)))
    texts = {t.text for t in root.iter(NS + "text")}
    assert set(B.COLUMN_LETTERS) <= texts
    assert {str(r) for r in range(1, 12)} <= texts
    assert {f"W{n}" for n in range(1, 55)} <= texts
    assert {"E5", "A1", "P11"} <= texts
    assert root.get("font-family") == "DejaVu Sans"
    assert "font-family: 'DejaVu Sans'" in root.find(NS + "style").text


def test_the_picture_shows_the_pieces_and_tiles():
    st = played(100)
    svg = render_svg("medina", st.view(None))
    root, _ = sites_of(svg)
    drawn = {}
    for el in root.iter():
        cls = (el.get("class") or "").split()
        if cls[:1] == ["piece"]:
            drawn[cls[1]] = drawn.get(cls[1], 0) + 1
    assert drawn["palace"] == sum(len(p.squares) for p in st.palaces)
    assert drawn.get("stable", 0) == sum(len(p.stables) for p in st.palaces)
    assert drawn.get("dome", 0) == sum(p.owner is not None for p in st.palaces)
    assert drawn["merchant"] == len(st.merchants)
    assert drawn.get("wall", 0) == sum(1 for w in st.walls if w)
    assert "Palace tiles:" in svg and "Tower tiles:" in svg and st.phase() in svg


def test_the_picture_renders_to_png_for_setup_midgame_and_end():
    st = GAME.new_state(4, 2)
    png = svg_to_png(render_svg("medina", st.view(0), highlight=[a.site for a in st.legal_actions(0)]))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    end = played(400)
    assert end.is_terminal()
    assert svg_to_png(render_svg("medina", end.view(None)))[:4] == b"\x89PNG"


def test_a_view_with_missing_keys_still_renders():
    _, sites = sites_of(render_svg("medina", {}))
    assert len(sites) == 230
