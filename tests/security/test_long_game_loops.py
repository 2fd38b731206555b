"""No mail loop through the long-game mails (issues 25, 26): every answer
pbem gives to mail (the absence answer, the message answer) and every
long-game notice (a message mail) says it is automatic (RFC 3834
``Auto-Submitted``) and carries the loop header, so another pbem
instance, or a vacation responder that keeps to RFC 3834, drops it; and a
mail that is automatic is never answered here, whatever it holds (an
``away`` line, a ``to:`` line)."""
from __future__ import annotations

import datetime as dt
import email
import email.policy

import pytest
from sqlalchemy import func, select

from pbem.mail.inbound import LOOP_HEADER
from pbem.service.core.absence_rows import Absence
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage
from pbem.service.core.talk_models import TalkMessage
from pbem.service.inbound import handle_inbound
from pbem.service.play import talk_mail
from pbem.service.post.outbox import render
from tests.service.helpers import compose_pending, new_tally, outbox
from tests.service.test_inbound import reply_to_notice
from tests.security.tally_app import app, tally_game  # noqa: F401  (fixtures)

T0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
M = dt.timedelta(minutes=1)


def _rows() -> int:
    db.session.rollback()
    return db.session.execute(select(func.count()).select_from(OutboxMessage)).scalar_one()


def _parsed(row) -> email.message.EmailMessage:
    return email.message_from_bytes(render(row), policy=email.policy.default)


def _long_game_mails():
    """An absence answer, a message answer and a message mail of one game."""
    new_tally(T0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    handle_inbound(reply_to_notice(notice, "away 2026-12-20 to 2026-12-27"), now=T0 + M)
    handle_inbound(reply_to_notice(notice, "to: all\nhello table"), now=T0 + 2 * M)
    talk_mail.send_due(now=T0 + dt.timedelta(hours=1))
    return notice, {kind: outbox(kind=kind)[0] for kind in ("absence", "talk_answer", "talk")}


def test_every_long_game_mail_says_it_is_automatic_and_carries_the_loop_header(app):
    _notice, rows = _long_game_mails()
    for kind, row in rows.items():
        msg = _parsed(row)
        assert msg["Auto-Submitted"] in ("auto-replied", "auto-generated"), kind
        assert msg[LOOP_HEADER], kind
    assert _parsed(rows["absence"])["Auto-Submitted"] == "auto-replied"      # answers to a person's mail
    assert _parsed(rows["talk_answer"])["Auto-Submitted"] == "auto-replied"


def test_another_pbem_instances_answer_is_not_answered(app):
    """Another instance (its own addresses and loop header) mails its
    answer, which quotes an away line and a to: line, to a seat's reply
    address here: nothing is recorded, posted or answered."""
    notice, rows = _long_game_mails()
    before = _rows()
    for kind, row in rows.items():
        theirs = _parsed(row)
        del theirs["From"], theirs["To"], theirs[LOOP_HEADER]
        theirs["From"] = "pbem <play@other-pbem.example>"
        theirs["To"] = _parsed(notice)["Reply-To"]
        theirs[LOOP_HEADER] = "play@other-pbem.example"
        handle_inbound(theirs.as_bytes(), now=T0 + dt.timedelta(hours=2))
    assert _rows() == before


@pytest.mark.parametrize("header", [("Auto-Submitted", "auto-replied"), ("X-Autoreply", "yes"),
                                    ("Precedence", "auto_reply")])
def test_an_auto_reply_with_an_away_or_to_line_is_neither_read_nor_answered(app, header):
    new_tally(T0)
    compose_pending()
    notice = outbox(kind="turn", recipient="ada@example.org")[0]
    before = _rows()
    raw = reply_to_notice(notice, "I am out of office.\naway 2026-12-20 to 2026-12-27\nto: all\nback soon",
                          extra=dict([header]))
    handle_inbound(raw, now=T0 + M)
    assert _rows() == before
    assert db.session.execute(select(func.count()).select_from(Absence)).scalar_one() == 0
    assert db.session.execute(select(func.count()).select_from(TalkMessage)).scalar_one() == 0
