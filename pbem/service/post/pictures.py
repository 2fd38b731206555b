"""Board pictures drawn at delivery, not while a turn resolves.

Drawing a board PNG takes hundreds of milliseconds of CPU (SVG of ~2000
elements through resvg), far more than everything else a turn costs. So a
notice is written to the outbox, in the turn's transaction, with a
*placeholder* in its inline image part: the bytes :data:`MARK` followed by
JSON ``{"game": <kind>, "view": <the seat's view, players named>,
"highlight": [sites], "lang": <the recipient's language>}`` — exactly what
the picture is drawn from. Outbox delivery calls
:func:`materialize` on the raw message just before sending it, which draws
the PNG and puts it in place of the placeholder (same Content-ID, so the
HTML's ``cid:`` reference holds). The seat's view is fixed when the notice
is written, so the picture shows the board as it was then, whatever
happened since.

The PNG is drawn by :func:`pbem.boards.render_png` (a static layer
rasterised once per process, the pieces and strip on top; the same picture
as resvg on the whole SVG within anti-aliasing, see
:mod:`pbem.boards.raster`), from the seat's view and highlights only.

If drawing fails the image part is dropped: the email carries everything
in words and still goes out.
"""
from __future__ import annotations

import base64
import json
import logging
from email import message_from_bytes, policy
from collections import OrderedDict
from typing import Any, Iterable

log = logging.getLogger(__name__)

#: first bytes of a placeholder image part
MARK = b"pbem-board-placeholder1\n"
# MARK is 24 bytes (a multiple of 3), so its base64 is a fixed prefix of the
# encoded part body: a cheap test for "has a placeholder" on the raw bytes.
_MARK_B64 = base64.b64encode(MARK)
assert len(MARK) % 3 == 0


def placeholder(game: str, view: dict[str, Any], highlight: Iterable[str] = (),
                closeup: tuple[float, float, float, float] | None = None, lang: str = "en") -> bytes:
    """The placeholder bytes for ``game``'s board drawn from ``view`` with
    ``highlight`` sites marked and its words in ``lang`` (``"fi"``); with ``closeup`` (a box in the board's user
    units, :func:`pbem.boards.closeup.window`) only that part, drawn larger
    (:func:`pbem.boards.closeup.render_png`). Raises ``KeyError`` when
    ``game`` has no board picture and ``TypeError`` when ``view`` is not
    JSON-serialisable."""
    from pbem.boards import board_module

    board_module(game)  # KeyError now, not at delivery
    spec = {"game": game, "view": view, "highlight": list(dict.fromkeys(s for s in highlight if s)),
            "lang": lang or "en"}
    if closeup is not None:
        spec["closeup"] = [float(v) for v in closeup]
    return MARK + json.dumps(spec, separators=(",", ":"), sort_keys=True).encode()


def has_placeholder(raw: bytes) -> bool:
    return _MARK_B64 in raw


#: drawn PNGs kept per process, most recently used last, keyed by
#: :func:`pbem.boards.picture_key` (a SHA-256 of what the picture is drawn
#: from, player names and language included: cheaper than drawing the SVG)
#: and the language and close-up box: a board is rasterised once for every
#: mail that shows exactly that board (seats told of the same step where nothing
#: seat-specific is drawn, a retry after an SMTP failure, a reminder soon
#: after its notice). The PNG comes from :func:`pbem.boards.render_png`
#: (static layer cached per process, only pieces, highlights and the player
#: strip drawn each time: ~20-40 ms instead of 150-250 ms for resvg on the
#: whole SVG) as a palette PNG of ~50-80 KB: 64 of them ~5 MB.
CACHE_SIZE = 64
_cache: OrderedDict[bytes, bytes] = OrderedDict()


def draw(data: bytes) -> bytes:
    """The PNG a placeholder stands for (drawn once per process for the
    same picture, see :data:`CACHE_SIZE`)."""
    from pbem import boards

    spec = json.loads(data[len(MARK):])
    lang = spec.get("lang") or "en"   # placeholders written before languages: English
    key = boards.picture_key(spec["game"], spec["view"], highlight=spec["highlight"], lang=lang)
    box = spec.get("closeup")
    key += repr((lang, None if box is None else tuple(box))).encode()
    png = _cache.get(key)
    if png is None:
        if box is None:
            png = boards.render_png(spec["game"], spec["view"], highlight=spec["highlight"], lang=lang)
        else:
            from pbem.boards import closeup

            png = closeup.render_png(spec["game"], spec["view"], tuple(box), highlight=spec["highlight"],
                                     lang=lang)
        _cache[key] = png
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    _cache.move_to_end(key)
    return png


def materialize(raw: bytes) -> bytes:
    """``raw`` (an RFC 5322 message) with every board placeholder replaced
    by its PNG; ``raw`` itself when it has none. Never raises for a picture
    that cannot be drawn (that part is dropped and the failure logged)."""
    if not has_placeholder(raw):
        return raw
    msg = message_from_bytes(raw, policy=policy.default)  # as compose wrote it
    for container in list(msg.walk()):
        if not container.is_multipart():
            continue
        parts = container.get_payload()
        for part in list(parts):
            if part.get_content_type() != "image/png":
                continue
            data = part.get_payload(decode=True) or b""
            if not data.startswith(MARK):
                continue
            try:
                png = draw(data)
            except Exception:  # a picture never stops a notice: the text carries everything
                log.exception("board picture for %s could not be drawn; sent without it",
                              msg.get("Message-ID"))
                parts.remove(part)
                continue
            part.set_payload(base64.encodebytes(png).decode("ascii"))  # headers (cid, base64) stay
    crlf = b"\r\n" in raw[:4096]  # keep the line ends the outbox stored (CRLF for SMTP)
    return msg.as_bytes(policy=msg.policy.clone(linesep="\r\n" if crlf else "\n"))


__all__ = ["MARK", "placeholder", "has_placeholder", "draw", "materialize"]
