"""The quote finder's parts, rule by rule: flowed text per quote depth,
separators and footers in any language, header lines above a located copy,
greetings and sign-offs, suggestions, order lists."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from pbem.mail.clutter import is_footer, is_separator
from pbem.mail.flowed import decode_flowed
from pbem.mail.order_lists import arrange
from pbem.mail.quote_header import header_start
from pbem.mail.quotes import find_notice
from pbem.mail.reading import split_letter
from pbem.mail.reply_text import read_reply
from pbem.mail.suggest import suggest

NOTICE = """Hello Ada,

It is your move in Medina #3 (Turn 2), seat 1.

Example turn:
  palace grey C4
  stable D4
Orders are not case-sensitive; Finnish names work too (palatsi harmaa C4).
"""


def test_flowed_never_joins_across_quote_depths():
    # RFC 3676 §4.5: a flowed line followed by another quote depth is fixed
    text = "> Example turn: \nstable D4\n"
    assert decode_flowed(text) == "> Example turn: \nstable D4\n"
    assert decode_flowed("> a soft \n> break\nmine \nwrapped\n") == "> a soft break\nmine wrapped\n"
    assert decode_flowed("one \ntwo", delsp=True) == "onetwo"
    assert decode_flowed("-- \nsig") == "-- \nsig"
    assert decode_flowed(">> deep \n> shallow") == "> > deep \n> shallow"


def test_medina_flowed_turn_is_read_whole():
    """Issue #13: the second piece, written under a quoted line ending in a
    space, vanished into the quote and the first piece was applied alone."""
    quoted = "\n".join("> " + l + (" " if l.endswith(":") else "") for l in NOTICE.splitlines())
    flowed = "palace grey C4\n\nOn Mon, 23 Nov 2026 at 16:44, pbem <pbem@pbem.test> wrote:\n" + quoted + "\nstable D4\n"
    body = decode_flowed(flowed)
    reading = read_reply(body, notice_texts=[NOTICE], sender_tokens=["pbem"])
    assert reading.found and reading.orders == ["palace grey C4", "stable D4"]


def _text_per_depth(text: str) -> dict[int, str]:
    """Each quote depth's characters, spaces left out, in order."""
    out: dict[int, str] = {}
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        out[depth] = out.get(depth, "") + line.lstrip(">").replace(" ", "")
    return {d: t for d, t in out.items() if t}


@given(st.lists(st.tuples(st.integers(0, 3), st.text(alphabet="ab ", max_size=12)), max_size=12))
def test_flowed_keeps_every_quote_depth_apart(lines):
    """Property: decoding never moves text from one quote depth to another."""
    raw = "\n".join(">" * d + (" " if d else "") + t for d, t in lines)
    decoded = decode_flowed(raw)
    assert _text_per_depth(decoded.replace("> ", ">")) == _text_per_depth(raw)


@pytest.mark.parametrize("line", [
    "________________________________", "-----", "----- Original Message -----", "-----Mensaje original-----",
    "-------- Oprindelig besked --------", "-----Messaggio originale-----", "-----Oprindelig meddelelse-----",
    "-------- Message d'origine --------", "---------- Forwarded message ---------", "* * *",
])
def test_separators(line):
    assert is_separator(line)


@pytest.mark.parametrize("line", [
    "Sent from my iPhone", "Envoyé à partir de Outlook pour iOS", "Envoyé de mon iPhone", "Von meinem iPhone gesendet",
    "Gesendet von Mail für Windows", "Enviado desde mi iPhone", "Enviado do meu iPhone", "Inviato da iPhone",
    "Verzonden vanaf mijn iPhone", "Sendt fra min iPhone", "Skickat från min iPhone", "Lähetetty iPhonesta",
    "Odesláno z iPhonu", "Enviat des del meu iPhone", "Отправлено с iPhone", "Wysłane z iPhone'a",
    "Get Outlook for Android", "Sent from my Android device with K-9 Mail. Please excuse my brevity.",
])
def test_phone_footers(line):
    assert is_footer(line)


