"""Composed emails: structure, headers, escaping, dates in the recipient's
zone, the inline board, and that each kind says what it must."""
from __future__ import annotations

import email
from html.parser import HTMLParser
from datetime import datetime, timezone
from email import policy

import pytest
from hypothesis import given, settings, strategies as st
from markupsafe import escape

from pbem.mail import compose as c
from pbem.mail.flowed import plain_text
from pbem.mail.inbound import MailLoop, parse_inbound

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
SENT = datetime(2026, 11, 23, 16, 0, tzinfo=timezone.utc)
DEADLINE = datetime(2026, 11, 24, 16, 0, tzinfo=timezone.utc)
EVIL = '<script>alert("x")</script>&'


def envelope(**kw):
    base = dict(sender="pbem <pbem@pbem.example>", to_name="Matti Mäkelä", to_address="matti@example.fi",
                reply_to="play+12-3-aaaaaaaaaaaaaaaa@pbem.example", inbound_address="play@pbem.example",
                timezone="Europe/Helsinki", sent_at=SENT)
    base.update(kw)
    return c.Envelope(**base)


GAME = c.GameRef("La Città", 12, "http://localhost:5000/games/12")


def turn(**kw):
    base = dict(phase="year 2, round 3", seat="seat 3", deadline=DEADLINE,
                order_url="http://localhost:5000/games/12/seat/3",
                private_info="Hand: Market, Bath\nGold: 7", since_last=["Alice built a castle at F7"],
                legal_orders=["build castle F7", "pass"], order_help="One order per line.",
                examples=["take card 2\nbuild castle F7"], board_png=PNG, board_alt="The board after round 2")
    base.update(kw)
    return c.Turn(**base)


def reparse(msg):
    """What a mail client sees: the serialized bytes parsed again."""
    return email.message_from_bytes(msg.as_bytes(), policy=policy.default)


def parts(msg):
    m = reparse(msg)
    return m, plain_text(m), m.get_body(("html",)).get_content()


def test_format_deadline_in_recipient_zone():
    assert c.format_deadline(DEADLINE, "Europe/Helsinki") == "Tuesday 24 November 2026, 18:00 (Europe/Helsinki)"
    assert c.format_deadline(DEADLINE, "America/New_York") == "Tuesday 24 November 2026, 11:00 (America/New_York)"
    fi = c.format_deadline(DEADLINE, "Europe/Helsinki", "fi_FI")
    assert fi.startswith("tiistai 24. marraskuuta 2026") and fi.endswith("(Europe/Helsinki)")
    assert c.format_deadline(DEADLINE, "Not/AZone") == "Tuesday 24 November 2026, 16:00 (UTC)"
    with pytest.raises(ValueError):
        c.format_deadline(datetime(2026, 1, 1), "UTC")
    # summer time: Helsinki is UTC+3 in July
    assert "18:00" in c.format_deadline(datetime(2026, 7, 1, 15, 0, tzinfo=timezone.utc), "Europe/Helsinki")


def test_turn_notice_structure_and_headers():
    msg = c.turn_notice(envelope(msgid_tag="pbem.12.2.7.turn"), GAME, turn())
    m, text, html = parts(msg)
    assert m["Subject"] == "[pbem] La Città #12 — your move (year 2, round 3)"
    assert m["Reply-To"] == "play+12-3-aaaaaaaaaaaaaaaa@pbem.example"
    assert m["Auto-Submitted"] == "auto-generated"
    assert m["X-Auto-Response-Suppress"] == "All"
    assert m["X-PBEM-Loop"] == "play@pbem.example"
    assert m["Message-ID"].startswith("<pbem.12.2.7.turn.") and m["Message-ID"].endswith("@pbem.example>")
    assert m["Date"] == "Mon, 23 Nov 2026 16:00:00 +0000"
    assert m.get_content_type() == "multipart/alternative"
    alt = m.get_payload()
    assert [p.get_content_type() for p in alt] == ["text/plain", "multipart/related"]
    related = alt[1].get_payload()
    assert [p.get_content_type() for p in related] == ["text/html", "image/png"]
    img = related[1]
    assert img.get_content() == PNG
    assert f'src="cid:{img["Content-ID"][1:-1]}"' in html
    assert 'alt="The board after round 2"' in html
    # the text part is complete on its own
    for needle in ["It is your move", "Tuesday 24 November 2026, 18:00 (Europe/Helsinki)",
                   "http://localhost:5000/games/12/seat/3", "Alice built a castle at F7", "Gold: 7",
                   "build castle F7", "pass", "One order per line.", "take card 2"]:
        assert needle in text, needle
        assert needle.split("\n")[0] in html or needle == "Gold: 7", needle


