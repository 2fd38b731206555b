"""Every order a player sees or is echoed is in their language (issue 22.2-3).

For each game and each of fi, cs, ca and de, a player who writes that
language walks every page and mail that shows orders: the order page (the
chooser, the orders a click fills in, the list of legal orders), ``next.json``,
the review of orders written in their language, a refused review (what was
read, why, what is legal now), the page after sending, the turn notice, the
email confirmation and the email refusal. None of them may hold an English
command word: a word of the game's English order tables (``words.py``) that
the language's table does not share. English is accepted on input only.
"""
from __future__ import annotations

import json
import re
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import select

from pbem.engine import get_game
from pbem.engine.diestadt import words as diestadt_words
from pbem.engine.fold import fold
from pbem.engine.lacitta import words as lacitta_words
from pbem.engine.medina import words as medina_words
from pbem.i18n import translate
from pbem.mail.flowed import plain_text
from pbem.service.accounts.players import get_or_create_player
from pbem.service.core.db import db
from pbem.service.core.models import OutboxMessage
from pbem.service.inbound import handle_inbound
from pbem.web import tour
from tests.webapp import CSRF_RE, game_state, signed_in

TABLES = {"lacitta": lacitta_words, "medina": medina_words, "diestadt": diestadt_words}
#: parts of a table that are not command words (glue words such as "the", "from")
NOT_COMMANDS = {"fillers", "joins"}
LANGS = ["fi", "cs", "ca", "de"]


def _words(table, parts=None) -> set[str]:
    out = set()
    for name, value in vars(table).items():
        if name == "lang" or (parts is None and name in NOT_COMMANDS) or (parts and name not in parts):
            continue
        phrases = value.keys() if isinstance(value, dict) else value
        out |= {fold(w) for p in phrases for w in re.split(r"[\s']+", p)}
    return out


def english_words(kind: str, lang: str) -> set[str]:
    """The English command words of ``kind`` that ``lang``'s table does not
    use too (words of three letters or more; compass letters and ``cw`` are
    board marks, not words)."""
    words = TABLES[kind].WORDS
    english = {w for w in _words(words["en"]) if len(w) >= 3 and w.isalpha()}
    return english - _words(words[lang], parts=None) - _words(words[lang], parts=NOT_COMMANDS)


def english_in(text: str, words: set[str]) -> list[str]:
    """The words of ``words`` found in ``text`` (whole words, any case;
    with its accents a word is another: Czech ``paláce`` is not ``palace``)."""
    found = set(re.findall(r"[^\W\d_]+", text.lower()))
    return sorted(found & words)


def _text(html: str) -> str:
    html = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html).replace("&#34;", '"').replace("&#39;", "'").replace("&quot;", '"')


def _part(html: str, start: str, end: str) -> str:
    """The HTML from the first ``start`` to the next ``end`` after it ('' if absent)."""
    at = html.find(start)
    return "" if at < 0 else html[at:html.find(end, at) + len(end)]


def _players(lang: str) -> None:
    for name, email in tour.PLAYERS:
        get_or_create_player(email, name, "UTC").language = lang
    db.session.commit()


def _mail_text(row: OutboxMessage, help_text: str) -> str:
    """The plain text part of a mail without links and without the lines of
    the game's order help (``help_text``: the help names the other
    languages' words on purpose)."""
    from tests.service.helpers import parsed

    text = re.sub(r"https?://\S+", " ", plain_text(parsed(row)))
    helps = " ".join(help_text.split())
    return "\n".join(line for line in text.splitlines()
                     if len(line.split()) < 2 or " ".join(line.split()) not in helps)


def _rows(kind: str, seat: int) -> list[OutboxMessage]:
    db.session.commit()
    return list(db.session.execute(select(OutboxMessage).where(
        OutboxMessage.kind == kind, OutboxMessage.seat_index == seat).order_by(OutboxMessage.id)).scalars())


def _reply(notice: OutboxMessage, text: str) -> bytes:
    from tests.service.helpers import parsed

    head = parsed(notice)
    msg = EmailMessage()
    msg["From"], msg["To"] = notice.recipient, head["Reply-To"]
    msg["Subject"] = "Re: " + head["Subject"]
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg["In-Reply-To"] = msg["References"] = head["Message-ID"]
    msg.set_content(text + "\n")
    return msg.as_bytes()


