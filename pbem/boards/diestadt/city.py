"""Die Stadt picture: the city's sites (placed tiles, spaces for the drawn
tile, highlighted wall edges and corners) and pieces (followers, wall,
gate, towers, guards, historic names, the latest tile), each as
``(box, svg)`` in drawing order so the raster layers can cut them apart.
"""
from __future__ import annotations

from typing import Any

from pbem.boards.diestadt import art as A
from pbem.boards.diestadt.art import esc, f, text
from pbem.boards.diestadt.geometry import CELL, CORNER, PICKED, Plan, corner_xy
from pbem.boards.png import text_width
from pbem.boards.words import Msg
from pbem.engine.messages import Msgc
from pbem.engine.diestadt.grid import NEIGHBOURS, SIDE_NAMES, W, parse_edge, parse_space, space_name

_OUT = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _tile_regions(t: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {r.get("label"): (r.get("type"), r.get("market")) for r in t.get("regions") or []}


#: a follower's role as the tooltips name it
ROLE_WORDS = {"citizen": Msgc("Die Stadt", "citizen"), "merchant": Msgc("Die Stadt", "merchant"), "overseer": Msg("overseer"),
              "guard": Msg("guard")}
BUILDING_WORDS = {"public": Msg("public building"), "historic": Msg("historic building")}


def _who(pl: Plan, seat: Any) -> str:
    """The player holding ``seat`` by name, else "Seat 2" ("?" for no seat)."""
    if not isinstance(seat, int):
        return "?"
    names = {p.get("seat"): p.get("name") for p in pl.view.get("players") or []}
    return str(names.get(seat) or pl.say(Msg("Seat {n}", n=seat + 1)))


def _tile_tip(pl: Plan, t: dict[str, Any], followers: list[dict[str, Any]]) -> str:
    say = pl.say
    kinds = sorted({r.get("market") for r in t.get("regions") or [] if r.get("market")})
    parts = [say(Msg("{space}: tile {tile}", space=t["space"], tile=t.get("tile")))]
    parts += [say(A.MARKET_WORDS.get(k, k)) for k in kinds]
    if t.get("building"):
        parts.append(say(BUILDING_WORDS.get(t["building"], t["building"])) + (f" {t['name']}" if t.get("name") else ""))
    for fo in followers:
        role = say(ROLE_WORDS.get(fo.get("role"), str(fo.get("role"))))
        parts.append(say(Msg("{who}: {role} on {point}", who=_who(pl, fo.get("seat", 0)), role=role,
                             point=fo.get("point"))))
    return ", ".join(parts)


def _tile_site(pl: Plan, t: dict[str, Any], followers: list[dict[str, Any]]) -> tuple[tuple, str]:
    sp = t["y"] * W + t["x"]
    x, y = pl.xy(sp)
    u = pl.u
    art = A.tile_art(list(t.get("slots") or ["r1"] * 12), _tile_regions(t), t.get("building"),
                     t.get("building_region"), u)
    cls = "site legal" if t["space"].upper() in pl.legal else "site"
    svg = (f'<g class="{cls}" data-site="{esc(t["space"])}"><title>{esc(_tile_tip(pl, t, followers))}</title>'
           f'<g transform="translate({f(x)} {f(y)})">{art}</g>'
           f'<rect class="ring" x="{f(x + 3)}" y="{f(y + 3)}" width="{f(u - 6)}" height="{f(u - 6)}"/></g>')
    return (x - 2, y - 2, x + u + 2, y + u + 2), svg


def _space_site(pl: Plan, name: str, rotations: list[int]) -> tuple[tuple, str]:
    sp = parse_space(name)
    x, y = pl.xy(sp)
    u = pl.u
    legal = name.upper() in pl.legal
    turns = " ".join(str(r) for r in rotations)
    tip = pl.say(Msg("{site}: the drawn tile fits here turned {turns}", site=name, turns=turns) if turns
                 else Msg("{site}: the drawn tile fits here", site=name))
    size = min(17.0, u * 0.36, (u - 6) / text_width(name, 1.0, bold=legal))
    small = min(13.0, u * 0.27)
    if turns and text_width(turns, small, bold=legal) > u - 5:
        small = (u - 5) / text_width(turns, 1.0, bold=legal)
    fill = "#ffffff" if legal else CELL
    svg = (f'<g class="site{" legal" if legal else ""}" data-site="{esc(name)}"><title>{esc(tip)}</title>'
           f'<rect class="hex" x="{f(x + 1)}" y="{f(y + 1)}" width="{f(u - 2)}" height="{f(u - 2)}" fill="{fill}" '
           f'fill-opacity="0.7" stroke="#b7a57f" stroke-width="1" stroke-dasharray="3 3"/>'
           f'<rect class="ring" x="{f(x + 3)}" y="{f(y + 3)}" width="{f(u - 6)}" height="{f(u - 6)}"/>'
           + text(x + u / 2, y + u / 2 - size * 0.05, name, size, fill="#7a6a4a")
           + "</g>")
    if turns and small >= 7:
        # the rotations are a note beside the site, not its name: the site's
        # visible text stays its coordinate, which its accessible name starts with
        svg += (f'<g class="note" pointer-events="none">'
                + text(x + u / 2, y + u / 2 + small * 1.1, turns, small, fill="#7a6a4a") + "</g>")
    return (x - 1, y - 1, x + u + 1, y + u + 1), svg


def frontier(pl: Plan) -> list[str]:
    """The empty spaces beside the city where the drawn tile fits in no
    rotation (only while a tile is drawn): sites that are never legal, so
    that a click on one can be answered with why (the order page)."""
    view = pl.view
    if not view.get("drawn"):
        return []
    placed = {t["y"] * W + t["x"] for t in view.get("tiles") or [] if "x" in t and "y" in t}
    taken = {name.upper() for name in view.get("legal_spaces") or {}} | set(pl.legal)
    out = set()
    for sp in placed:
        for side in range(4):
            nb = NEIGHBOURS[sp][side]
            if nb >= 0 and nb not in placed and space_name(nb) not in taken:
                x, y = pl.xy(nb)
                if pl.bx - 1 <= x and pl.by - 1 <= y and x + pl.u <= pl.bx + pl.cols * pl.u + 1 \
                        and y + pl.u <= pl.by + pl.rows * pl.u + 1:
                    out.add(space_name(nb))
    return sorted(out)


def frontier_site(pl: Plan, name: str) -> str:
    """An empty space the drawn tile does not fit: invisible, clickable."""
    x, y = pl.xy(parse_space(name))
    why = pl.say(Msg("{space}: the drawn tile fits nowhere here", space=name))
    return (f'<g class="site" data-site="{esc(name)}"><title>{esc(why)}</title><rect class="hex" x="{f(x + 1)}" y="{f(y + 1)}" width="{f(pl.u - 2)}" '
            f'height="{f(pl.u - 2)}" fill="#ffffff" fill-opacity="0.01"/></g>')


def edge_band(pl: Plan, edge: tuple[int, int], grow: float = 0.0) -> tuple[float, float, float, float]:
    """The wall band outside ``edge`` (user units), ``grow`` longer at each end."""
    sp, side = edge
    x, y = pl.xy(sp)
    u, t = pl.u, pl.t
    if side == 0:
        return x - grow, y - t, x + u + grow, y
    if side == 1:
        return x + u, y - grow, x + u + t, y + u + grow
    if side == 2:
        return x - grow, y + u, x + u + grow, y + u + t
    return x - t, y - grow, x, y + u + grow


def _edge_site(pl: Plan, name: str, edge: tuple[int, int]) -> tuple[tuple, str]:
    x0, y0, x1, y1 = edge_band(pl, edge)
    dx, dy = _OUT[edge[1]]
    x0, y0, x1, y1 = x0 + min(dx, 0) * 8, y0 + min(dy, 0) * 8, x1 + max(dx, 0) * 8, y1 + max(dy, 0) * 8
    legal = name.upper() in pl.legal
    tip = pl.say(Msg("{site}: wall edge", site=name))
    svg = (f'<g class="site{" legal" if legal else ""}" data-site="{esc(name)}"><title>{esc(tip)}'
           f'</title><rect class="hex" x="{f(x0)}" y="{f(y0)}" width="{f(x1 - x0)}" height="{f(y1 - y0)}" '
           f'fill="#ffffff" fill-opacity="0.01"/><rect class="ring" x="{f(x0 + 2)}" y="{f(y0 + 2)}" '
           f'width="{f(x1 - x0 - 4)}" height="{f(y1 - y0 - 4)}"/></g>')
    return (x0 - 3, y0 - 3, x1 + 3, y1 + 3), svg


def _corner_site(pl: Plan, name: str) -> tuple[tuple, str] | None:
    at = corner_xy(pl, name)
    if at is None:
        return None
    r = max(12.0, pl.u * 0.24)
    legal = name.upper() in pl.legal
    tip = pl.say(Msg("{site}: tower corner", site=name))
    svg = (f'<g class="site{" legal" if legal else ""}" data-site="{esc(name)}"><title>{esc(tip)}'
           f'</title><circle class="hex" cx="{f(at[0])}" cy="{f(at[1])}" r="{f(r)}" fill="#ffffff" '
           f'fill-opacity="0.01"/><circle class="ring" cx="{f(at[0])}" cy="{f(at[1])}" r="{f(r - 2)}"/></g>')
    return (at[0] - r - 3, at[1] - r - 3, at[0] + r + 3, at[1] + r + 3), svg


def sites(pl: Plan) -> list[tuple[tuple, str]]:
    """Every site in drawing order: placed tiles, spaces for the drawn tile,
    highlighted edges and corners."""
    view = pl.view
    by_space: dict[str, list] = {}
    for fo in view.get("followers") or []:
        if fo.get("region"):
            by_space.setdefault(str(fo.get("space")).upper(), []).append(fo)
    out = [_tile_site(pl, t, by_space.get(t["space"].upper(), [])) for t in view.get("tiles") or []]
    placed = {t["space"].upper() for t in view.get("tiles") or []}
    spaces = dict(view.get("legal_spaces") or {})
    for name in sorted(pl.legal):
        if parse_space(name) is not None and name not in spaces and name not in placed:
            spaces[name] = []
    out += [_space_site(pl, name.upper(), rots) for name, rots in spaces.items()
            if name.upper() not in placed]
    for name in sorted(pl.legal):
        edge = parse_edge(name) if len(name) > 2 and name[-1] in SIDE_NAMES else None
        if edge is not None and parse_space(name) is None:
            out.append(_edge_site(pl, name, edge))
        elif CORNER.match(name):
            site = _corner_site(pl, name)
            if site:
                out.append(site)
    return out


# --- pieces -------------------------------------------------------------------


def _piece(box: tuple, svg: str, cls: str) -> tuple[tuple, str]:
    return box, f'<g class="{cls}" pointer-events="none">{svg}</g>'


def _edge(name: Any) -> tuple[int, int] | None:
    return parse_edge(str(name)) if name else None


def _wall(pl: Plan) -> list[tuple[tuple, str]]:
    """Wall pieces, the pieces that closed it at the end (dashed), the
    gate, and where each end goes next (``cw``/``ccw``, dotted)."""
    wall = pl.view.get("wall") or {}
    out = []
    t = pl.t
    for names, dashed in ((wall.get("closing") or [], True), (wall.get("pieces") or [], False)):
        for name in names:
            e = _edge(name)
            if e:
                x0, y0, x1, y1 = edge_band(pl, e, t)
                out.append(_piece((x0 - 2, y0 - 2, x1 + 2, y1 + 2), A.wall_piece(x0, y0, x1, y1, dashed=dashed),
                                  "wall closing" if dashed else "wall"))
    g = _edge(wall.get("gate"))
    if g:
        x0, y0, x1, y1 = edge_band(pl, g, t)
        across = t * 1.9
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        svg = A.wall_piece(x0, y0, x1, y1) + A.gate(cx, cy, pl.u * 0.42, across, g[1] in (1, 3))
        r = max(pl.u * 0.21, across / 2) + 3
        out.append(_piece((min(x0, cx - r) - 2, min(y0, cy - r) - 2, max(x1, cx + r) + 2, max(y1, cy + r) + 2),
                          svg, "gate"))
    for end, info in sorted((wall.get("ends") or {}).items()):
        e = _edge((info or {}).get("next"))
        if e:
            out.append(_end_marker(pl, e, end, (info or {}).get("corner")))
    return out


def _end_marker(pl: Plan, e: tuple[int, int], end: str, corner: Any) -> tuple[tuple, str]:
    """Where wall end ``end`` goes next: the edge dotted, the end's name
    beside it, towards the edge's far corner (clear of the space's name
    and of a tower on the end's corner)."""
    x0, y0, x1, y1 = edge_band(pl, e)
    dx, dy = _OUT[e[1]]
    size = 14.0
    at = corner_xy(pl, corner) if corner else None
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if at is not None:                       # 0.72 of the way from the end's corner
        mx = at[0] + (mx - at[0]) * 1.44 - dx * pl.t * 0.22
        my = at[1] + (my - at[1]) * 1.44 - dy * pl.t * 0.22
    w = text_width(end, size, bold=True) / 2 + 3
    lx, ly = mx + dx * (pl.t / 2 + w + 2), my + dy * (pl.t / 2 + size * 0.6) + size * 0.36
    svg = (f'<rect x="{f(x0)}" y="{f(y0)}" width="{f(x1 - x0)}" height="{f(y1 - y0)}" fill="none" '
           f'stroke="{A.WALL_EDGE}" stroke-width="1.5" stroke-dasharray="2 3"/>'
           + text(lx, ly, end, size, fill=A.WALL_EDGE, bold=True, halo=True))
    box = (min(x0, lx - w) - 2, min(y0, ly - size) - 2, max(x1, lx + w) + 2, max(y1, ly + 4) + 2)
    return _piece(box, svg, f"end {end}")


def _followers(pl: Plan) -> list[tuple[tuple, str]]:
    out = []
    u = pl.u
    for fo in pl.view.get("followers") or []:
        seat = fo.get("seat")
        colour = pl.colours.get(seat, A.seat_fill(None, seat))
        if fo.get("posture") == "guard" or fo.get("edge"):
            e = _edge(fo.get("edge"))
            if not e:
                continue
            x0, y0, x1, y1 = edge_band(pl, e)
            cx, cy, s = (x0 + x1) / 2, (y0 + y1) / 2, max(14.0, u * 0.3)
            posture = "guard"
        else:
            sp = parse_space(str(fo.get("space")))
            if sp is None or fo.get("point") not in A.POINT_POS:
                continue
            x, y = pl.xy(sp)
            px, py = A.POINT_POS[fo["point"]]
            cx, cy, s = x + px * u, y + py * u, max(14.0, u * 0.32)
            posture = fo.get("posture") or "standing"
        role = fo.get("role", posture)
        tip = pl.say(Msg("{who}: {role}", who=_who(pl, seat), role=pl.say(ROLE_WORDS.get(role, str(role)))))
        svg = f"<title>{esc(tip)}</title>" + A.follower(cx, cy, s, colour, posture, seat)
        m = s * 0.6 + 2
        out.append(_piece((cx - m, cy - m, cx + m, cy + m), svg, f"follower {posture}"))
    return out


def _towers(pl: Plan) -> list[tuple[tuple, str]]:
    out = []
    s = max(16.0, pl.u * 0.3)
    for tw in pl.view.get("towers") or []:
        at = corner_xy(pl, tw.get("corner"))
        if at is None:
            continue
        seat = tw.get("seat")
        colour = pl.colours.get(seat, A.seat_fill(None, seat))
        tip = pl.say(Msg("tower of {who}: {points} points", who=_who(pl, seat), points=tw.get("points")))
        svg = f"<title>{esc(tip)}</title>" + A.tower(at[0], at[1], s, colour, tw.get("points"))
        m = s * 0.75 + 2
        out.append(_piece((at[0] - m, at[1] - m, at[0] + m, at[1] + m), svg, "tower"))
    return out


def _names(pl: Plan) -> list[tuple[tuple, str]]:
    """Historic buildings' names, under the building, over every tile."""
    out = []
    u = pl.u
    size = max(11.0, min(14.0, u * 0.2))
    for t in pl.view.get("tiles") or []:
        if not t.get("name"):
            continue
        spot = A.building_spot(list(t.get("slots") or []), _tile_regions(t), t.get("building_region"))
        x, y = pl.xy(t["y"] * W + t["x"])
        cx, cy = x + (spot[0] if spot else 0.5) * u, y + (spot[1] if spot else 0.5) * u + u * 0.13 + size
        words = str(t["name"]).split()
        lines = [" ".join(words)] if text_width(t["name"], size, bold=True) < u * 1.1 or len(words) < 2 else \
            [" ".join(words[:len(words) // 2]), " ".join(words[len(words) // 2:])]
        svg = "".join(text(cx, cy + k * size * 1.05, line, size, bold=True, halo=True) for k, line in enumerate(lines))
        w = max(text_width(line, size, bold=True) for line in lines) / 2 + 3
        out.append(_piece((cx - w, cy - size - 2, cx + w, cy + len(lines) * size * 1.05), svg, "name"))
    return out


def _last(pl: Plan) -> list[tuple[tuple, str]]:
    sp = parse_space(str(pl.view.get("last_space") or ""))
    if sp is None:
        return []
    x, y = pl.xy(sp)
    u = pl.u
    svg = (f'<rect x="{f(x + 1.5)}" y="{f(y + 1.5)}" width="{f(u - 3)}" height="{f(u - 3)}" fill="none" '
           f'stroke="{PICKED}" stroke-width="3" stroke-dasharray="6 4"/>')
    return [_piece((x - 1, y - 1, x + u + 1, y + u + 1), svg, "last")]


def pieces(pl: Plan) -> list[tuple[tuple, str]]:
    """Everything drawn over the sites, bottom to top: the latest tile's
    outline, the wall, followers and guards, towers, historic names."""
    return _last(pl) + _wall(pl) + _followers(pl) + _towers(pl) + _names(pl)