def test_no_board_means_no_related_part():
    m, text, html = parts(c.turn_notice(envelope(), GAME, turn(board_png=None)))
    assert [p.get_content_type() for p in m.get_payload()] == ["text/plain", "text/html"]
    assert "cid:" not in html


CLOSEUP = b"\x89PNG\r\n\x1a\n" + b"\x01" * 64


def test_closeup_picture_attached_after_the_board_with_alt_text_and_caption():
    alt = "Close-up of the board around your legal sites D4, D5"
    for build in (c.turn_notice, c.reminder):
        m, text, html = parts(build(envelope(), GAME, turn(closeup_png=CLOSEUP, closeup_alt=alt)))
        related = m.get_payload()[1].get_payload()
        assert [p.get_content_type() for p in related] == ["text/html", "image/png", "image/png"]
        board, near = related[1], related[2]
        assert near.get_content() == CLOSEUP and near.get_filename() == "closeup.png"
        assert near["Content-ID"] != board["Content-ID"]
        board_at = html.index(f'src="cid:{board["Content-ID"][1:-1]}"')
        near_at = html.index(f'src="cid:{near["Content-ID"][1:-1]}"')
        assert board_at < near_at                       # the whole board first, then the close-up
        assert f'alt="{alt}"' in html and f"{alt}:</p>" in html  # alt text, and the same words as a caption
        assert 'max-width:315px' in html[near_at - 600:near_at + 600]


def test_no_closeup_without_a_board_or_without_a_closeup():
    m, _, html = parts(c.turn_notice(envelope(), GAME, turn(closeup_png=None)))
    assert [p.get_content_type() for p in m.get_payload()[1].get_payload()] == ["text/html", "image/png"]
    assert "Close-up" not in html
    m, _, html = parts(c.turn_notice(envelope(), GAME, turn(board_png=None, closeup_png=CLOSEUP,
                                                           closeup_alt="Close-up")))
    assert [p.get_content_type() for p in m.get_payload()] == ["text/plain", "text/html"]
    assert "cid:" not in html


HELP = """Game orders: one per line.

Cards
  gold                take 2 gold
  build farm F6       a small building: farm, quarry,
                      market or statue
  palazzo F6    dom F6
                      build that building

Example turn:
  gold
"""


class _HelpParser(HTMLParser):
    """The text of each <code> and of the block right under it, in the help box."""

    def __init__(self):
        super().__init__()
        self.codes, self.in_code, self.pre = [], False, 0

    def handle_starttag(self, tag, attrs):
        self.in_code = self.in_code or tag == "code"
        self.pre += tag == "pre"
        if tag == "code":
            self.codes.append("")

    def handle_endtag(self, tag):
        if tag == "code":
            self.in_code = False

    def handle_data(self, data):
        if self.in_code:
            self.codes[-1] += data


def test_order_help_in_html_is_rows_not_a_two_column_pre():
    m, text, html = parts(c.turn_notice(envelope(), GAME, turn(order_help=HELP)))
    section = html[html.index("How to write orders"):]
    p = _HelpParser()
    p.feed(section)
    assert p.pre == 0                      # no preformatted two-column block to wrap into itself
    assert p.codes == ["gold", "build farm F6", "palazzo F6    dom F6", "gold"]
    # each meaning in one piece right under its order, wrapped lines joined
    assert section.index("build farm F6") < section.index("a small building: farm, quarry, market or statue") \
        < section.index("palazzo F6")
    assert "build that building" in section
    assert ">Cards</p>" in section and ">Example turn:</p>" in section
    # the text part keeps the help as written
    assert "  build farm F6       a small building: farm, quarry,\n" in text.replace("\r\n", "\n")


