"""``format=flowed`` text (RFC 3676): the decoder, quote depth by quote
depth, and the encoder of pbem's own text parts (:func:`encode_flowed`).

Python's email package leaves flowed text as it is, and no maintained
library on PyPI decodes or encodes it (``formatflowed``, the only one, has
had no release since 2016), so this is the small codec of RFC 3676 §4.

Decoding:

- A line's *quote depth* is the number of ``>`` at its very start
  (§4.5); the rest, after removing one space of space-stuffing (§4.4),
  is its content.
- A line whose content ends in a space is *flowed*: it joins the next line,
  but only when the next line has the **same quote depth** (§4.5: "if the
  quote depth changes, the line is treated as fixed"). A player's answer
  written right under a quoted line that ends in a space therefore stays
  a line of its own instead of vanishing into the quote.
- The signature separator ``-- `` is never flowed (§4.3).
- ``delsp=yes`` (§4.2): the space that marks a soft break is deleted.

The output is plain lines, each quoted line written back as
``"> " * depth + content`` (one level of ``>`` per depth).

Encoding (:func:`encode_flowed`, ``delsp=no``, §4.2): a line longer than
the width is cut after spaces into lines that end in a space (soft breaks),
never inside a word or a URL; a line not longer than the width, and a line
meant as fixed (indented, box drawing, a text board's grid row) is left as
it is; a rule (one of ``-=_~*#`` repeated, a heading's underline) longer
than the width is cut to the width, the one change to what a reader sees;
lines that start with a space, ``>`` or ``From `` are space-stuffed
(§4.4); the signature separator ``-- `` stays (§4.3).
"""
from __future__ import annotations

import re

from .text_board import _grid_like

__all__ = ["decode_flowed", "encode_flowed", "plain_text", "quote_depth"]


def quote_depth(line: str) -> tuple[int, str]:
    """``(depth, content)`` of one raw flowed line: the ``>`` at its start
    counted (§4.5), one space of space-stuffing removed (§4.4)."""
    depth = 0
    while depth < len(line) and line[depth] == ">":
        depth += 1
    content = line[depth:]
    if content.startswith(" "):
        content = content[1:]
    return depth, content


def _is_flowed(content: str) -> bool:
    return content.endswith(" ") and content != "-- "


def decode_flowed(text: str, *, delsp: bool = False) -> str:
    """Undo ``format=flowed``: soft breaks joined within one quote depth,
    space-stuffing removed. ``text`` may use ``\\r\\n`` or ``\\n``. Never
    raises on any ``str``. Linear in the text: a paragraph's pieces are
    collected in a list and joined once (inbound mail may hold 40,000 soft
    breaks in a row)."""
    out: list[str] = []
    parts: list[str] | None = None  # pieces of the paragraph being joined
    depth_of = 0

    for raw in text.replace("\r\n", "\n").split("\n"):
        depth, content = quote_depth(raw.rstrip("\r"))
        if parts is not None and depth != depth_of:
            # a flowed line followed by another quote depth is fixed (§4.5)
            out.append(("> " * depth_of) + "".join(parts) if depth_of else "".join(parts))
            parts = None
        if parts is None:
            parts, depth_of = [], depth
        if _is_flowed(content):
            parts.append(content[:-1] if delsp else content)
        else:
            parts.append(content)
            out.append(("> " * depth_of) + "".join(parts) if depth_of else "".join(parts))
            parts = None
    if parts is not None:
        out.append(("> " * depth_of) + "".join(parts) if depth_of else "".join(parts))
    return "\n".join(out)


def plain_text(msg) -> str:
    """The text of ``msg``'s ``text/plain`` body (an ``EmailMessage``), with
    soft breaks joined when its Content-Type says ``format=flowed``
    (honouring ``delsp``); ``""`` when it has no plain part."""
    part = msg.get_body(("plain",))
    if part is None:
        return ""
    text = part.get_content()
    if str(part.get_param("format", "")).lower() != "flowed":
        return text
    return decode_flowed(text, delsp=str(part.get_param("delsp", "no")).lower() == "yes")


#: box drawing and block elements: a line holding one is drawn, not prose
_DRAWN = re.compile("[\u2500-\u259f]")
#: a rule: one punctuation character repeated (a heading's underline)
_RULE = re.compile(r"([-=_~*#])\1+")
#: a word with the spaces after it (the last word of a line has none)
_WORD = re.compile(r"[^ ]+ *")


def _fixed(line: str) -> bool:
    """A line meant as it is: indented, drawn, or a grid row of a text board."""
    return line[:1] in (" ", "\t") or bool(_DRAWN.search(line)) or _grid_like(line)


def _stuffed(line: str) -> str:
    """``line`` space-stuffed if a decoder would misread its start (§4.4)."""
    return " " + line if line.startswith((" ", ">", "From ")) else line


def _wrap(line: str, width: int) -> list[str]:
    """``line`` cut after spaces into pieces of at most ``width`` characters
    once stuffed (a word longer than that alone on its piece); every piece
    but the last ends in a space. No piece is the signature separator."""
    pieces: list[str] = []
    current = ""
    for word in _WORD.findall(line):
        if current and current != "-- " and len(_stuffed(current + word)) > width:
            pieces.append(current)
            current = word
        else:
            current += word
    return [*pieces, current]


def encode_flowed(text: str, width: int = 78) -> str:
    """``text`` (lines split on ``\\n``) as ``format=flowed; delsp=no``
    (RFC 3676 §4): trailing spaces of each line trimmed (§4.2: they would
    read as soft breaks) but on ``-- ``; a line longer than ``width`` once
    stuffed and not fixed (module docstring) cut into soft-broken lines of
    at most ``width`` characters, a word or URL longer than that on a line
    of its own; a rule longer than ``width`` cut to ``width``; every line
    space-stuffed where it must be (§4.4). ``decode_flowed(encode_flowed(t))
    == t`` for a ``t`` whose lines have no trailing spaces and no rule
    longer than ``width``. ``width`` >= 2; never raises on any ``str``."""
    out: list[str] = []
    for line in text.split("\n"):
        line = line if line == "-- " else line.rstrip(" ")
        if len(line) > width and _RULE.fullmatch(line):
            line = line[:width]
        if len(_stuffed(line)) <= width or _fixed(line):
            out.append(_stuffed(line))
        else:
            out.extend(_stuffed(piece) for piece in _wrap(line, width))
    return "\n".join(out)
