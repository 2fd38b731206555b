"""Where everything lies on the Medina picture (SVG user units): the
squares inside the ring of wall spaces, the towers at the corners, the
margins for the coordinates and the strip below.
"""
from __future__ import annotations

from functools import lru_cache

from pbem.engine.medina import board as B


FONT = "DejaVu Sans"
U = 40            # square size, SVG user units
WB = 22           # wall band width
M = 24            # margin for the coordinates
STRIP = 92        # bottom strip with seats, tiles, phase and legend
X0 = M + WB
Y0 = M + WB
WIDTH = 2 * (M + WB) + B.COLS * U
HEIGHT = 2 * (M + WB) + B.ROWS * U + STRIP


def square_box(i: int) -> tuple[float, float, float, float]:
    """x, y, width, height of square ``i``."""
    r, c = divmod(i, B.COLS)
    return X0 + c * U, Y0 + r * U, U, U


def wall_box(w: int) -> tuple[float, float, float, float]:
    """x, y, width, height of wall space ``w`` (0-based)."""
    side = B.WALL_SIDE[w]
    first = B.SIDES[side][1]
    k = w - first
    if side == 0:
        return X0 + k * U, Y0 - WB, U, WB
    if side == 1:
        return X0 + B.COLS * U, Y0 + k * U, WB, U
    if side == 2:
        return X0 + (B.COLS - 1 - k) * U, Y0 + B.ROWS * U, U, WB
    return X0 - WB, Y0 + (B.ROWS - 1 - k) * U, WB, U


TOWER_CENTRE = {1: (X0 - WB / 2, Y0 - WB / 2), 2: (X0 + B.COLS * U + WB / 2, Y0 - WB / 2),
                3: (X0 + B.COLS * U + WB / 2, Y0 + B.ROWS * U + WB / 2),
                4: (X0 - WB / 2, Y0 + B.ROWS * U + WB / 2)}


STRIP_Y = Y0 + B.ROWS * U + WB + 30


SEAT_SLOT = 172   # the strip's width per seat


@lru_cache(maxsize=1)
def later_neighbours() -> tuple[tuple[int, ...], ...]:
    """For each site (squares, then wall spaces, in drawing order) the
    later sites whose box, half a stroke wider, meets its own."""
    boxes = [square_box(i) for i in range(B.SQUARES)] + [wall_box(w) for w in range(B.WALLS)]

    def meet(a, b) -> bool:
        return (a[0] - 0.5 < b[0] + b[2] + 0.5 and b[0] - 0.5 < a[0] + a[2] + 0.5
                and a[1] - 0.5 < b[1] + b[3] + 0.5 and b[1] - 0.5 < a[1] + a[3] + 0.5)
    return tuple(tuple(j for j in range(k + 1, len(boxes)) if meet(boxes[k], boxes[j])) for k in range(len(boxes)))
