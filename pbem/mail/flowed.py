"""Decoding ``format=flowed`` text (RFC 3676), quote depth by quote depth.

Python's email package leaves flowed text as it is, and no maintained
library on PyPI decodes it, so this is the small decoder of RFC 3676 §4:

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
"""
from __future__ import annotations

__all__ = ["decode_flowed", "quote_depth"]


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
