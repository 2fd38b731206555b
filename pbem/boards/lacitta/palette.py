"""La Città picture look: scale, colours, the buildings' glyphs and arches,
the words drawn, and the SVG's own style (``legal``, ``picked``).

Helpers of :mod:`pbem.boards.lacitta`; nothing here draws.
"""
from __future__ import annotations

from pbem.boards.words import Msg, Msgc


S = 20.0                 # SVG user units per hex circumradius
FONT = "DejaVu Sans"
PAPER = "#f3ecda"
INK = "#2b2620"

LANDSCAPE_FILL = {
    "field": "#e8cf6e", "mountain": "#a8a094", "lake": "#6fa9d6", "water": "#4f8fc4",
    "": "#d9d4c7",          # slot with no tile yet
}
LANDSCAPE_EDGE = {
    "field": "#c9a93e", "mountain": "#7d766b", "lake": "#3f7fb3", "water": "#3f7fb3", "": "#b5ae9f",
}
TILE_KIND = {"F1": ("field", 1), "F2": ("field", 2), "F3": ("field", 3), "M": ("mountain", 0),
             "L": ("lake", 0), "W": ("water", 0)}

# Arch colours as printed on the tiles: culture white, education black, health blue.
ARCH_FILL = {"culture": "#ffffff", "education": "#1b1b1b", "health": "#2f7fe0"}
WISHES = ("culture", "education", "health")

#: every word the picture draws for a building, a wish or a castle
#: (translated with :func:`pbem.boards.words.words`)
WORDS = {
    "farm": Msg("farm"), "quarry": Msg("quarry"), "market": Msg("market"), "statue": Msg("statue"),
    "school": Msg("school"), "fountain": Msg("fountain"), "palazzo": Msg("palazzo"),
    "hospital": Msg("hospital"), "bathhouse": Msg("bathhouse"), "dom": Msg("dom"),
    "university": Msg("university"), "castle": Msg("castle"),
    "culture": Msg("culture"), "education": Msg("education"), "health": Msg("health"),
}

def _two(letters: str) -> Msg:
    """A building's letters on the board: each language writes its own
    (from the building's name there, docs/i18n/<lang>.md "Board letters")."""
    return Msgc("La Città building letters", letters)


# building -> (glyph, tile fill, glyph colour, arches in order). The tile takes
# the colour of its arches (culture white, education black, health blue; the
# hospital half blue, half black) so a city's appeal reads at a glance.
HOSPITAL_FILL = "url(#lc-hospital)"
BUILDINGS: dict[str, tuple[Msg, str, str, tuple[str, ...]]] = {
    "farm": (_two("Fa"), "#bcd98a", INK, ()),
    "quarry": (_two("Qu"), "#bdb6aa", INK, ()),
    "market": (_two("Ma"), "#f0b46c", INK, ()),
    "statue": (_two("St"), "#ffffff", INK, ("culture",)),
    "school": (_two("Sc"), "#1b1b1b", "#ffffff", ("education",)),
    "fountain": (_two("Fo"), "#2f7fe0", "#ffffff", ("health",)),
    "palazzo": (_two("Pa"), "#ffffff", INK, ("culture", "culture")),
    "hospital": (_two("Ho"), HOSPITAL_FILL, "#ffffff", ("health", "education")),
    "bathhouse": (_two("Ba"), "#2f7fe0", "#ffffff", ("health", "health")),
    "dom": (_two("Do"), "#ffffff", INK, ("culture", "culture", "culture")),
    "university": (_two("Un"), "#1b1b1b", "#ffffff", ("education", "education", "education")),
}
DEFS = (
    '<linearGradient id="lc-hospital" x1="0" y1="0" x2="1" y2="0">'
    f'<stop offset="0.5" stop-color="{ARCH_FILL["health"]}"/><stop offset="0.5" stop-color="{ARCH_FILL["education"]}"/>'
    '</linearGradient>'
)


SEAT_COLOURS = ["#d0312d", "#2a62c9", "#2e9a48", "#e9b308", "#8e44ad"]
NAMED_COLOURS = {
    "red": "#d0312d", "blue": "#2a62c9", "green": "#2e9a48", "yellow": "#e9b308",
    "purple": "#8e44ad", "violet": "#8e44ad", "orange": "#e8731c", "black": "#333333",
    "white": "#f4f4f4", "brown": "#8b5a2b", "grey": "#8a8a8a", "gray": "#8a8a8a", "pink": "#e55d9b",
}

LEGAL = "#e6007e"        # magenta: unlike every seat colour and every landscape
PICKED = "#0a7d2c"

STYLE = f"""
text {{ font-family: '{FONT}'; }}
.site .ring {{ display: none; }}
.site.legal .ring {{ display: inline; fill: {LEGAL}; fill-opacity: 0.18; stroke: {LEGAL}; stroke-width: 4.5; }}
.site.legal text, .site.picked text {{ stroke: #ffffff; stroke-width: 2.2; paint-order: stroke; font-weight: bold; }}
.site.picked .ring {{ display: inline; fill: {PICKED}; fill-opacity: 0.2; stroke: {PICKED}; stroke-width: 5; }}
"""