@pytest.mark.parametrize("line", ["build farm E6", "gold", "pass", "- palace grey C4", "stable D4",
                                  "starve E3 2, J9 1", "wall W12", "bread and games F6 x2 education health"])
def test_orders_are_never_clutter(line):
    assert not is_footer(line) and not is_separator(line)


@pytest.mark.parametrize("above", [
    ["On Mon, 23 Nov 2026 at 16:44, pbem <", "play@pbem.test> wrote:"],
    ["Le lun. 23 nov. 2026 à 16:44, pbem <", "play@pbem.test> a", "écrit :"],
    ["pbem napsal(a) dne 23. 11. 26 v 16:44:"],
    ["- Le 23 nov. 26, à 16:44, pbem <pbem@pbem.test> a écrit :"],
    ["2026-11-23 16:44 GMT+01:00 pbem <pbem@pbem.test>:"],
    ["-----Mensaje original-----", "De: pbem", "Enviado el: lunes", "Para: Javier", "Asunto: tu turno"],
    ["Begin forwarded message:", "", "> From: pbem", "> Subject: x", "> Date: 23 November 2026 at 16:44"],
])
def test_header_lines_above_the_copy_in_any_language(above):
    lines = ["build farm E6", "", "Cheers", "Bruno", "", *above, "", "> Hello Ada,"]
    assert header_start(lines, len(lines) - 1, ["pbem"]) == 5


def test_find_notice_ignores_orders_copied_from_its_legal_list():
    position = "\n".join(f"  City X{i}: 4 citizens, 1 building, limit 5; castle X{i}." for i in range(12))
    notice = ("Hello Ada,\n\nIt is your move in La Città #1, seat 1.\n\nYour position\n" + position
              + "\n\nLegal orders now\n") + "\n".join(
        f"    build farm {c}" for c in ("E6", "G6", "O1", "O3", "P1", "P2"))
    body = ["build farm E6", "build farm G6", "build farm O1", "build farm O3"]
    assert find_notice(body, [notice]) is None
    match = find_notice(body + ["", "> Hello Ada,", ">", "> It is your move in La Città #1, seat 1."], [notice])
    assert match is not None and match.start == 5


def test_greeting_and_signoff_set_aside_only_around_orders():
    is_order = lambda l: l.split()[0] in ("build", "gold")  # noqa: E731
    assert split_letter(["Hi all,", "", "build farm E6", "", "Cheers", "Bruno"], is_order) == (
        ["build farm E6"], ["Hi all,", "Cheers", "Bruno"])
    # no order anywhere: nothing is set aside (the refusal shows every line)
    assert split_letter(["Hi all,", "", "Cheers"], is_order) == (["Hi all,", "Cheers"], [])
    # a non-order inside the orders is never dropped
    assert split_letter(["build farm E6", "biuld farm G6"], is_order) == (["build farm E6", "biuld farm G6"], [])
    # a sign-off needs the blank line
    assert split_letter(["build farm E6", "Cheers"], is_order) == (["build farm E6", "Cheers"], [])


def test_suggestion_of_a_close_legal_order():
    legal = ["build farm D8", "build farm E6", "gold", "pass"]
    assert suggest("biuld farm D8", legal) == "build farm D8"
    assert suggest("Build  Farm d8", legal) is None  # already legal as written
    assert suggest("Cheers", legal) is None


def test_order_lists_common_first_and_natural():
    assert arrange(["found A10 from F6", "found A2 from F6", "gold", "build farm B1", "citizens 2", "gold"]) == [
        "citizens 2", "gold", "build farm B1", "found A2 from F6", "found A10 from F6"]