def test_user_written_text_escaped_in_html():
    evil_game = c.GameRef(EVIL, 12, "http://x/games/12")
    msg = c.turn_notice(envelope(to_name=EVIL), evil_game,
                        turn(since_last=[EVIL], private_info=EVIL, legal_orders=[EVIL], examples=[EVIL]))
    _, text, html = parts(msg)
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert EVIL in text  # the text part shows it as written
    refusal = c.order_refusal(envelope(), GAME, lines_read=[EVIL], failed_line=1, reason=EVIL, turn=turn())
    assert "<script>" not in parts(refusal)[2]
    over = c.game_over(envelope(), GAME, scores=[c.ScoreLine(1, EVIL, 30)])
    assert "<script>" not in parts(over)[2]
    inv = c.invitation(envelope(), GAME, host_name=EVIL, seat=1, other_players=[EVIL],
                       signin_url="http://x/signin/abc", deadline_hours=48)
    assert "<script>" not in parts(inv)[2]


def test_reminder_says_time_left():
    m, text, _ = parts(c.reminder(envelope(sent_at=datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)),
                                  GAME, turn()))
    assert m["Subject"] == "[pbem] La Città #12 — reminder: your move, 12 hours left"
    assert "Time left: 12 hours." in text and "default order" in text


def test_invitation():
    m, text, html = parts(c.invitation(envelope(reply_to=None), GAME, host_name="Alice", seat=3,
                                       other_players=["Alice", "Bob"], signin_url="http://localhost:5000/signin/T0K",
                                       deadline_hours=48, link_expires_at=DEADLINE, game_kind="La Città"))
    assert m["Subject"] == "[pbem] La Città #12 — Alice invites you to play"
    assert m["Reply-To"] is None
    assert "http://localhost:5000/signin/T0K" in text and 'href="http://localhost:5000/signin/T0K"' in html
    assert "48 hours" in text and "Alice, Bob" in text
    assert "Tuesday 24 November 2026, 18:00 (Europe/Helsinki)" in text


def test_turn_result_and_missed_turn():
    m, text, _ = parts(c.turn_result(envelope(), GAME, c.Result(
        phase="year 2, round 3", events=["Bob built a castle at G2"], missed=["Carla (seat 3)"],
        next_up="Alice (seat 1) is to move.")))
    assert m["Subject"] == "[pbem] La Città #12 — year 2, round 3: missed deadline"
    assert "Bob built a castle at G2" in text and "Carla (seat 3)" in text and "Alice (seat 1) is to move." in text
    m, text, html = parts(c.missed_turn(envelope(), GAME, phase="year 2, round 3", default_order="pass",
                                        missed_count=2, board_png=PNG))
    assert m["Subject"] == "[pbem] La Città #12 — you missed a turn (year 2, round 3)"
    assert "The default order was applied for you: pass" in text and "so far: 2" in text
    assert "cid:" in html


def test_confirmation_quotes_lines_and_threads():
    env = envelope(in_reply_to="<CAF123@mail.gmail.com>", references=["<notice-1@pbem.example>"])
    m, text, html = parts(c.order_confirmation(env, GAME, phase="year 2, round 3",
                                               lines_read=["take card 2", "build castle F7"],
                                               outcome=["You built a castle at F7"]))
    assert m["Subject"] == "[pbem] La Città #12 — orders accepted (year 2, round 3)"
    assert m["In-Reply-To"] == "<CAF123@mail.gmail.com>"
    assert m["References"] == "<notice-1@pbem.example> <CAF123@mail.gmail.com>"
    assert m["Auto-Submitted"] == "auto-replied"
    assert "1. take card 2" in text and "2. build castle F7" in text and "You built a castle at F7" in text


def test_refusal_marks_failed_line_and_legal_orders():
    m, text, html = parts(c.order_refusal(envelope(), GAME, lines_read=["take card 2", "build castle Z9", "pass"],
                                          failed_line=2, reason="there is no site Z9", turn=turn()))
    assert m["Subject"] == "[pbem] La Città #12 — order refused: line 2 (year 2, round 3)"
    # the reason said once, at the top; the line is marked
    assert "Line 2 was refused: there is no site Z9" in text and "2. build castle Z9    <== REFUSED\n" in text
    assert text.count("there is no site Z9") == 1
    assert "  1. take card 2\n" in text and "NOT applied" in text
    assert "Legal orders now" in text and "build castle F7" in text
    assert "Tuesday 24 November 2026, 18:00 (Europe/Helsinki)" in text
    # without a turn: still a clear answer
    m, text, _ = parts(c.order_refusal(envelope(), GAME, lines_read=[], failed_line=None,
                                       reason="it is not your move"))
    assert m["Subject"] == "[pbem] La Città #12 — order refused: not applied"
    assert "Refused: it is not your move" in text


