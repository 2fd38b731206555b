"""The game record (issue 25; docs/long-games.md): a game as JSON
(settings, seed, seats, every order and event) and as readable text in a
player's language, in the form of the golden playthroughs
(``tests/engine/golden/``).

Two kinds of record:

- **the whole record** (``seat=None``), of a game that is over (finished or
  cancelled): the seed, every order, every event (private ones too: the
  game is over) and ``final_state``, the engine's state JSON, which
  ``pbem replay`` (:mod:`pbem.service.play.record_check`) must reach byte
  for byte. Public, like the game's page.
- **a seat's record** of a running game (``seat=<index>``), for that
  seat's player only: no seed (it would tell every hidden card), no
  final state, only the seat's own orders and the events it may see
  (public ones and its own). It is marked ``"complete": false``.

Players are named by their names, never their addresses.
"""
from __future__ import annotations

from pbem.engine import get_game
from pbem.i18n import event_text, translate, translations
from pbem.service.core.errors import NotAllowed
from pbem.service.core.db import db
from pbem.service.core.models import CANCELLED, FINISHED, GameEvent
from pbem.service.core.snapshot import engine_state, load_game
from pbem.service.play.record_check import FORMAT, VERSION
from pbem.service.play.replay import moves_of

OVER = (FINISHED, CANCELLED)


def _iso(when) -> str | None:
    return when.isoformat() if when is not None else None


def game_record(game_id: int, seat: int | None = None) -> dict:
    """The record of game ``game_id`` as a JSON-ready dict: the whole one
    (``seat`` ``None``; :class:`NotAllowed` while the game runs) or seat
    ``seat``'s (0-based index)."""
    game = load_game(game_id)
    whole = seat is None
    if whole and game.status not in OVER:
        raise NotAllowed("a running game's record is only for its players")
    rec = {"format": FORMAT, "version": VERSION, "game": game.kind, "id": game.id, "title": game.title,
           "status": game.status, "options": dict(game.options or {}),
           "seats": [{"number": s.number, "name": s.player.name if s.player else ""} for s in game.seats],
           "deadline_hours": game.deadline_seconds / 3600, "timezone": game.timezone,
           "created_at": _iso(game.created_at), "started_at": _iso(game.started_at),
           "finished_at": _iso(game.finished_at), "step": game.step}
    if whole:
        rec["seed"] = str(game.seed)
    else:
        rec.update(seat=seat + 1, complete=False)
    rec["moves"] = [{"step": m.step, "seat": m.seat_index + 1, "order": m.text, "source": m.source}
                    for m in moves_of(game.id) if whole or m.seat_index == seat]
    rec["events"] = [{"step": e.step, "seat": None if e.seat_index is None else e.seat_index + 1,
                      "kind": e.kind, "text": e.text} for e in _events(game.id, seat, whole)]
    if whole and game.state is not None:
        rec["final_state"] = game.state
        if game.status == FINISHED:
            rec["scores"] = [{"seat": s.seat + 1, "rank": s.rank, "points": s.points, "tiebreak": s.tiebreak,
                              "detail": dict(s.detail)} for s in engine_state(game).scores()]
    return rec


def _events(game_id: int, seat: int | None, whole: bool) -> list[GameEvent]:
    rows = db.session.execute(db.select(GameEvent).where(GameEvent.game_id == game_id)
                              .order_by(GameEvent.id)).scalars()
    return [e for e in rows if whole or e.visible_to(seat)]


def record_text(game_id: int, lang: str, seat: int | None = None) -> str:
    """The record as text in ``lang``: a header, the views (a spectator's
    for the whole record, the seat's own for a seat's), each order with the
    events it caused (``[all]`` or ``[seat N]``), the final scores."""
    game = load_game(game_id)
    rec = game_record(game_id, seat)
    _ = translations(lang).gettext
    engine = get_game(game.kind)
    tr = lambda m: translate(m, lang)  # noqa: E731
    names = {s["number"]: s["name"] for s in rec["seats"]}
    who = lambda n: _("{name} (seat {number})").format(number=n, name=names.get(n) or "?")  # noqa: E731
    options = " ".join(f"{k}={v}" for k, v in sorted(rec["options"].items())) or _("none")
    lines = [_("# pbem game record: {game} #{number} \u201c{title}\u201d, {seats} seats, options {options}").format(
        game=engine.title, number=game.id, title=game.title, seats=len(rec["seats"]), options=options)]
    lines.append(_("# seed {seed}; check it: pbem replay FILE.json").format(seed=rec["seed"]) if "seed" in rec
                 else _("# the record of seat {number} in a running game: your own orders and what you may see")
                 .format(number=seat + 1))
    state = engine.new_state(len(game.seats), game.seed, **(game.options or {}))
    _view(lines, engine, state, seat, _("at the start"), tr, who)
    headings = {}
    for move in moves_of(game.id):
        default = state.default_action(move.seat_index) if move.source == "deadline" else None
        action = default if default is not None and default.to_text() == move.text \
            else engine.parse_action(state, move.seat_index, move.text)
        order = engine.order_text(action, lang) if seat is None or move.seat_index == seat else "\u2026"
        state.apply(move.seat_index, action)
        headings[state.step] = f"== {_('step {step}').format(step=state.step)}: {who(move.seat_index + 1)}: {order}"
    events: dict[int, list[GameEvent]] = {}
    for e in _events(game.id, seat, seat is None):
        events.setdefault(e.step, []).append(e)
    for step in sorted(set(headings) | set(events)):
        if step in headings:
            lines.append(headings[step])
        lines.extend(_line(e, lang, _) for e in events.get(step, []))
    _view(lines, engine, state, seat, _("at the end") if game.status in OVER else _("now"), tr, who)
    if game.status == FINISHED and state.is_terminal():
        lines.append("== " + _("scores"))
        for s in sorted(state.scores(), key=lambda s: (s.rank, s.seat)):
            lines.append("  " + _("place {rank}: {who}, {points} points, tie-break {tiebreak}").format(
                rank=s.rank, who=who(s.seat + 1), points=s.points, tiebreak=s.tiebreak))
    return "\n".join(lines) + "\n"


def _line(e: GameEvent, lang: str, _) -> str:
    scope = _("all") if e.seat_index is None else _("seat {number}").format(number=e.seat_index + 1)
    return f"  [{scope}] {event_text(e.text, e.data, lang)}"


def _view(lines: list[str], engine, state, seat: int | None, when: str, tr, who) -> None:
    """The view of ``seat`` (``None``: a spectator's) under a heading."""
    lines.append(f"== {who(seat + 1)}, {when}" if seat is not None else f"== {when}")
    text = engine.view_text(state.view(seat), tr=tr).rstrip("\n")
    lines.extend("  " + ln if ln else "" for ln in text.split("\n"))
