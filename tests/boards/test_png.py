"""SVG -> PNG with the shipped font: valid, deterministic, text drawn, and
independent of the fonts installed on the machine."""
from __future__ import annotations

from pathlib import Path

import pytest
import resvg_py

from pbem.boards import svg_to_png
from pbem.boards.png import FONT_DIR, FONT_FILES, MAX_WIDTH

from .fresh import fresh_output
from .pngread import SIGNATURE, Image, size
from .samples import text_svg


def test_png_is_valid_and_has_the_requested_width():
    png = svg_to_png(text_svg())
    assert png.startswith(SIGNATURE)
    assert size(png) == (900, 300)  # aspect ratio of the viewBox kept
    assert size(svg_to_png(text_svg(), width=450)) == (450, 150)
    Image(png)  # every chunk CRC checks and the pixels decode


PNG_IN_A_FRESH_PROCESS = (
    "import sys\n"
    "from pbem.boards import svg_to_png\n"
    "from tests.boards.samples import text_svg\n"
    "sys.stdout.buffer.write(svg_to_png(text_svg()))\n"
)


def test_png_is_deterministic():
    # the same bytes here and in two new processes under other string-hash seeds
    here = svg_to_png(text_svg())
    for seed in ("1", "2"):
        assert fresh_output(PNG_IN_A_FRESH_PROCESS, seed) == here, f"PYTHONHASHSEED={seed} drew other bytes"


def test_text_is_drawn_where_the_label_is_and_nowhere_else():
    img = Image(svg_to_png(text_svg()))
    # The label is centred on (450, ~165) at 900 px: ink there, none in the corners.
    assert img.dark_pixels(200, 90, 700, 200) > 2000
    assert img.dark_pixels(0, 0, 150, 60) == 0
    assert img.dark_pixels(750, 240, 900, 300) == 0


def test_bold_uses_the_shipped_bold_face():
    regular = Image(svg_to_png(text_svg()))
    bold = Image(svg_to_png(text_svg(weight="bold")))
    assert bold.dark_pixels(0, 0, 900, 300) > regular.dark_pixels(0, 0, 900, 300) * 1.2


@pytest.mark.parametrize("family", ["DejaVu Serif", "Liberation Serif", "serif", "monospace", "No Such Font"])
def test_any_family_renders_with_the_shipped_font(family):
    # Only the shipped DejaVu Sans is loaded and every family falls back to it,
    # so the picture cannot change with the fonts a machine has installed.
    assert svg_to_png(text_svg(family)) == svg_to_png(text_svg("DejaVu Sans"))


def test_system_fonts_would_change_the_output_if_they_were_loaded():
    # Guards the test above: it proves something only when a system font
    # that differs from DejaVu Sans is installed (Debian has DejaVu Serif).
    system_serif = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    if not system_serif.exists():
        pytest.skip("no DejaVu Serif on this machine to compare with")
    with_system = bytes(resvg_py.svg_to_bytes(svg_string=text_svg("DejaVu Serif"), width=900))
    assert with_system != svg_to_png(text_svg("DejaVu Serif"))


def test_shipped_fonts_and_licence_are_present():
    for path in FONT_FILES:
        assert path.stat().st_size > 100_000
        assert path.read_bytes()[:4] in (b"\x00\x01\x00\x00", b"true")  # TrueType
    licence = (FONT_DIR / "LICENSE.txt").read_text()
    assert "Bitstream" in licence and "Permission is hereby granted" in licence


def test_transparent_background_on_request():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>'
    assert Image(svg_to_png(svg, width=10)).pixel(5, 5) == (255, 255, 255, 255)
    assert Image(svg_to_png(svg, width=10, background=None)).pixel(5, 5)[3] == 0


@pytest.mark.parametrize("width", [0, -5, MAX_WIDTH + 1, 9.5, True])
def test_bad_width_is_refused(width):
    with pytest.raises(ValueError, match="width"):
        svg_to_png(text_svg(), width=width)


@pytest.mark.parametrize("svg", ["", "   ", "<svg", "not svg at all"])
def test_bad_svg_is_refused(svg):
    with pytest.raises(ValueError):
        svg_to_png(svg)


@pytest.mark.parametrize("bold", [False, True])
def test_text_width_matches_the_rendered_ink(bold):
    from pbem.boards.png import text_width

    label = "Seat 3 Cécile: food 9"
    w = text_width(label, 40, bold=bold)
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 60">'
           f'<text x="10" y="45" font-size="40" font-weight="{"bold" if bold else "normal"}">{label}</text></svg>')
    img = Image(svg_to_png(svg, width=900))
    inked = [x for x in range(900) if img.dark_pixels(x, 0, x + 1, 60) > 0]
    assert abs((inked[-1] + 1) - (10 + w)) < 6       # advance ends just past the last glyph's ink
    assert text_width(label, 20, bold=bold) == pytest.approx(w / 2)
