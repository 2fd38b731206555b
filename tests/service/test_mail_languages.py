"""Mail in the recipient's language (issue 16), end to end through the
service: for each language, one La Città and one Medina turn.

The player whose language is set gets the turn notice in that language
(subject, a body sentence and the deadline as the catalog and Babel write
them; the legal orders in the game's words for that language), answers by
email with orders written in that language, and gets the confirmation in
that language. The other seats' players, in English, get English mail.

Every expected sentence is built from the catalog
(``pbem.i18n.translations(lang).gettext(msgid)``), never written out here;
for a language other than English the test also insists that the catalog
translates each of those msgids (so it passes once the catalogs are
complete, and an untranslated mail cannot pass as translated).
"""
from __future__ import annotations

from markupsafe import Markup
import pytest

from pbem.engine import get_game
from pbem.i18n import translate, translations
from pbem.mail.compose import format_deadline
from pbem.service.accounts.players import get_or_create_player
from pbem.service.core.db import db
from pbem.service.inbound import handle_inbound
from pbem.service.play.lifecycle import SeatSpec, create_game, join_game

from .helpers import body_text, game, outbox, parsed
from .test_inbound import reply_to_notice

LANGS = {"en": "Europe/London", "fi": "Europe/Helsinki", "cs": "Europe/Prague",
         "ca": "Europe/Madrid", "de": "Europe/Berlin"}
HOST = "host@example.org"
SEED = 5


def _gettext(lang: str, msgid: str) -> str:
    """``msgid`` from ``lang``'s catalog; for a language other than English
    the catalog must translate it."""
    text = translations(lang).gettext(msgid)
    if lang != "en":
        assert text != msgid, f"{lang} catalog does not translate {msgid!r}"
    return text


def _start(kind: str, lang: str, t0) -> tuple[int, int]:
    """A started game of ``kind`` whose first seat to move has a player
    writing ``lang`` (the others English, the host not seated). Returns
    ``(game id, that seat's index)``."""
    engine = get_game(kind)
    seats = engine.min_seats
    first = engine.new_state(seats, SEED).current_seats()[0]
    people = [(f"P{i}", f"p{i}@example.org") for i in range(seats)]
    for i, (name, email) in enumerate(people):  # the host's choice for each invitee
        player = get_or_create_player(email, name, LANGS[lang] if i == first else "UTC")
        player.language = lang if i == first else "en"
    db.session.commit()
    gid = create_game(kind, HOST, [SeatSpec(e, n) for n, e in people], seed=SEED, now=t0).id
    for i in range(seats):
        join_game(gid, i, now=t0)
    return gid, first


def _turn_in(engine, state, seat: int, lang: str) -> list[str]:
    """Orders for every decision ``seat`` owes this turn, written in ``lang``."""
    trial, key, lines = state.copy(), state.turn_key(), []
    while seat in trial.current_seats() and trial.turn_key() == key:
        action = sorted(trial.legal_actions(seat), key=lambda a: a.to_text())[0]
        lines.append(engine.order_text(action, lang))
        trial.apply(seat, action)
    return lines


def _sentence(lang: str, msgid: str, **params) -> tuple[str, Markup]:
    """A template sentence as the text part and as the HTML part write it."""
    template = _gettext(lang, msgid)
    return template % params, Markup(template) % params


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("kind", ["lacitta", "medina"])
def test_a_turn_in_the_players_language(app, t0, kind, lang):
    engine = get_game(kind)
    gid, seat = _start(kind, lang, t0)
    g = game(gid)
    state, step = engine.state_from_json(g.state), g.step
    name = f"{g.title} #{g.id}"
    from pbem.service.post.content import named   # mail names the players in the phase, as the pages do

    phase = named(g, state.phase(), lang)

    # the turn notice
    [notice] = [r for r in outbox(kind="turn") if r.seat_index == seat]
    msg = parsed(notice)
    text, html = body_text(notice), msg.get_body(("html",)).get_content()
    assert msg["Content-Language"] == lang
    assert msg["Subject"] == _gettext(lang, "{prefix} — your move ({phase})").format(
        prefix=f"[pbem] {name}", phase=phase)
    seat_words = _gettext(lang, "seat {number}").format(number=seat + 1)
    plain, marked = _sentence(lang, "It is your move in %(game)s (%(phase)s), %(seat)s.",
                              game=name, phase=phase, seat=seat_words)
    assert plain in text and marked in html
    deadline = format_deadline(g.deadline_at, LANGS[lang], lang)
    assert _sentence(lang, "Deadline: %(deadline)s", deadline=deadline)[0] in text
    # the legal orders in the game's words for this language, as the player may write them back
    legal = {engine.order_text(a, lang) for a in state.legal_actions(seat)}
    listed = legal & {line.strip() for line in text.splitlines()}
    assert len(listed) >= min(len(legal), 40)
    for line in listed:
        assert engine.parse_action(state, seat, line).to_text() in {a.to_text() for a in state.legal_actions(seat)}

    # the other seats' players read English
    for row in outbox(kind="invite"):
        if row.seat_index != seat:
            assert parsed(row)["Content-Language"] == "en"

    # the answer, written in that language
    orders = _turn_in(engine, state, seat, lang)
    res = handle_inbound(reply_to_notice(notice, "\n".join(orders)))
    assert res.result == "stored", res.detail
    assert game(gid).step > step

    # the confirmation
    [conf] = [r for r in outbox(kind="confirmation") if r.seat_index == seat]
    cmsg, ctext = parsed(conf), body_text(conf)
    assert cmsg["Content-Language"] == lang
    assert cmsg["Subject"] == _gettext(lang, "{prefix} — orders accepted ({phase})").format(
        prefix=f"[pbem] {name}", phase=phase)
    plain, marked = _sentence(lang, "Your orders for %(game)s (%(phase)s) are accepted.", game=name, phase=phase)
    assert plain in ctext and marked in cmsg.get_body(("html",)).get_content()
    for line in orders:
        assert line in ctext
