"""Input no database may take never reaches one: control characters in form
fields and query arguments get a clear 400 (pbem/web/inputs.py), ids too
large for an ``integer`` column are a 404 in every route, and an error page
rolls the database session back before it reads anything (pbem/web/errors.py).
On PostgreSQL (CI's second run) each of these was a 500."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import IntegerConverter

from pbem.service.core.db import db
from pbem.service.core.models import Game, PendingOrder, Player
from pbem.web.inputs import MAX_ID, control_character

from .conftest import csrf_token, new_lacitta, player_id, sign_in

ADA = "ada@example.org"


def _ada(app):
    client = app.test_client()
    sign_in(client, player_id(ADA))
    return client


@pytest.mark.parametrize("bad", ["\x00", "\x1b", "\x7f", "\x85", "\r", "\n", "\t"])
def test_a_control_character_in_a_one_line_field_is_refused_with_400(app, bad):
    new_lacitta()
    ada = _ada(app)
    token = csrf_token(ada, "/account")
    resp = ada.post("/account", data={"csrf_token": token, "name": f"Ada{bad}Evil", "timezone": "UTC"})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400, text
    assert "name" in text and "Nothing was read or stored" in text
    db.session.rollback()
    assert db.session.get(Player, player_id(ADA)).name == "Ada"
    # the sign-in form and the new-game form the same
    assert ada.post("/signin", data={"csrf_token": token, "email": f"x{bad}@example.org"}).status_code == 400
    games = db.session.execute(select(func.count()).select_from(Game)).scalar_one()
    resp = ada.post("/games/new", data={"csrf_token": token, "kind": "lacitta", "title": f"T{bad}",
                                        "seat-0-email": ADA, "seat-1-email": "bo@example.org",
                                        "seat-2-email": "cy@example.org", "deadline_hours": "48",
                                        "timezone": "UTC"})
    assert resp.status_code == 400
    db.session.rollback()
    assert db.session.execute(select(func.count()).select_from(Game)).scalar_one() == games


def test_order_text_may_hold_line_breaks_and_tabs_but_no_nul(app):
    gid = new_lacitta()
    game = db.session.get(Game, gid)
    seat = next(s for s in game.seats if s.player.email == ADA)
    ada = _ada(app)
    token = csrf_token(ada, f"/games/{gid}/seat/{seat.number}")
    review = f"/games/{gid}/seat/{seat.number}/review"
    ok = ada.post(review, data={"csrf_token": token, "orders": "\tpass\r\n\r\n", "step": str(game.step)})
    assert ok.status_code in (200, 409, 422)  # read as orders: a preview or a refusal of the order
    refused = ada.post(review, data={"csrf_token": token, "orders": "pass\x00", "step": str(game.step)})
    assert refused.status_code == 400 and "NUL" in refused.get_data(as_text=True)
    submit = ada.post(f"/games/{gid}/seat/{seat.number}",
                      data={"csrf_token": token, "orders": "pass\x00", "step": str(game.step)})
    assert submit.status_code == 400
    # the preview's query arguments, answered as JSON for its script
    preview = ada.get(f"/games/{gid}/seat/{seat.number}/next.json?orders=pass%00&step={game.step}")
    assert preview.status_code == 400 and "NUL" in preview.get_json()["message"]
    db.session.rollback()
    assert db.session.execute(select(PendingOrder)).first() is None


def test_the_check_covers_field_names_and_query_arguments_of_every_page(app):
    new_lacitta()
    visitor = app.test_client()
    assert visitor.get("/signin?next=/%00").status_code == 400
    assert visitor.get("/?x%00=1").status_code == 400
    token = csrf_token(visitor)
    assert visitor.post("/signin", data={"csrf_token": token, "email\x00": "a@example.org"}).status_code == 400


def test_control_character_rules():
    assert control_character("Ada Lovelace, Åsa 🙂") is None
    assert control_character("a\tb\r\nc", multiline=True) is None
    assert control_character("a\tb") == "\t"
    assert control_character("a\x00b", multiline=True) == "\x00"
    assert control_character("\u2028") is None  # a line separator is text, not a control character


def _int_rules(app):
    # the public API's routes (issue 28) answer 401 before any lookup without a token, and
    # problem JSON with one; tests/api/test_fuzz_api.py sends them every id its document allows
    return [rule for rule in app.url_map.iter_rules()
            if any(isinstance(c, IntegerConverter) for c in rule._converters.values())
            and not rule.rule.startswith("/api/")]


def test_ids_beyond_a_database_integer_match_no_route(app):
    rules = _int_rules(app)
    assert {r.rule for r in rules} >= {"/games/<int:game_id>", "/games/<int:game_id>/seat/<int:number>"}
    urls = app.url_map.bind("pbem.test")
    gid = new_lacitta()
    for rule in rules:
        method = "GET" if "GET" in rule.methods else "POST"
        for name in rule.arguments:
            values = {a: gid if a == "game_id" else 1 for a in rule.arguments}
            for value, fits in ((MAX_ID, True), (MAX_ID + 1, False)):
                values[name] = value
                path = rule.rule
                for arg, v in values.items():
                    path = path.replace(f"<int:{arg}>", str(v))
                if fits:
                    assert urls.match(path, method=method)[0] == rule.endpoint
                else:  # werkzeug says 405 when a rule of another method has the shape; the app answers 404
                    with pytest.raises((NotFound, MethodNotAllowed)):
                        urls.match(path, method=method)


def test_out_of_range_ids_are_404_on_every_route(app):
    gid = new_lacitta()
    ada = _ada(app)
    token = csrf_token(ada, f"/games/{gid}")
    for rule in _int_rules(app):
        for big in (MAX_ID, MAX_ID + 1, 2**63, 10**30):
            path = rule.rule
            for arg in rule.arguments:
                path = path.replace(f"<int:{arg}>", str(big))
            if "GET" in rule.methods:
                assert ada.get(path).status_code == 404, path
            if "POST" in rule.methods:
                resp = ada.post(path, data={"csrf_token": token, "orders": "pass", "step": "1", "hours": "1"})
                assert resp.status_code == 404, path
    assert ada.get("/games/2147483648").status_code == 404
    assert ada.get(f"/games/{gid}?step=99999999999999999999999").status_code == 200


def test_an_error_page_after_a_failed_statement_rolls_back_first(tmp_path, service_database_url):
    """A view whose statement failed (the session needs a rollback) and
    that answers with an error: the page, which reads the signed-in player,
    is shown instead of failing with PendingRollbackError."""
    from flask import abort
    from sqlalchemy.exc import IntegrityError

    from tests.webapp import app_with_schema, make_app

    app = make_app(tmp_path, service_database_url, PROPAGATE_EXCEPTIONS=False)

    @app.route("/test/duplicate/<int:code>")
    def duplicate(code):
        db.session.add(Player(email=ADA, name="again"))
        try:
            db.session.flush()
        except IntegrityError:
            if code == 500:
                raise RuntimeError("a bug after a failed statement") from None
            abort(code)
        return "no error?"

    for app in app_with_schema(app):
        new_lacitta()
        ada = _ada(app)
        for code, title in ((400, "Bad request"), (404, "Not found"), (500, "Something broke")):
            resp = ada.get(f"/test/duplicate/{code}")
            assert resp.status_code == code
            text = resp.get_data(as_text=True)
            assert title in text and "Ada" in text  # the page read the signed-in player after the rollback


def test_control_characters_are_exactly_unicode_category_cc():
    """The check (a regex, issue 24) finds every character of Unicode
    category Cc and nothing else, in one-line and multi-line fields."""
    import sys
    import unicodedata

    for code in range(sys.maxunicode + 1):
        char = chr(code)
        cc = unicodedata.category(char) == "Cc"
        assert control_character(f"a{char}b") == (char if cc else None), hex(code)
        assert control_character(f"a{char}b", multiline=True) == (char if cc and char not in "\t\r\n" else None)
