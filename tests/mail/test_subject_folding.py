"""A long non-ASCII subject arrives with every space (compose's policy).

CPython 3.11's modern header folder drops the space between two RFC 2047
encoded words it splits a subject into ("Příprava: místo" arrived as
"Příprava:místo", found by the Czech turn-notice test); compose folds the
Subject with the legacy encoder instead. Read back with the stdlib parser
as a mail client would.
"""
from email import message_from_bytes, policy
from email.message import EmailMessage

from hypothesis import given, settings, strategies as st

from pbem.mail.compose import POLICY

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzěščřžýáíéůúäöåàçïüß:;,.()—#1234567890", min_size=1, max_size=14)


def roundtrip(subject: str) -> str:
    msg = EmailMessage(policy=POLICY)
    msg["Subject"] = subject
    msg.set_content("x")
    raw = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
    head = raw.split(b"\r\n\r\n")[0]
    assert all(len(line) <= 78 for line in head.split(b"\r\n"))
    return message_from_bytes(raw, policy=policy.default)["Subject"]


def test_the_czech_turn_notice_subject_keeps_its_spaces():
    subject = "[pbem] Medina #1 — jsi na tahu (Příprava: místo 1 pokládá počátečního obchodníka)"
    assert roundtrip(subject) == subject


@settings(max_examples=200, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=16))
def test_any_subject_of_words_reads_back_as_sent(words):
    subject = " ".join(words)
    assert roundtrip(subject) == subject