def _illegal(engine, state, seat: int, lang: str) -> str:
    """An order in ``lang`` that reads but is not legal now: a legal
    order with a site, moved to a site none of its label's orders use."""
    actions = state.legal_actions(seat)
    a = next((a for a in actions if a.site), actions[0])
    used = {b.site.upper() for b in actions if b.site and b.label == a.label}
    other = next(f"{c}{n}" for n in range(1, 30) for c in "ABCDEFGH" if f"{c}{n}" not in used)
    text = engine.order_text(a, lang)
    return re.sub(rf"\b{re.escape(a.site)}\b", other, text, flags=re.I) if a.site else text + " A1"


def _web(app, game_id: int, kind: str, lang: str, seat: int) -> dict[str, str]:
    """What the web pages show seat ``seat`` (to move), by page; the seat's
    orders are sent at the end."""
    engine, state = get_game(kind), game_state(game_id)
    client = signed_in(app, tour.PLAYERS[seat][1])
    path = f"/games/{game_id}/seat/{seat + 1}"
    html = client.get(path).get_data(as_text=True)
    token, step = CSRF_RE.search(html).group(1), str(state.step)
    order = engine.order_text(state.legal_actions(seat)[0], lang)
    seen = {"order page": _text(_part(html, 'id="orders"', "</section>") + _part(html, "<details>", "</details>")
                                + _part(html, 'id="legal-orders"', "</script>"))}
    nxt = client.get(f"{path}/next.json", query_string={"orders": order, "step": step}).get_json()
    seen["next.json"] = json.dumps([(l["order"], l["error"]) for l in nxt["lines"]] + [nxt["message"]]
                             + [(o["label"], o["text"]) for o in nxt["legal"]] + list(nxt["label_texts"].values()))
    review = client.post(f"{path}/review", data={"csrf_token": token, "step": step, "orders": order})
    assert review.status_code == 200, review.get_data(as_text=True)
    seen["review"] = _text(_part(review.get_data(as_text=True), "<main", "</main>"))
    bad = client.post(f"{path}/review", data={"csrf_token": token, "step": step,
                                               "orders": _illegal(engine, state, seat, lang)})
    assert bad.status_code == 422
    seen["refusal page"] = _text(_part(bad.get_data(as_text=True), 'id="refusal"', "</section>"))
    sent = client.post(path, data={"csrf_token": token, "step": step, "orders": order})
    assert sent.status_code == 302, sent.get_data(as_text=True)
    seen["after sending"] = _text(_part(client.get(path).get_data(as_text=True), 'class="flash', "</p>"))
    return seen


def _mail(game_id: int, kind: str, lang: str) -> dict[str, str]:
    """What the mail shows the seat to move now: its turn notice, the
    answer to an illegal order and to a legal one."""
    engine, state = get_game(kind), game_state(game_id)
    seat = state.current_seats()[0]
    help_text = translate(engine.order_help(), lang)
    notice = _rows("turn", seat)[-1]
    seen = {"turn notice": _mail_text(notice, help_text)}
    assert handle_inbound(_reply(notice, _illegal(engine, state, seat, lang))).result != "stored"
    seen["refusal mail"] = _mail_text(_rows("refusal", seat)[-1], help_text)
    order = engine.order_text(state.legal_actions(seat)[0], lang)
    res = handle_inbound(_reply(notice, order))
    assert res.result == "stored", res.detail
    seen["confirmation mail"] = _mail_text(_rows("confirmation", seat)[-1], help_text)
    assert f"{order}  ->  {order}" not in seen["confirmation mail"]   # a line read as written is named once
    return seen


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(TABLES))
def test_no_english_command_word_on_any_order_page_or_mail(app, kind, lang):
    _players(lang)
    game_id = tour.new_game(kind, 3)
    seen = _web(app, game_id, kind, lang, game_state(game_id).current_seats()[0])
    seen.update(_mail(game_id, kind, lang))
    words = english_words(kind, lang)
    found = {where: english_in(text, words) for where, text in seen.items()}
    assert not any(found.values()), "\n".join(f"{where}: {f}\n  {_around(seen[where], f)}"
                                              for where, f in found.items() if f)


def _around(text: str, words: list[str]) -> str:
    at = next(m.start() for m in re.finditer(r"[^\W\d_]+", text.lower()) if m.group() in words)
    return repr(text[max(0, at - 60):at + 60])


