"""What a notice shows a seat, in its player's language: the phase and the
players named, the board picture and its close-up, the events since the
seat's last move, the legal orders and an example reply, the seat's held
orders (:func:`turn` gathers them for a turn notice).

Each seat's mail is built from ``state.view(seat)`` and the events visible
to that seat only, so no seat ever gets another seat's private information.
"""
from __future__ import annotations

import logging
from typing import Sequence

from sqlalchemy import select

from pbem.engine import get_game
from pbem.engine.messages import Msg, msg_from_json
from pbem.i18n import MSG_KEY, bot_marked, event_text, translate, translations
from pbem.i18n.bot_names import seat_holder
from pbem.i18n.seats import seat_words
from pbem.mail import compose
from pbem.mail.order_lists import arrange
from pbem.service.core import links, secret_links
from pbem.service.core.db import db
from pbem.service.core.held_text import held_lines, note as held_note
from pbem.service.core.models import Game, GameEvent, Seat, utcnow
from pbem.service.post.away_text import away_lines
from pbem.service.post.envelope import lang_of

log = logging.getLogger(__name__)

#: at most this many events in "since your last move"
EVENTS_QUOTED = 60


def phase_text(game: Game, state, lang: str) -> str:
    """The turn's phase in ``lang``, the players named (:func:`named`):
    the engine's (a ``Msg`` once the engines write them) when the state is
    at hand, else the stored text."""
    return named(game, state.phase() if state is not None else (game.phase or ""), lang)


def names_of(game: Game, lang: str = "en") -> dict[int, str]:
    """Seat index -> the name of the player holding it (seats without one
    left out; a bot's seat named in ``lang``, :func:`pbem.i18n.bot_names.seat_holder`)."""
    return {s.index: seat_holder(s, lang) for s in game.seats if s.player is not None and s.player.name}


def named(game: Game, text, lang: str) -> str:
    """An engine's message (``Msg``) or a line already in ``lang``, in
    ``lang`` with every seat it names written as its player's name, as the
    pages and the board picture do: a message's seat words become the names
    before it is translated (:func:`pbem.boards.words.with_names`), then
    each "Seat 2" left in the words of ``lang``
    (:func:`pbem.i18n.seats.seat_words`) is the name, unless the line names
    that player already ("Cy took seat 3")."""
    from pbem.boards.words import with_names

    names = names_of(game, lang)
    if isinstance(text, Msg):
        text = translate(with_names(text, names), lang)
    text = translate(text, lang)

    def swap(m) -> str:
        name = names.get(int(next(g for g in m.groups()[1:] if g)) - 1)
        return name if name and name not in text else m.group(0)

    return seat_words(lang).sub(swap, text)


def picture_view(game: Game, view: dict, lang: str = "en") -> dict:
    """``view`` with every seated player's name, as the board picture
    prints them (in seat colours, as the pages do; never "Seat 2"), its
    phase (an engine message) already in ``lang``: the placeholder keeps
    the view as JSON, where a message is only its English text."""
    from pbem.boards import named_view

    return named_view(view, {s.index: seat_holder(s, lang) for s in game.seats if s.player is not None}, lang)


def board_png(game: Game, view: dict, highlight: Sequence[str] = (), lang: str = "en") -> bytes | None:
    """The board picture part as this view shows it, players named and its
    words in ``lang``: a placeholder that
    outbox delivery draws into the PNG (:mod:`pbem.service.post.pictures`; drawing
    takes far longer than the rest of a turn, so it stays out of the turn's
    transaction), or ``None`` when the game has no board picture (the email
    then carries everything in words)."""
    try:
        from pbem.service.post.pictures import placeholder

        return placeholder(game.kind, picture_view(game, view, lang), highlight, lang=lang)
    except KeyError:
        return None
    except Exception:  # a picture must never stop a turn; the text carries everything
        log.exception("board picture of game %s failed", game.id)
        return None


def closeup_png(game: Game, view: dict, highlight: Sequence[str], lang: str = "en") -> tuple[bytes | None, str]:
    """The close-up picture part for a phone (a placeholder, drawn at
    delivery like :func:`board_png`) and its alternative text naming the
    legal sites it shows: the region of the board with the most legal
    sites at a scale where coordinates are legible on a 375 px screen
    (:mod:`pbem.boards.closeup`). ``(None, "")`` when the full picture is
    legible already, there are no legal sites, or the game has no board."""
    if not highlight:
        return None, ""
    try:
        from pbem.boards import closeup
        from pbem.service.post.pictures import placeholder

        view = picture_view(game, view, lang)
        found = closeup.window_of(game.kind, view, highlight, lang)
        if found is None:
            return None, ""
        box, shown = found
        return (placeholder(game.kind, view, highlight, closeup=box, lang=lang),
                translations(lang).gettext("Close-up of the board around your legal sites {sites}").format(
                    sites=", ".join(shown)))
    except KeyError:
        return None, ""
    except Exception:  # a picture must never stop a turn; the text carries everything
        log.exception("close-up picture of game %s failed", game.id)
        return None, ""


