"""A minimal PNG reader for tests (8-bit RGB/RGBA, not interlaced: what
resvg writes), so the tests need no imaging library."""
from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunks(data: bytes):
    assert data[:8] == SIGNATURE, "not a PNG"
    pos = 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        yield kind, body
        pos += 12 + length


def size(data: bytes) -> tuple[int, int]:
    kind, body = next(chunks(data))
    assert kind == b"IHDR"
    return struct.unpack(">II", body[:8])


class Image:
    """Pixels as RGBA tuples: ``img.pixel(x, y)``."""

    def __init__(self, data: bytes):
        raw = b""
        for kind, body in chunks(data):
            if kind == b"IHDR":
                self.width, self.height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
                self.bpp = 4 if ctype == 6 else 3
            elif kind == b"IDAT":
                raw += body
        raw = zlib.decompress(raw)
        stride = self.width * self.bpp
        rows, prev, pos = [], bytearray(stride), 0
        for _ in range(self.height):
            ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
            pos += 1 + stride
            for i in range(stride):
                a = line[i - self.bpp] if i >= self.bpp else 0
                b = prev[i]
                c = prev[i - self.bpp] if i >= self.bpp else 0
                if ftype == 1:
                    line[i] = (line[i] + a) & 255
                elif ftype == 2:
                    line[i] = (line[i] + b) & 255
                elif ftype == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif ftype == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    line[i] = (line[i] + pred) & 255
            rows.append(bytes(line))
            prev = line
        self.rows = rows

    def pixel(self, x: int, y: int) -> tuple[int, ...]:
        row = self.rows[y]
        px = tuple(row[x * self.bpp:(x + 1) * self.bpp])
        return px if self.bpp == 4 else px + (255,)

    def dark_pixels(self, x0: int, y0: int, x1: int, y1: int, *, below: int = 128) -> int:
        """How many pixels in the box [x0, x1) x [y0, y1) are darker than ``below``."""
        n = 0
        for y in range(y0, y1):
            for x in range(x0, x1):
                r, g, b, _ = self.pixel(x, y)
                if (r + g + b) / 3 < below:
                    n += 1
        return n