def test_legal_orders_capped():
    many = [f"build castle A{i}" for i in range(c.MAX_LEGAL_SHOWN + 7)]
    _, text, html = parts(c.turn_notice(envelope(), GAME, turn(legal_orders=many)))
    assert f"build castle A{c.MAX_LEGAL_SHOWN - 1}" in text
    assert f"build castle A{c.MAX_LEGAL_SHOWN}\n" not in text
    assert "and 7 more on the order page" in text and "7 more" in html


def test_game_over_scores_and_ties():
    scores = [c.ScoreLine(2, "Bob", 25, "9 gold"), c.ScoreLine(1, "Alice", 31, "", is_you=True),
              c.ScoreLine(3, "Carla", 12)]
    m, text, html = parts(c.game_over(envelope(), GAME, scores=scores, final_view="Gold: 3", board_png=PNG))
    assert m["Subject"] == "[pbem] La Città #12 — game over: Alice wins"
    assert text.index("1. Alice: 31 points") < text.index("2. Bob: 25 points (9 gold)") < text.index("3. Carla")
    assert "<-- you" in text
    tie = c.game_over(envelope(), GAME, scores=[c.ScoreLine(1, "A", 9), c.ScoreLine(1, "B", 9)])
    assert tie["Subject"].endswith("game over: shared victory: A, B")


def test_our_own_mail_is_recognised_as_loop_by_inbound():
    raw = c.turn_notice(envelope(), GAME, turn()).as_bytes()
    with pytest.raises(MailLoop):
        parse_inbound(raw)


_user_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)


class _TagCollector(HTMLParser):
    """The sequence of tags (and attribute names) an HTML document holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[str, ...]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(sorted(name for name, _ in attrs))))

    def handle_endtag(self, tag):
        self.tags.append(("/" + tag, ()))


def _tags(html: str) -> list[tuple[str, tuple[str, ...]]]:
    collector = _TagCollector()
    collector.feed(html)
    collector.close()
    return collector.tags


def _notice_html(name: str, title: str, event: str, order: str):
    msg = c.turn_notice(envelope(to_name=name), c.GameRef(title, 5), turn(since_last=[event], legal_orders=[order]))
    return parts(msg)  # serializes and parses back: no header injection, no crash


@settings(max_examples=60, deadline=None)
@given(name=_user_text, title=_user_text, event=_user_text, order=_user_text)
def test_any_user_text_is_escaped_and_never_breaks_headers(name, title, event, order):
    m, text, html = _notice_html(name, title, event, order)
    assert "\n" not in m["Subject"] and "\n" not in str(m["To"])
    for value in (event, order):
        if value.strip() and "\r" not in value and not any(ch in value for ch in "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
            assert value.strip() in text
    # every user-written value appears in the HTML in its escaped form ...
    for value in (name, title, event, order):
        value = value.replace("\r\n", "\n").replace("\r", "\n")  # line endings are the transport's
        assert str(escape(value)) in html
    # ... and none of it adds, removes or changes a tag: the document has the
    # same markup as the one made from harmless text.
    _, _, benign = _notice_html("x", "x", "x", "x")
    assert _tags(html) == _tags(benign)


def test_footer_asks_for_orders_only_when_orders_are_due():
    ask = "Reply to this email with your orders"
    assert ask in parts(c.turn_notice(envelope(), GAME, turn()))[1]
    assert ask in parts(c.order_refusal(envelope(), GAME, lines_read=["x"], failed_line=1, reason="r",
                                        turn=turn()))[1]
    assert ask not in parts(c.turn_notice(envelope(reply_to=None), GAME, turn()))[1]
    for msg in [c.game_over(envelope(), GAME, scores=[c.ScoreLine(1, "A", 3)]),
                c.turn_result(envelope(), GAME, c.Result(phase="p")),
                c.invitation(envelope(), GAME, host_name="A", seat="seat 1", other_players=[],
                             signin_url="http://x/s", deadline_hours=48)]:
        _, text, html = parts(msg)
        assert ask not in text and ask not in html
