"""A page's text as a reader sees it: tags dropped, whitespace folded, so a
test can say "Ada plays ..." whatever markup names the player."""
from __future__ import annotations

import re
from html.parser import HTMLParser


class _Text(HTMLParser):
    SKIP = {"script", "style", "svg"}

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.depth += 1
        elif tag in ("p", "li", "td", "th", "div", "section", "h1", "h2", "h3", "br", "tr"):
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def text_of(html: str) -> str:
    """The visible text of ``html`` (no scripts, styles or inline SVG),
    runs of whitespace as one space."""
    p = _Text()
    p.feed(html)
    return re.sub(r"\s+", " ", "".join(p.parts)).strip()