def events_since(game: Game, seat: int, since_step: int) -> list[GameEvent]:
    """Events after ``since_step`` that ``seat`` may see, oldest first."""
    rows = db.session.execute(
        select(GameEvent).where(GameEvent.game_id == game.id, GameEvent.step > since_step)
        .order_by(GameEvent.id)).scalars()
    return [e for e in rows if e.visible_to(seat)][-EVENTS_QUOTED:]


def seat_label(seat: Seat, lang: str = "en") -> str:
    """``"Bruno (seat 2)"`` in ``lang``."""
    return translations(lang).gettext("{name} (seat {number})").format(name=seat_holder(seat, lang),
                                                                       number=seat.number)


def seat_text(seat: Seat, lang: str = "en") -> str:
    """``"seat 2"`` in ``lang``."""
    return translations(lang).gettext("seat {number}").format(number=seat.number)


def board_alt(game: Game, phase: str, lang: str) -> str:
    """The board picture's alternative text in ``lang``."""
    return translations(lang).gettext("The board of {title} #{number}, {phase}").format(
        title=game.title, number=game.id, phase=phase)


def _events(game: Game, seat: int, since_step: int, lang: str) -> list[str]:
    """:func:`events_since` as lines in ``lang``."""
    return [event_line(game, e, lang) for e in events_since(game, seat, since_step)]


def event_line(game: Game, event: GameEvent, lang: str) -> str:
    """A stored game log line in ``lang`` with the players named (:func:`named`)."""
    kept = (event.data or {}).get(MSG_KEY)
    if kept:   # marked as a bot's order when it is one (issue 27)
        return bot_marked(named(game, msg_from_json(kept), lang), event.data, lang)
    return named(game, event_text(event.text, event.data, lang), lang)


def example_reply(state, seat: int, limit: int = 8, *, engine=None, lang: str = "en") -> list[str]:
    """The lines of one legal reply: an order for every decision ``seat``
    owes in this turn (Medina: both pieces; one line in a La Città
    political round), each picked from the middle of the legal orders then,
    so the example works as written and shows the turn's shape. With
    ``engine`` (the game's :class:`~pbem.engine.api.Game`) the lines are
    written in ``lang`` (:meth:`~pbem.engine.api.Game.order_text`)."""
    trial, key, lines = state.copy(), state.turn_key(), []
    while seat in trial.current_seats() and trial.turn_key() == key and len(lines) < limit:
        actions = sorted(trial.legal_actions(seat), key=lambda a: a.to_text())
        if not actions:
            break
        action = actions[len(actions) // 2]
        lines.append(engine.order_text(action, lang) if engine is not None else action.to_text())
        trial.apply(seat, action)
    return lines


def turn(game: Game, state, seat: Seat) -> compose.Turn:
    """The decision ``seat`` owes now, as the mail library wants it, in
    the seat's player's language: the legal orders and the example reply
    in its words (:meth:`~pbem.engine.api.Game.order_text`), the engine's
    messages and log lines translated."""
    engine = get_game(game.kind)
    lang = lang_of(seat.player)
    view = state.view(seat.index)
    actions = state.legal_actions(seat.index)
    legal = arrange(engine.order_text(a, lang) for a in actions)  # common orders first, A2 before A10
    sites = sorted({a.site for a in actions if a.site})
    examples = example_reply(state, seat.index, engine=engine, lang=lang)
    near, near_alt = closeup_png(game, view, sites, lang)
    phase = phase_text(game, state, lang)
    return compose.Turn(
        phase=phase, seat=seat_text(seat, lang), deadline=game.deadline_at,
        order_url=links.seat_signin_url(seat.player_id, game.id, seat.index),
        private_info=_with_held(view_text_in(game, view, lang), game.id, seat.index, lang, engine),
        since_last=_events(game, seat.index, seat.last_moved_step, lang),
        legal_orders=legal, order_help=translate(engine.order_help(), lang), examples=examples,
        board_png=board_png(game, view, sites, lang), board_alt=board_alt(game, phase, lang),
        closeup_png=near, closeup_alt=near_alt,
        away=away_lines(game, seat, now=utcnow(), lang=lang, zone=seat.player.timezone or game.timezone),
        calendar_url=_own_feed(seat.player), paced=game.person_paced)


def _own_feed(player) -> str:
    """``player``'s own calendar feed URL (absolute), ``""`` when they
    have none: it goes into their own seat's mail only."""
    path = secret_links.calendar_path(player.id, player.calendar_nonce)
    return links.absolute(path) if path else ""


def _with_held(text: str, game_id: int, seat_index: int, lang: str, engine) -> str:
    """The seat's view text, then the orders it holds for later decisions
    (:mod:`pbem.service.core.held_text`), if any, in ``lang`` (``engine`` writes them)."""
    note = held_note(held_lines(game_id, seat_index), engine)
    return f"{text}\n\n{translate(note, lang)}" if note else text


def view_text_in(game: Game, view: dict, lang: str) -> str:
    """The engine's text form of ``view`` (``Game.view_text``) in ``lang``."""
    return get_game(game.kind).view_text(view, tr=lambda m: translate(m, lang))
