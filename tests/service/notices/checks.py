"""What every mail pbem sends must be, whatever its kind (the checks of
test_every_kind): no English left in a translated mail (the catalog's
msgids, read with Babel), lines a mail reader shows unbroken (RFC 5322
2.1.1: 78 characters, URLs excepted), links that are links, absolute and
on ``BASE_URL``, and nothing that belongs to another seat. Each check
returns the list of what is wrong (empty: fine)."""
from __future__ import annotations

import functools
import re
from email.message import EmailMessage
from email.utils import getaddresses
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po
from flask import current_app

import pbem

URL = re.compile(r"https?://[^\s<>\"')]+")
#: a placeholder of a msgid: %(name)s, %s, {name}
HOLE = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{[^{}]*\}")
CATALOGS = Path(pbem.__file__).parent / "translations"
#: the Tally test game's own refusal (tests/service/tinygame.py), English
#: only; pbem's own "{order} is not legal now." ends with a full stop
TEST_GAME = re.compile(r"(?:add|bid) \d+ is not legal now(?!\.)")
#: fragments of msgids the player may meet in English by design (none so far)
SAME_IN_ENGLISH: frozenset[str] = frozenset()


def _segments(msgid: str, min_words: int) -> list[str]:
    """The literal pieces of ``msgid`` between its placeholders, of at
    least ``min_words`` words, whitespace collapsed."""
    pieces = (" ".join(p.split()).strip(" .,:;()—-") for p in HOLE.split(msgid))
    return [p for p in pieces if len(p.split()) >= min_words]


@functools.lru_cache(maxsize=None)
def english_pieces(lang: str, min_words: int) -> tuple[str, ...]:
    """Every English piece of ``min_words`` words or more of ``lang``'s
    catalog that the catalog does not keep as it is in its translation."""
    with open(CATALOGS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f, locale=lang)
    found = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strs = message.string if isinstance(message.string, tuple) else (message.string,)
        translated = " ".join(" ".join(s.split()) for s in strs if s)
        for msgid in ids:
            found.update(p for p in _segments(msgid, min_words)
                         if p not in translated and p not in SAME_IN_ENGLISH)
    return tuple(sorted(found, key=len, reverse=True))


def english_left(text: str, lang: str, min_words: int = 4) -> list[str]:
    """The catalog's English sentences (pieces of more than 3 words) that
    stand verbatim in ``text`` of a ``lang`` mail."""
    flat = " ".join(TEST_GAME.sub("", text).split())
    return [p for p in english_pieces(lang, min_words)
            if p in flat and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", flat)]


def long_lines(text: str, limit: int = 78) -> list[str]:
    """Lines over ``limit`` characters once their URLs are taken out."""
    return [line for line in text.splitlines() if len(URL.sub("", line)) > limit]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.bare: list[str] = []
        self._in_a = 0
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._in_a += 1
            self.hrefs.append(dict(attrs).get("href") or "")

    def handle_endtag(self, tag):
        if tag == "a" and self._in_a:
            self._in_a -= 1

    def handle_data(self, data):
        self.text.append(data)
        if not self._in_a:
            self.bare.extend(URL.findall(data))


def html_text(html: str) -> str:
    """What the HTML part shows (its text, tags and entities gone)."""
    parser = _Links()
    parser.feed(html)
    return " ".join(parser.text)


def bad_links(text: str, html: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Links of the text part and ``<a href>`` of the HTML part not
    absolute on ``BASE_URL`` (``mailto:`` aside), and URLs of the HTML part
    written as text instead of a link. ``allowed``: URLs that are no link
    (an address the player gave, named back to them)."""
    base = current_app.config["BASE_URL"] + "/"
    parser = _Links()
    parser.feed(html)
    wrong = [f"not a link in the HTML part: {u}" for u in parser.bare if u not in allowed]
    for where, urls in (("text", URL.findall(text)), ("html", parser.hrefs)):
        wrong += [f"{where}: {u!r} is not on {base}" for u in urls
                  if not u.startswith((base, "mailto:")) and u.rstrip(".,") not in allowed]
    return wrong


def _recipient(msg: EmailMessage) -> tuple[int | None, str]:
    """(player id or ``None`` for an address with no player yet, address)."""
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    address = getaddresses([str(msg["To"])])[0][1]
    return db.session.execute(db.select(Player.id).where(Player.email == address)).scalar_one_or_none(), address


def _readable(msg: EmailMessage) -> str:
    """Every header and every text part, decoded."""
    heads = "\n".join(f"{k}: {v}" for k, v in msg.items())
    return heads + "\n".join(p.get_content() for p in msg.walk() if p.get_content_maintype() == "text")


def others_secrets(msg: EmailMessage) -> list[str]:
    """Reply addresses, calendar feeds, sign-in and preferences tokens in
    ``msg`` that are not its recipient's own."""
    from pbem.mail.tokens import BadToken, read_reply_address, read_signin_token
    from pbem.service.accounts.calendar_link import player_of_feed
    from pbem.service.core.links import read_preferences_token

    cfg, text = current_app.config, _readable(msg)
    me, address = _recipient(msg)
    base, _, domain = cfg["INBOUND_ADDRESS"].partition("@")
    wrong = []
    for reply in set(re.findall(rf"{re.escape(base)}\+[\w.=-]+@{re.escape(domain)}", text)):
        if "+bounce-" in reply:
            continue
        try:
            holder = read_reply_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], reply).holder
        except BadToken:
            wrong.append(f"a reply address that does not verify: {reply}")
            continue
        if holder is not None and int(holder) != me:
            wrong.append(f"another player's reply address: {reply}")
    for token in set(re.findall(r"/calendar/([\w.-]+)\.ics", text)):
        owner = player_of_feed(token)
        if owner is None or owner.id != me:
            wrong.append(f"another player's calendar feed: {token}")
    for token in set(re.findall(r"/signin/([\w.-]+)", text)):
        subject = read_signin_token(cfg["SECRET_KEY"], token).subject
        mine = (me, None) if me is not None else (None, address)   # a new address's link signs it up
        if not isinstance(subject, dict) or (subject.get("player"), subject.get("email")) != mine:
            wrong.append(f"a sign-in link for someone else: {subject}")
    for token in set(re.findall(r"/mail/(?:preferences|unsubscribe)/([\w.-]+)", text)):
        if read_preferences_token(token) != me:
            wrong.append(f"another player's preferences link: {token}")
    return wrong
