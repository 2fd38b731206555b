"""One scene per notice kind: a Tally game whose three players (and the
stand-in Dee) read ``lang``, driven through the service until the kind's
builder has queued its mail. :data:`SCENES` maps a kind to its scene;
:data:`NOT_MAIL` lists the registered kinds that are no mail, with the
reason. A registered kind in neither fails the test (test_every_kind)."""
from __future__ import annotations

import datetime as dt
from typing import Callable

from sqlalchemy import select

from pbem.engine import get_game
from pbem.i18n import translations
from pbem.service.accounts.calendar_link import set_calendar
from pbem.service.accounts.players import get_or_create_player
from pbem.service.core.db import db
from pbem.service.core.models import Player
from pbem.service.inbound import handle_inbound
from pbem.service.play import lifecycle, talk, talk_mail
from pbem.service.play.deadlines import scan
from pbem.service.play.orders import submit_orders

from ..helpers import PLAYERS, compose_pending, game, new_tally, outbox
from ..test_inbound import reply_to_notice

H, M = dt.timedelta(hours=1), dt.timedelta(minutes=1)
ZONES = {"en": "Europe/London", "fi": "Europe/Helsinki", "cs": "Europe/Prague", "ca": "Europe/Madrid",
         "de": "Europe/Berlin"}
PEOPLE = [*PLAYERS, ("Dee", "dee@example.org")]

#: registered kinds that are not mail, and why the test does not build them
NOT_MAIL = {
    "channel": "a post to the group's chat (an Apprise URL), no mail: no subject, parts or reply address",
    "webhook": "an HTTP POST of JSON to the player's own hook, no mail",
}


def player(email: str) -> Player:
    return db.session.execute(select(Player).where(Player.email == email)).scalar_one()


def table(t0, lang: str, **kw) -> int:
    """Everyone reads ``lang`` (in a zone of it) and has a calendar feed;
    a started Tally game (Ada hosts, seat 1) with the spectator link on."""
    from pbem.service.play.spectators import set_watchable

    for name, email in PEOPLE:
        get_or_create_player(email, name, ZONES[lang]).language = lang
    db.session.commit()
    for _name, email in PEOPLE:
        set_calendar(player(email).id, "on")
    gid = new_tally(t0, **kw)
    set_watchable(gid, "on")
    compose_pending()
    return gid


def real_table(t0, lang: str, kind: str) -> int:
    """:func:`table` for a real game (``lacitta``, ``medina``: their
    phases, orders and help in ``lang``), every seat joined."""
    from pbem.service.play.lifecycle import create_game, join_game

    for name, email in PEOPLE:
        get_or_create_player(email, name, ZONES[lang]).language = lang
    db.session.commit()
    engine = get_game(kind)
    gid = create_game(kind, PLAYERS[0][1], PLAYERS[:engine.min_seats], seed=5, now=t0).id
    for i in range(1, engine.min_seats):
        join_game(gid, i, now=t0)
    compose_pending()
    return gid


def _turn_of(seat: int):
    return [r for r in outbox(kind="turn") if r.seat_index == seat][-1]


def _reply(seat: int, text: str, **kw) -> None:
    handle_inbound(reply_to_notice(_turn_of(seat), text, **kw))


def _play_to_the_end(gid: int, t0) -> None:
    engine = get_game("tally")
    for i in range(60):
        g = game(gid)
        state = engine.state_from_json(g.state)
        if state.is_terminal():
            return
        for seat in state.current_seats():
            best = max(state.legal_actions(seat), key=lambda a: a.to_text())
            submit_orders(gid, seat, best.to_text(), expected_step=g.step, source="web", now=t0 + i * M)
        compose_pending()
    raise AssertionError("Tally did not end")


def _webhook_off(gid: int, t0) -> None:
    from pbem.service.accounts.tokens import create_token
    from pbem.service.core.api_models import ApiWebhook
    from pbem.service.post.webhook_notice import hook_disabled

    ada = player("ada@example.org")
    token, _secret = create_token(ada.id, "my bot", "order", game_id=gid, now=t0)
    hook = ApiWebhook(token_id=token.id, url="https://hooks.example.org/pbem", secret="whsec_x", created_at=t0,
                      failures=5, last_error="HTTP 502")
    db.session.add(hook)
    db.session.flush()
    hook_disabled(hook, ada, game(gid), now=t0 + H)
    db.session.commit()


def _talk(gid: int, t0) -> None:
    talk.post_message(gid, 0, player("ada@example.org").id, "Bo? :-)", to=talk.ALL, now=t0)
    talk_mail.send_due(now=t0 + 5 * M)


def _talk_answer(gid: int, t0) -> None:
    _talk(gid, t0)
    notice = outbox(kind="talk", recipient="bo@example.org")[-1]
    handle_inbound(reply_to_notice(notice, "Ada :-)"))


def _digest(gid: int, t0) -> None:
    from pbem.service.post import digest

    for _name, email in PLAYERS:
        player(email).notify_mode = "digest"
    db.session.commit()
    lifecycle.pause_game(gid, now=t0 + H)
    lifecycle.resume_game(gid, now=t0 + 2 * H)
    digest.send_due(now=t0 + 48 * H)


