"""The format=flowed encoder of pbem's text parts (pbem.mail.flowed,
RFC 3676 §4): what the decoder reads back, how long the lines are, and
what it must leave alone."""
from __future__ import annotations

from email import message_from_bytes, policy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.flowed import decode_flowed, encode_flowed, plain_text

#: lines of words, spaces, quote marks, "From " and URLs, no trailing space
_piece = st.sampled_from(["word", "From ", ">", " ", "  ", "-- ", "--", "a", "ä", "x" * 90,
                          "https://pbem.example.org/g/12/orders?seat=3&t=abcdef", "\t", "│"])
_line = st.lists(_piece, max_size=40).map("".join).map(lambda s: s.rstrip(" "))
_text = st.lists(st.one_of(_line, st.just("-- "), st.sampled_from("-=_~*#").map(lambda c: c * 70)),
                 max_size=12).map("\n".join)


def _rule(line: str) -> bool:
    return len(set(line)) == 1 and line[0] in "-=_~*#" and len(line) > 1


@settings(max_examples=200)
@given(_text)
def test_the_decoder_reads_back_what_was_encoded(text):
    shown = "\n".join(line[:78] if _rule(line) else line for line in text.split("\n"))
    assert decode_flowed(encode_flowed(text)) == shown


@settings(max_examples=200)
@given(_text)
def test_every_line_is_short_unless_one_word_or_fixed(text):
    fixed = {line for line in text.split("\n") if line[:1] in (" ", "\t") or "│" in line}
    for line in encode_flowed(text).split("\n"):
        if len(line) > 78:
            unstuffed = line[1:] if line.startswith(" ") else line
            words = unstuffed.rstrip(" ").split(" ")
            # "-- " alone would be a signature separator (§4.3): it keeps its next word
            words = words[1:] if words[0] == "--" else words
            assert len(words) == 1 or unstuffed in fixed, line


@settings(max_examples=200)
@given(_text)
def test_a_line_not_longer_than_the_width_is_unchanged_but_for_stuffing(text):
    out = encode_flowed(text).split("\n")
    for line in text.split("\n"):
        if len(line) < 78:
            stuffed = " " + line if line.startswith((" ", ">", "From ")) else line
            assert stuffed in out


def test_a_long_paragraph_is_cut_after_spaces_at_78():
    text = " ".join(["Keskustori"] * 20)
    lines = encode_flowed(text).split("\n")
    assert [len(line) for line in lines] == [77, 77, 65]
    assert all(line.endswith(" ") for line in lines[:-1]) and not lines[-1].endswith(" ")


def test_a_long_url_stands_alone_and_is_not_cut():
    url = "https://pbem.example.org/g/12/" + "a" * 80
    assert encode_flowed(f"Your orders: {url} until Monday.").split("\n") == [
        "Your orders: ", url + " ", "until Monday."]


def test_fixed_lines_keep_their_bytes_and_get_no_trailing_space():
    board = ["    A B C D E F G H I J K L M N O P Q R S T U V W X Y Z A B C D E F G H I J K L",
             "┌" + "─" * 90 + "┐",
             " 3 - . . m . * . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .",
             "- . . m . * . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . ."]
    out = encode_flowed("\n".join(board)).split("\n")
    assert out == [" " + board[0], board[1], " " + board[2], board[3]]


def test_space_stuffing_and_the_signature_separator():
    assert encode_flowed(">5 gold\nFrom Anna\n  x\n-- \npbem") == " >5 gold\n From Anna\n   x\n-- \npbem"


def test_a_soft_break_never_leaves_a_signature_separator():
    text = "-- " + "word " * 30 + "end"
    out = encode_flowed(text)
    assert "-- " not in out.split("\n") and decode_flowed(out) == text


def test_plain_text_joins_flowed_parts_only():
    flowed = ("Content-Type: text/plain; charset=utf-8; format=flowed; delsp=no\n\n"
              "one \ntwo\n").encode()
    fixed = b"Content-Type: text/plain; charset=utf-8\n\none \ntwo\n"
    assert plain_text(message_from_bytes(flowed, policy=policy.default)) == "one two\n"
    assert plain_text(message_from_bytes(fixed, policy=policy.default)) == "one \ntwo\n"


def test_the_text_part_of_a_mail_is_flowed_with_its_parameters_in_the_header():
    from pbem.mail import compose as c

    from .test_compose import GAME, envelope, reparse, turn

    help_text = "Write one order per line; " + "the orders of a turn are read in the order written. " * 4
    msg = reparse(c.turn_notice(envelope(), GAME, turn(order_help=help_text)))
    part = msg.get_body(("plain",))
    assert part["Content-Type"].params == {"charset": "utf-8", "format": "flowed", "delsp": "no"}
    assert part["Content-Transfer-Encoding"] == "quoted-printable"
    raw = part.get_content()
    assert max(len(line) for line in raw.split("\n")) <= 78
    assert help_text.strip() in plain_text(msg) and help_text.strip() not in raw


def test_a_headings_underline_longer_than_a_line_is_cut_to_the_width():
    title = "[pbem] La Città #12 — the game is over: scores and the final board of every seat"
    out = encode_flowed(f"{title}\n{'-' * len(title)}\n\n{'=' * 20}").split("\n")
    assert out[-3:] == ["-" * 78, "", "=" * 20] and max(map(len, out)) <= 78