def test_the_word_lists_are_the_games_english_words():
    assert {"gold", "build", "farm", "master", "builder"} <= english_words("lacitta", "fi")
    assert {"tile", "gate", "wall", "tower", "merchant"} <= english_words("diestadt", "cs")
    assert "ccw" not in english_words("diestadt", "cs")          # the Czech table writes cw/ccw too
    assert {"palace", "orange"} <= english_words("medina", "fi")
    assert "orange" not in english_words("medina", "de")          # German writes orange too
    assert english_in("rakenna maatila O1; Build farm O2", english_words("lacitta", "fi")) == ["build", "farm"]


def test_an_order_read_is_its_canonical_text_and_writes_itself_in_a_language():
    import pickle

    from pbem.service.core.echo import Order, order_in, text_in

    engine = get_game("lacitta")
    state = engine.new_state(3, 5, **engine.default_options())
    seat = state.current_seats()[0]
    action = next(a for a in state.legal_actions(seat) if a.to_text().startswith("build"))
    order = Order(action, engine)
    assert order == action.to_text() and pickle.loads(pickle.dumps(order)) == action.to_text()
    assert order_in(order, "fi") == engine.order_text(action, "fi") != action.to_text()
    assert order_in("wall cw guard", "fi") == "wall cw guard"      # a text with no action stays as it is
    assert text_in(engine, state, seat, action.to_text(), "cs") == engine.order_text(action, "cs")
    assert text_in(engine, state, seat, "xyzzy", "cs") == "xyzzy"


def test_a_refusal_quotes_the_line_as_written_but_never_an_example():
    from pbem.engine.messages import Msg
    from pbem.service.core.echo import as_written

    refused = Msg("{order} is not legal now.", order=repr("build farm O1"))
    assert str(as_written(refused, "rakenna maatila O1")) == "'rakenna maatila O1' is not legal now."
    example = Msg("Write one site after the building, like: {order}", order="build farm F6")
    assert as_written(example, "rakenna maatila") is example


def test_a_line_read_is_named_once_and_a_held_line_as_written():
    from pbem.service.core.echo import Order, read_as

    engine = get_game("lacitta")
    state = engine.new_state(3, 5, **engine.default_options())
    gold = next(a for a in state.legal_actions(state.current_seats()[0]) if a.to_text() == "gold")
    assert read_as("kulta", Order(gold, engine), "fi") == "kulta"
    assert read_as("ota kultaa", Order(gold, engine), "fi") == "ota kultaa  ->  kulta"
    assert read_as("muuri myötä vartija", "wall cw guard", "fi") == "muuri myötä vartija"


def test_a_line_held_for_later_is_reviewed_as_written(app):
    _players("fi")
    game_id = tour.new_game("diestadt", 3)
    state = game_state(game_id)
    waiting = next(s for s in range(state.seats) if s not in state.current_seats())
    client = signed_in(app, tour.PLAYERS[waiting][1])
    path = f"/games/{game_id}/seat/{waiting + 1}"
    token = CSRF_RE.search(client.get(path).get_data(as_text=True)).group(1)
    review = client.post(f"{path}/review", data={"csrf_token": token, "step": str(state.step),
                                                  "orders": "muuri myötä vartija"})
    assert review.status_code == 200, review.get_data(as_text=True)
    shown = _text(_part(review.get_data(as_text=True), "<ol", "</ol>"))
    assert "muuri myötä vartija" in shown and english_in(shown, english_words("diestadt", "fi")) == []


def test_next_json_gives_why_a_made_up_order_is_refused_without_quoting_it(app):
    # order.js asks next.json why a clicked site takes no order, with an order it made up:
    # the hint says only why, in the page's language (no English text to cut off)
    _players("fi")
    game_id = tour.new_game("diestadt", 3)
    state = game_state(game_id)
    seat = state.current_seats()[0]
    client = signed_in(app, tour.PLAYERS[seat][1])
    made_up = "laatta A1 0"
    nxt = client.get(f"/games/{game_id}/seat/{seat + 1}/next.json",
                     query_string={"orders": made_up, "step": str(state.step)}).get_json()
    [line] = nxt["lines"]
    assert made_up in line["error"] and line["why"] and made_up not in line["why"]
    assert line["error"].endswith(line["why"])