def _bounce(gid: int, t0) -> None:
    from pbem.service.post.notify import bounce_notice

    row = outbox(recipient="bo@example.org")[0]
    bounce_notice(game(gid), player("bo@example.org"), "5.1.1", now=t0 + H, row_id=row.id)
    db.session.commit()


def _signin(gid: int, t0) -> None:
    from pbem.service.accounts.signin import send_signin_link

    send_signin_link("bo@example.org", "/", now=t0 + H)


def _signin_new(lang: str, t0) -> None:
    """A sign-in (sign-up) link asked for on a page in ``lang`` by an address pbem does not know."""
    from pbem.service.accounts.signin import send_signin_link

    send_signin_link("eve@example.org", "/", now=t0 + H, language=lang)


def _seat_given(gid: int, t0) -> None:
    from pbem.service.play.replacement import replace_player

    replace_player(gid, 1, "dee@example.org", "Dee", by_player_id=player("ada@example.org").id, now=t0 + H)


def _away(gid: int, t0, lang: str) -> None:
    _reply(0, translations(lang).gettext("away 2026-12-20 to 2026-12-27"))


def _host(*steps: str) -> Callable:
    def scene(gid: int, t0) -> None:
        for i, step in enumerate(steps, 1):
            if step == "extend":
                lifecycle.extend_deadline(gid, 3600, now=t0 + i * H)
            else:
                getattr(lifecycle, f"{step}_game")(gid, now=t0 + i * H)
    return scene


#: kind -> scene(gid, t0, lang), run on a fresh :func:`table` (``table_kw`` for the game)
SCENES: dict[str, Callable] = {
    "invite": lambda gid, t0, lang: None,
    "turn": lambda gid, t0, lang: None,
    "reminder": lambda gid, t0, lang: scan(now=game(gid).deadline_at - 30 * M),
    "missed": lambda gid, t0, lang: scan(now=game(gid).deadline_at + M),
    "grace": lambda gid, t0, lang: scan(now=game(gid).deadline_at + M),
    "over": lambda gid, t0, lang: _play_to_the_end(gid, t0),
    "paused": lambda gid, t0, lang: _host("pause")(gid, t0),
    "resumed": lambda gid, t0, lang: _host("pause", "resume")(gid, t0),
    "extended": lambda gid, t0, lang: _host("extend")(gid, t0),
    "cancelled": lambda gid, t0, lang: _host("cancel")(gid, t0),
    "confirmation": lambda gid, t0, lang: _reply(0, "add 1"),
    "refusal": lambda gid, t0, lang: _reply(0, "add 9"),
    "not-applied": lambda gid, t0, lang: _reply(0, "add 2", sender="mallory@example.net"),
    "absence": _away,
    "seat_given": lambda gid, t0, lang: _seat_given(gid, t0),
    "signin": lambda gid, t0, lang: _signin(gid, t0),
    "bounce": lambda gid, t0, lang: _bounce(gid, t0),
    "watchable": lambda gid, t0, lang: None,
    "talk": lambda gid, t0, lang: _talk(gid, t0),
    "talk_answer": lambda gid, t0, lang: _talk_answer(gid, t0),
    "digest": lambda gid, t0, lang: _digest(gid, t0),
    "webhook_off": lambda gid, t0, lang: _webhook_off(gid, t0),
}
def _replaced_writes(gid: int, t0) -> None:
    """Bo's seat is given to Dee; Bo answers his old turn notice."""
    submit_orders(gid, 0, "add 1", expected_step=0, source="web", now=t0)
    compose_pending()
    old = _turn_of(1)
    _seat_given(gid, t0)
    handle_inbound(reply_to_notice(old, "add 1"))


#: more mails of a kind that say other things: name -> (kind, scene, game settings)
VARIANTS: dict[str, tuple[str, Callable, dict]] = {
    "not-applied/unknown": ("not-applied", lambda gid, t0, lang: _reply(0, "add 1", to="play@pbem.test"), {}),
    "not-applied/replaced": ("not-applied", lambda gid, t0, lang: _replaced_writes(gid, t0), {}),
    "refusal/no-orders": ("refusal", lambda gid, t0, lang: _reply(0, "Hei! Moi!\n:-)"), {}),
    "absence/unread": ("absence", lambda gid, t0, lang: _reply(0, "away 2026-12-20 somewhere 2026-12-27"), {}),
    "signin/new-address": ("signin", lambda gid, t0, lang: _signin_new(lang, t0), {}),
    "extended/paused": ("extended", lambda gid, t0, lang: _host("pause", "extend")(gid, t0), {}),
    "missed/after-grace": ("missed", lambda gid, t0, lang: [scan(now=t0 + 49 * H), scan(now=t0 + 74 * H)],
                           {"grace_hours": 24}),
}


#: the game's settings a scene needs
TABLE_KW = {"grace": {"grace_hours": 24}}


def build(kind: str, t0, lang: str, variant: str | None = None) -> list:
    """The outbox rows of ``kind`` the scene (or :data:`VARIANTS`'
    ``variant``) queued (at least one), each composed as delivery sends it."""
    scene, settings = (VARIANTS[variant][1:] if variant else (SCENES[kind], TABLE_KW.get(kind, {})))
    gid = table(t0, lang, **settings)
    scene(gid, t0, lang)
    compose_pending()
    rows = [r for r in outbox(kind=kind)]
    assert rows, f"the {kind} scene queued no {kind} mail"
    return rows
