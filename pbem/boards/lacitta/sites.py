"""The La Città board itself: landscape regions with their symbols, the
sites (one clickable ``<g class="site">`` each, with tooltip, legal ring and
latest-turn outline) and the pieces standing on them.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.boards.lacitta.palette import LANDSCAPE_EDGE, LANDSCAPE_FILL, PICKED, S, TILE_KIND, WORDS
from pbem.boards.lacitta.plan import Plan
from pbem.boards.lacitta.svg import esc, hexagon, pts, text, tint
from pbem.boards.lacitta.symbols import (building_glyph, castle_symbol, field_symbol, mountain_symbol, notable_pawn,
                                         wave_symbol)
from pbem.boards.lacitta.view import Building, colour_of
from pbem.boards.words import Msg, Msgn


def region_kind(rid: str, region: Mapping[str, Any], landscape: Mapping[str, str]) -> tuple[str, int]:
    """(landscape kind, ears of grain) of region ``rid``: fixed regions say it, a slot reads its tile
    code in ``landscape`` (``"F2"`` -> ``("field", 2)``); an empty slot is ``("", 0)``."""
    if region.get("fixed"):
        return str(region.get("kind") or ""), int(region.get("grain") or 0)
    code = landscape.get(rid, "")
    return TILE_KIND.get(code.upper(), ("", 0)) if code else ("", 0)


def draw_landscape(pl: Plan) -> list[str]:
    """The landscape group: every region's triangles in its kind's colours, then its symbol
    (grain, mountain, waves; an empty slot its name) kept inside the crop."""
    # Edge triangles reach past the board area; the header and legend bands,
    # drawn over them later, hide that (cheaper to render than a clipPath).
    out = ['<g class="landscape">']
    symbols = []
    pad = 1.2
    bx0, by0, bx1, by1 = pl.bx0, pl.by0, pl.bx1, pl.by1
    P = pl.P
    for rid, region in pl.board["regions"].items():
        kind, grain = region_kind(rid, region, pl.v.landscape)
        fill, edge = LANDSCAPE_FILL.get(kind, LANDSCAPE_FILL[""]), LANDSCAPE_EDGE.get(kind, LANDSCAPE_EDGE[""])
        out.append(f'<g class="region {kind or "empty"}" data-region="{esc(rid)}">')
        for tri in region["triangles"]:
            out.append(f'<polygon points="{pts(P(x, y) for x, y in tri)}" fill="{fill}" stroke="{edge}" '
                       f'stroke-width="1.5" stroke-linejoin="round"/>')
        out.append("</g>")
        rx, ry = region["centre"]
        cx, cy = P(min(max(rx, bx0 + pad), bx1 - pad), min(max(ry, by0 + pad), by1 - pad))
        if kind == "field":
            symbols.append(field_symbol(cx, cy, grain, S * 1.35))
        elif kind == "mountain":
            symbols.append(mountain_symbol(cx, cy, S * 1.1))
        elif kind in ("lake", "water"):
            symbols.append(wave_symbol(cx, cy, S * 1.1))
        elif not region.get("fixed"):
            symbols.append(text(cx, cy + 4, rid, S * 0.55, fill="#8d8676"))
    out.append("".join(symbols))
    out.append("</g>")
    return out


R_HEX = S * 0.97


def draw_site(pl: Plan, name: str, site: Mapping[str, Any], *, plain: bool = False,
              legal: bool | None = None) -> list[str]:
    """One site's group: hex, legal ring, coordinate. ``plain``: drawn as if
    empty and not legal (the static layer's look of every site); ``legal``:
    legal or not whatever the highlight says."""
    v = pl.v
    cx, cy = pl.P(site["x"], site["y"])
    used = int(site.get("players") or 2) <= v.seats or v.seats >= 5
    classes = ["site"]
    if not used:
        classes.append("off")
    if (name.upper() in pl.legal and not plain) if legal is None else legal:
        classes.append("legal")
    building = None if plain else v.buildings.get(name.upper())
    if building is not None:
        fill = tint(pl.colours.get(building.owner, colour_of(None, building.owner)), 0.62)
    else:
        fill = "#fbf7ec" if used else "#c9c5bc"
    t, tip = pl.t, name
    if building is not None:
        kind = t(WORDS.get(building.kind, building.kind))
        owner = next((p.name for p in v.players if p.seat == building.owner and p.name), "") or \
            t(Msg("Seat {n}", n=building.owner + 1))
        tip += f": {kind}, {owner}"
        if building.kind == "castle" and name.upper() in v.citizens:
            tip += ", " + t(Msgn("{n} citizen", "{n} citizens", v.citizens[name.upper()]))
    elif not used:
        tip += " (" + t(Msgn("not used with {n} player", "not used with {n} players", v.seats)) + ")"
    last = not plain and name.upper() in v.last
    if last:
        tip += " (" + t(Msg("changed in the latest turn")) + ")"
    return [f'<g class="{" ".join(classes)}" data-site="{esc(name)}"><title>{esc(tip)}</title>',
            f'<polygon class="hex" points="{pts(hexagon(cx, cy, R_HEX))}" fill="{fill}" '
            f'stroke="{"#9a8d6e" if used else "#aaa59b"}" stroke-width="1"/>',
            *([f'<polygon class="last" points="{pts(hexagon(cx, cy, R_HEX - 1.6))}" fill="none" '
               f'stroke="{PICKED}" stroke-width="2.6" stroke-dasharray="4 2.5"/>'] if last else []),
            f'<polygon class="ring" points="{pts(hexagon(cx, cy, R_HEX - 2.6))}"/>',
            text(cx, cy - S * 0.42, name, S * 0.46, fill="#5f5746" if used else "#8f8a80"),
            "</g>"]


def draw_piece(pl: Plan, site: str, bld: Building) -> list[str]:
    """The building or castle on ``site`` (and a harvest notable)."""
    colour = pl.colours.get(bld.owner, colour_of(None, bld.owner))
    sites = pl.board["sites"]
    cx, cy = pl.P(sites[site]["x"], sites[site]["y"])
    if bld.kind == "castle":
        out = [castle_symbol(cx, cy + S * 0.16, S * 0.62, colour, pl.v.citizens.get(site))]
    else:
        out = [building_glyph(cx, cy, bld.kind, bld.notables, colour, pl.t)]
    if bld.harvest:
        out.append(notable_pawn(cx + S * 0.52, cy - S * 0.3, S * 0.3, colour))
    return out
