"""A replaced player no longer plays by mail (issue 22, "Seven holes" 5).

The host gives a seat to someone else; the player who left still holds
the seat's reply address (in every turn mail they got). With sender
authentication off (the default) anyone can write any From, so the reply
address itself is bound to the seat's holder: it carries the player's id,
and mail through a former holder's address is not applied, whatever its
From says. The former holder hears, in their own language, that the seat
was given to someone else."""
from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from flask import current_app
from sqlalchemy import func, select

from pbem.mail.flowed import plain_text
from pbem.mail.tokens import BadToken, ReplyAddress, make_reply_address, read_reply_address
from pbem.service.core import links
from pbem.service.core.db import db
from pbem.service.core.models import Game, Move, OutboxMessage, PendingOrder, Player
from pbem.service.core.snapshot import engine_state
from pbem.service.inbound import handle_inbound
from pbem.service.play.replacement import replace_player
from pbem.service.post.outbox import render

from .conftest import new_lacitta, player_id


def _mail(sender: str, to: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "Re: your turn"
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(body + "\n")
    return msg.as_bytes()


def _table():
    """A started game; ``(game id, the seat to move, its holder's address, a legal order)``."""
    gid = new_lacitta()
    state = engine_state(db.session.get(Game, gid))
    seat = state.current_seats()[0]
    holder = db.session.get(Game, gid).seat(seat).player.email
    return gid, seat, holder, state.legal_actions(seat)[0].to_text()


def _replace(gid: int, seat: int, email: str = "dee@example.org") -> None:
    replace_player(gid, seat, email, "Dee", by_player_id=player_id("ada@example.org"))


def _nothing_applied(gid: int) -> bool:
    db.session.rollback()
    moves = db.session.execute(select(func.count()).select_from(Move).where(Move.game_id == gid)).scalar_one()
    pending = db.session.execute(select(func.count()).select_from(PendingOrder)
                                 .where(PendingOrder.game_id == gid)).scalar_one()
    return moves == 0 and pending == 0


def _answers_to(address: str) -> list[str]:
    db.session.rollback()
    rows = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.recipient == address, OutboxMessage.kind == "not-applied")).scalars().all()
    out = []
    for row in rows:
        msg = message_from_bytes(render(row), policy=policy.default)
        out.append(msg["Subject"] + "\n" + plain_text(msg))
    return out


def test_the_reply_address_names_the_seats_holder():
    a = make_reply_address("k", "play@pbem.test", 4, 1, holder=7)
    b = make_reply_address("k", "play@pbem.test", 4, 1, holder=8)
    assert a != b and a.startswith("play+4-1-7-")


@pytest.mark.parametrize("forge", [
    lambda a: a.replace("-1-7-", "-1-8-"),                                   # another holder, same signature
    lambda a: a.replace("-1-7-", "-1-"),                                     # the holder dropped
    lambda a: a.replace("play+4-1-7-", "play+4-1-7-7-"),                     # one part too many
])
def test_a_reply_address_with_another_holder_does_not_verify(forge):
    good = make_reply_address("k", "play@pbem.test", 4, 1, holder=7)
    assert read_reply_address("k", "play@pbem.test", good) == ReplyAddress(4, 1, 7)
    with pytest.raises(BadToken):
        read_reply_address("k", "play@pbem.test", forge(good))


def test_an_unbound_signature_does_not_verify_as_a_bound_address():
    unbound = make_reply_address("k", "play@pbem.test", 4, 1)
    sig = unbound.split("@")[0].rsplit("-", 1)[1]
    with pytest.raises(BadToken):
        read_reply_address("k", "play@pbem.test", f"play+4-1-7-{sig}@pbem.test")
    assert read_reply_address("k", "play@pbem.test", unbound) == ReplyAddress(4, 1, None)


def test_a_former_holder_cannot_play_through_the_old_address_with_the_newcomers_from(app):
    gid, seat, holder, order = _table()
    old = links.reply_address(gid, seat)          # in every turn mail the leaving player got
    _replace(gid, seat)
    for sender in ("dee@example.org", holder):    # forged as the newcomer, or as themselves
        result = handle_inbound(_mail(sender, old, order))
        assert result.result == "replaced", result
    assert _nothing_applied(gid)


def test_the_newcomer_plays_through_their_own_address(app):
    gid, seat, holder, order = _table()
    old = links.reply_address(gid, seat)
    _replace(gid, seat)
    new = links.reply_address(gid, seat)
    assert new != old
    assert handle_inbound(_mail("dee@example.org", new, order)).result in ("applied", "stored")
    assert not _nothing_applied(gid)


def test_the_former_holder_is_told_in_their_language_and_the_newcomer_hears_nothing(app):
    gid, seat, holder, order = _table()
    old = links.reply_address(gid, seat)
    db.session.execute(select(Player).where(Player.email == holder)).scalar_one().language = "fi"
    db.session.commit()
    _replace(gid, seat)
    handle_inbound(_mail("dee@example.org", old, order))
    [answer] = _answers_to(holder)
    assert "entisen pelaajapaikkasi" in answer            # Finnish: "your former seat"
    assert order not in answer and "dee@example.org" not in answer
    assert _answers_to("dee@example.org") == []


def test_a_reply_address_from_before_holders_were_bound_stops_once_a_seat_is_given_away(app):
    gid, seat, holder, order = _table()
    cfg = current_app.config
    unbound = make_reply_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], gid, seat)  # no holder in it
    _replace(gid, seat)
    result = handle_inbound(_mail("dee@example.org", unbound, order))
    assert result.result not in ("applied", "stored")
    assert _nothing_applied(gid)


def test_an_unbound_reply_address_still_works_in_a_game_nobody_left(app):
    gid, seat, holder, order = _table()
    cfg = current_app.config
    unbound = make_reply_address(cfg["SECRET_KEY"], cfg["INBOUND_ADDRESS"], gid, seat)
    assert handle_inbound(_mail(holder, unbound, order)).result in ("applied", "stored")
