"""The talk mail's HTML part (issue 26, brief h25 item 5): a message's
http(s) links are clickable (``rel`` nofollow, as on the page), everything
else is escaped text; the text part keeps the message as written."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given, settings, strategies as st

from pbem.mail.flowed import plain_text
from pbem.mail.talk_mail import TalkLine, messages

from .test_compose import EVIL, GAME, envelope


def _mail(body: str) -> tuple[str, str]:
    msg = messages(envelope(), GAME, [TalkLine("Bruno → everyone, 12:30", body)], reply_to_whom="everyone")
    return plain_text(msg), msg.get_body(("html",)).get_content()


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.scripts = [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs))
        self.scripts += tag == "script"


def _links(html: str) -> _Links:
    p = _Links()
    p.feed(html)
    return p


def test_a_link_in_a_message_is_clickable_and_the_text_around_it_stays():
    text, html = _mail("Deal? See https://example.org/rules?a=1&b=2 first.\nBruno")
    found = [a for a in _links(html).links if a.get("href", "").startswith("https://example.org")]
    assert [a["href"] for a in found] == ["https://example.org/rules?a=1&b=2"]
    assert "nofollow" in found[0]["rel"] and "noopener" in found[0]["rel"]
    assert "Deal? See https://example.org/rules?a=1&b=2 first.\r\nBruno" in text or \
        "Deal? See https://example.org/rules?a=1&b=2 first.\nBruno" in text


def test_markup_in_a_message_is_text_never_html():
    _text, html = _mail(f'{EVIL} <a href="javascript:alert(1)">x</a> http://example.org/"onmouseover="x')
    parsed = _links(html)
    assert parsed.scripts == 0
    assert not any((a.get("href") or "").startswith("javascript") or "onmouseover" in a for a in parsed.links)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
                          st.sampled_from(["https://example.org/x", "http://a.b/c?d=<e>", "<b>", "&amp;", '"'])),
                max_size=6))
def test_any_message_makes_no_tag_but_links(parts):
    """Whatever a player writes, the mail's message paragraph holds no tag
    but ``<a>`` to an http(s) or mailto address."""
    body = " ".join(parts)
    _text, html = _mail(body)
    paragraph = re.search(r'padding-left:8px;">(.*?)</p>', html, re.S).group(1)
    tags = re.findall(r"<(/?)(\w+)", paragraph)
    assert all(name == "a" for _close, name in tags), paragraph
    for a in _links(paragraph).links:
        assert re.match(r"(https?://|mailto:)", a["href"]), a
