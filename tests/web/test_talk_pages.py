"""Table talk on the order page (issue 26): the thread, the form, CSRF,
mute, the host's hide and setting, the JSON thread; a refusal keeps the text."""
from __future__ import annotations

import re

from tests.webapp import csrf_token, new_lacitta, player_id, signed_in

from pbem.service.play import talk


def _seat_page(client, gid, n):
    resp = client.get(f"/games/{gid}/seat/{n}")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def _write(client, gid, n, body, to):
    token = csrf_token(client, f"/games/{gid}/seat/{n}")
    return client.post(f"/games/{gid}/seat/{n}/talk", data={"csrf_token": token, "body": body, "to": to})


def test_a_private_message_from_the_page_shows_to_its_recipient_only(app):
    gid = new_lacitta()
    ada, bo, cy = (signed_in(app, f"{n}@example.org") for n in ("ada", "bo", "cy"))
    resp = _write(ada, gid, 1, "Bo: the market is yours <script>x</script> https://example.org/deal", ["2"])
    assert resp.status_code == 302 and resp.headers["Location"].endswith("#talk")
    page = _seat_page(bo, gid, 2)
    assert "the market is yours &lt;script&gt;" in page
    assert '<a href="https://example.org/deal" rel="nofollow noopener noreferrer ugc"' in page
    assert "private" in page
    assert "the market is yours" not in _seat_page(cy, gid, 3)
    assert "the market is yours" not in cy.get(f"/games/{gid}").get_data(as_text=True)
    assert "the market is yours" not in app.test_client().get(f"/games/{gid}").get_data(as_text=True)
    # the JSON thread of each seat
    assert bo.get(f"/games/{gid}/seat/2/talk.json").get_json()["messages"][0]["to"] == [2]
    assert cy.get(f"/games/{gid}/seat/3/talk.json").get_json()["messages"] == []
    assert cy.get(f"/games/{gid}/seat/2/talk.json").status_code == 403


def test_writing_needs_the_csrf_token_and_the_seat(app):
    gid = new_lacitta()
    ada, bo = signed_in(app, "ada@example.org"), signed_in(app, "bo@example.org")
    assert ada.post(f"/games/{gid}/seat/1/talk", data={"body": "hi", "to": "all"}).status_code == 400
    token = csrf_token(bo, f"/games/{gid}/seat/2")
    assert bo.post(f"/games/{gid}/seat/1/talk", data={"csrf_token": token, "body": "as Ada", "to": "all"}).status_code == 403
    assert "as Ada" not in _seat_page(ada, gid, 1)


def test_a_refused_message_is_shown_again_with_its_text(app):
    gid = new_lacitta()
    ada = signed_in(app, "ada@example.org")
    resp = _write(ada, gid, 1, "x" * 4001, ["all"])
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert "at most 4000 characters" in page and "x" * 4001 in page


def test_mute_and_the_hosts_hide_and_setting(app):
    gid = new_lacitta()
    ada, bo, cy = (signed_in(app, f"{n}@example.org") for n in ("ada", "bo", "cy"))
    _write(bo, gid, 2, "noise from Bo", ["all"])
    token = csrf_token(cy, f"/games/{gid}/seat/3")
    cy.post(f"/games/{gid}/seat/3/mute", data={"csrf_token": token, "seat": "2", "on": "1"})
    assert "noise from Bo" not in _seat_page(cy, gid, 3)
    assert "noise from Bo" in _seat_page(ada, gid, 1)
    mid = bo.get(f"/games/{gid}/seat/2/talk.json").get_json()["messages"][0]["id"]
    token = csrf_token(bo, f"/games/{gid}/seat/2")
    assert bo.post(f"/games/{gid}/seat/2/hide/{mid}", data={"csrf_token": token, "on": "1"}).status_code == 302
    assert "noise from Bo" in _seat_page(ada, gid, 1)  # only the host hides
    token = csrf_token(ada, f"/games/{gid}/seat/1")
    ada.post(f"/games/{gid}/seat/1/hide/{mid}", data={"csrf_token": token, "on": "1"})
    assert "noise from Bo" not in _seat_page(ada, gid, 1) and "The host hid this message." in _seat_page(bo, gid, 2)
    # the host's setting on the game page
    page = ada.get(f"/games/{gid}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert ada.post(f"/games/{gid}/talk-setting", data={"csrf_token": token, "mode": "public"}).status_code == 302
    page = _seat_page(bo, gid, 2)
    assert "messages to the whole table only" in page and 'name="to" value="1"' not in page
    resp = _write(bo, gid, 2, "psst", ["1"])
    assert resp.status_code == 422 and "whole table only" in resp.get_data(as_text=True)
    token = csrf_token(bo, f"/games/{gid}/seat/2")
    bo.post(f"/games/{gid}/talk-setting", data={"csrf_token": token, "mode": "full"})
    assert "messages to the whole table only" in _seat_page(bo, gid, 2)


def test_the_thread_speaks_the_readers_language(app):
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    gid = new_lacitta()
    talk.post_message(gid, 0, player_id("ada@example.org"), "Hei!", to=[1])
    for lang, words in (("fi", ("Pöytäkeskustelu", "yksityinen", "Lähetä viesti")),
                        ("de", ("Tischgespräch", "privat", "Nachricht senden")),
                        ("cs", ("Zprávy mezi hráči", "soukromá", "Odeslat zprávu")),
                        ("ca", ("Converses a la taula", "privat", "Envia el missatge")),
                        ("en", ("Table talk", "private", "Send message"))):
        client = signed_in(app, "bo@example.org")
        db.session.rollback()
        db.session.get(Player, player_id("bo@example.org")).language = lang
        db.session.commit()
        page = _seat_page(client, gid, 2)
        assert "Hei!" in page and all(w in page for w in words), lang


def test_the_mail_preferences_page_sets_the_table_talk_mail(app):
    from pbem.service.core.db import db
    from pbem.service.core.models import Player

    new_lacitta()
    bo = signed_in(app, "bo@example.org")
    page = bo.get("/account/mail").get_data(as_text=True)
    assert 'name="talk_mail" value="every" checked' in page
    token = csrf_token(bo, "/account/mail")
    resp = bo.post("/account/mail", data={"csrf_token": token, "notify_mode": "every", "digest_hour": "18",
                                          "talk_mail": "digest"})
    assert resp.status_code == 302
    db.session.rollback()
    assert db.session.get(Player, player_id("bo@example.org")).talk_mail == "digest"
    resp = bo.post("/account/mail", data={"csrf_token": token, "notify_mode": "every", "digest_hour": "18",
                                          "talk_mail": "loud"})
    assert resp.status_code == 400
    db.session.rollback()
    assert db.session.get(Player, player_id("bo@example.org")).talk_mail == "digest"


def test_the_demo_shows_a_message_thread(app):
    from pbem.cli.demo import seed_demo_game

    game = seed_demo_game()
    bruno = _seat_page(signed_in(app, "bruno@example.com"), game.id, 2)
    carla = _seat_page(signed_in(app, "carla@example.com"), game.id, 3)
    assert "Who takes the market" in bruno and "Not a word to Carla" in bruno and "leave me the hill" in bruno
    assert "Who takes the market" in carla and "Not a word to Carla" not in carla and "leave me the hill" not in carla