def _crafted(lines: int = 5400):
    """Issue 22, security hole 2: a refusal that echoes the sender's lines
    (so its commonest word is the sender's choice), and a reply quoting
    thousands of short lines of that word."""
    notice = ("Hello Ada,\n\nYour orders for La Città #1 were refused: line 1.\n\nLines read:\n"
              + "".join(f"  {n}. " + "x " * 400 + "\n" for n in range(1, 101)))
    body = ["gold", "", "On Mon, 23 Nov 2026 at 16:44, pbem <pbem@pbem.test> wrote:",
            "> Hello Ada,", ">", "> Your orders for La Città #1 were refused: line 1.", ">", "> Lines read:"]
    return notice, body + ["> x y"] * lines


def test_the_quote_finder_does_bounded_work_per_line():
    """Each line costs at most MAX_CANDIDATES comparisons, whatever the
    notice repeats: 5,400 quoted "x y" lines against a notice of 40,000
    "x" cost about 2.5 comparisons a line (before the bound: ~2,500, some
    6 s of CPU)."""
    from pbem.mail.quotes import MAX_CANDIDATES

    notice, body = _crafted()
    stats: dict = {}
    match = find_notice(body, [notice], stats=stats)
    assert match is not None and match.start == 3
    assert stats["comparisons"] <= 3 * len(body)
    assert MAX_CANDIDATES <= 64
    reading = read_reply("\n".join(body), notice_texts=[notice], sender_tokens=["pbem"])
    assert reading.orders == ["gold"]


def test_a_repeated_word_cannot_make_a_line_cost_more():
    """The worst line for the old trigram scan: its first trigram is the
    notice's commonest, its last one is nowhere."""
    notice = "Hello Ada, it is your move in La Città #1 now.\n" + "x " * 30000
    body = ["Hello Ada, it is your move in La Città #1 now."] + ["x x x x z"] * 2000
    stats: dict = {}
    find_notice(body, [notice], stats=stats)
    assert stats["comparisons"] <= 2 * len(body)


def test_an_attribution_over_a_forward_block_is_one_header():
    """Issue 22: a reply to a forwarded notice has "On … wrote:" above the
    forward's separator and fields; all of it is header, in any language."""
    for wrote in ("On Mon, 23 Nov 2026 at 17:12, Ada <ada@example.org> wrote:",
                  "Am 23. November 2026 17:12:03 MEZ schrieb Jürgen Müller <j@example.org>:",
                  "23. marraskuuta 2026 17.12.03 UTC+2 Matti <matti@example.org> kirjoitti:"):
        lines = ["gold", "", wrote, "", "---------- Forwarded message ---------",
                 "From: pbem <pbem@pbem.test>", "Date: Mon, 23 Nov 2026 at 16:44",
                 "Subject: [pbem] Medina #3 — your move", "To: Ada <ada@example.org>", "", "", "Hello Ada,"]
        assert header_start(lines, 11, ["pbem"]) == 2, wrote


def test_a_line_of_the_notice_is_never_an_order():
    """Issue 22: what the finder leaves of pbem's own notice is dropped,
    unless the game reads it as an order (a legal order copied from it)."""
    notice = NOTICE + "\nThe board:\n" + "A1 B1 C1 D1 E1 F1 G1 H1 J1 K1\n" * 12 + (
        "Reply to this email with your orders, one per line, above the quoted text.\n")
    body = "palace grey C4\nReply to this email with your orders, one per line, above the quoted text.\n"
    is_order = lambda line: line.split()[0] in ("palace", "stable")  # noqa: E731
    reading = read_reply(body, notice_texts=[notice], is_order=is_order)
    assert not reading.found and reading.orders == ["palace grey C4"]


def test_an_older_notices_opening_is_not_taken_when_the_game_reads_it():
    """The lines between a sure header and the notice's words are the
    copy's only when none is an order."""
    lines = "From: pbem <pbem@pbem.test>\nSent: Monday 16:44\n\nstable D4\n\n" + NOTICE
    is_order = lambda line: line.split()[0] in ("palace", "stable")  # noqa: E731
    reading = read_reply(lines.replace("Hello Ada,\n\nIt is your move in Medina #3 (Turn 2), seat 1.\n", ""),
                         notice_texts=[NOTICE], is_order=is_order)
    assert "stable D4" in reading.orders
