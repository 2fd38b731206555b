"""Table talk never reaches a seat it was not written to (issue 26), in the
conformance style of test_no_leaks.py: random messages (author, to all or
to some seats, written on the page or by mail) each carry a unique canary
word; the oracle (:func:`readable`) says which seats may read each one;
then everything each seat and each outsider can get is collected —
its pages, its JSON (view.json, talk.json, next.json), the game page, the
game record (public and the seat's own), the spectator page, every mail
addressed to it (message mails, answers, turn notices, the daily digest),
the channel posts — and no canary of a message it may not read appears
anywhere, while every one it may read is on its page (so the test can
fail). A replaced player gets nothing of the seat from then on, and the
newcomer none of the seat's earlier private messages.
"""
from __future__ import annotations

import datetime as dt
import re

from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from sqlalchemy import select

from pbem.service.core.db import db
from pbem.service.core.models import Game, OutboxMessage, Player
from pbem.service.play import channel, talk, talk_mail
from pbem.service.play.replacement import replace_player
from pbem.service.post import digest
from pbem.service.post.outbox import render

from .conftest import new_lacitta, player_id, sign_in

EMAILS = ["ada@example.org", "bo@example.org", "cy@example.org"]
CANARY = re.compile(r"CANARY-\d+-\d+-X")


def readable(messages, seat: int) -> set[str]:
    """The oracle: the canaries seat ``seat`` may read."""
    return {c for c, author, to in messages if to is None or seat == author or seat in to}


def _all_mail_to(address: str) -> str:
    db.session.commit()
    db.session.expire_all()
    rows = db.session.execute(select(OutboxMessage).where(OutboxMessage.recipient == address)).scalars().all()
    out = []
    for row in rows:
        raw = render(row)
        if raw is not None:
            out.append(raw.decode("utf-8", "replace"))
    import quopri
    return "\n".join(out + [quopri.decodestring(x.encode()).decode("utf-8", "replace") for x in out])


def _outsider_pages(app, gid: int) -> str:
    anon = app.test_client()
    paths = [f"/games/{gid}", "/", f"/games/{gid}/record.json", f"/games/{gid}/record.txt"]
    from pbem.service.play import spectators

    g = spectators.set_watchable(gid, "on")
    paths.append(spectators.spectator_path(g))
    return "\n".join(anon.get(p).get_data(as_text=True) for p in paths)


def _seat_pages(app, gid: int, seat: int) -> str:
    c = app.test_client()
    sign_in(c, player_id(EMAILS[seat]))
    n = seat + 1
    paths = [f"/games/{gid}/seat/{n}", f"/games/{gid}/seat/{n}/talk.json", f"/games/{gid}/seat/{n}/view.json",
             f"/games/{gid}", "/", f"/games/{gid}/record.json", f"/games/{gid}/seat/{n}/record.json",
             f"/games/{gid}/seat/{n}/record.txt"]
    texts = []
    for p in paths:
        resp = c.get(p)
        texts.append(resp.get_data(as_text=True))
    # other seats' pages are closed to it
    for other in range(3):
        if other != seat:
            assert c.get(f"/games/{gid}/seat/{other + 1}/talk.json").status_code == 403
    return "\n".join(texts)


_messages = st.lists(st.tuples(st.integers(0, 2), st.one_of(st.none(), st.sets(st.integers(0, 2), min_size=1))),
                     min_size=1, max_size=6)


@settings(max_examples=6, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate), suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(plan=_messages)
def test_no_message_reaches_a_seat_it_was_not_written_to(app, plan):
    t0 = dt.datetime.now(dt.timezone.utc)
    gid = new_lacitta()
    ids = [player_id(e) for e in EMAILS]
    channel.connect(gid, "discord://1234/token", by_player_id=ids[0], now=t0)
    messages = []
    for n, (author, to) in enumerate(plan):
        to = None if to is None else (set(to) - {author}) or None
        canary = f"CANARY-{gid}-{n}-X"
        talk.post_message(gid, author, ids[author], f"deal {canary} tonight",
                          to=talk.ALL if to is None else sorted(to), now=t0)
        messages.append((canary, author, to))
    # public messages sent to everyone individually count as public in the oracle too
    for p in db.session.execute(select(Player).where(Player.email.in_(EMAILS))).scalars():
        p.talk_mail = "every" if p.email != "cy@example.org" else "digest"
    db.session.commit()
    talk_mail.send_due(now=t0 + dt.timedelta(minutes=5))
    digest.send_due(now=t0 + dt.timedelta(days=1))
    everyone = {c for c, _a, _t in messages}
    for seat in range(3):
        may = readable(messages, seat)
        pages = _seat_pages(app, gid, seat)
        seen = (set(CANARY.findall(pages)) | set(CANARY.findall(_all_mail_to(EMAILS[seat])))) & everyone
        assert seen <= may, (seat, seen - may)
        assert may <= set(CANARY.findall(pages)), (seat, may - set(CANARY.findall(pages)))
    outside = _outsider_pages(app, gid) + "\n".join(
        (r.raw or b"").decode("utf-8", "replace") for r in db.session.execute(
            select(OutboxMessage).where(OutboxMessage.kind == "channel")).scalars())
    assert not (set(CANARY.findall(outside)) & everyone)


def test_a_replaced_player_loses_the_seats_messages_from_the_moment_of_replacement(app):
    t0 = dt.datetime.now(dt.timezone.utc)
    gid = new_lacitta()
    ada, bo = player_id(EMAILS[0]), player_id(EMAILS[1])
    talk.post_message(gid, 0, ada, "before CANARY-0-1-X to seat 2", to=[1], now=t0)
    old = app.test_client()
    sign_in(old, bo)
    assert "CANARY-0-1-X" in old.get(f"/games/{gid}/seat/2").get_data(as_text=True)
    replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=ada, now=t0)
    talk.post_message(gid, 0, ada, "after CANARY-0-2-X to seat 2", to=[1], now=t0)
    assert old.get(f"/games/{gid}/seat/2").status_code == 403
    assert old.get(f"/games/{gid}/seat/2/talk.json").status_code == 403
    talk_mail.send_due(now=t0 + dt.timedelta(minutes=5))
    assert "CANARY-0-2-X" not in _all_mail_to(EMAILS[1])
    new = app.test_client()
    sign_in(new, player_id("dee@example.org"))
    page = new.get(f"/games/{gid}/seat/2/talk.json").get_data(as_text=True)
    assert "CANARY-0-2-X" in page and "CANARY-0-1-X" not in page
    mail = _all_mail_to("dee@example.org")
    assert "CANARY-0-1-X" not in mail
    assert db.session.get(Game, gid) is not None
