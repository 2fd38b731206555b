"""Seeding the bench database with finished games, fast (``COPY``, no engine play).

Every seeded game is a finished La Città game of ``seats`` seats with the
rows a real finished game leaves behind: the final state snapshot, seats,
an action log (``moves``), the game log (``game_events``) and sent emails
(``outbox``). The snapshot, move texts and event texts come from one real
random game played once in this process; the rows are cheap copies of it,
so seeding 100 000 games takes a minute or two instead of days of play.
Per game row counts are capped (``moves``, ``events``, ``mails``) to keep
the database a few GB at 100k games; the caps are printed with the figures.
"""
from __future__ import annotations

import datetime as dt
import random
import time
from dataclasses import dataclass

import psycopg

from pbem.engine import get_game


@dataclass(frozen=True)
class SeedShape:
    """Rows per seeded finished game."""

    seats: int = 3
    moves: int = 60
    events: int = 60
    mails: int = 12
    mail_bytes: int = 3000


def _sample_game(seats: int, seed: int = 1) -> tuple[str, list[tuple[int, int, str]], list[tuple[int, str, str]]]:
    """A real finished La Città game: (final state JSON, moves, events)."""
    engine = get_game("lacitta")
    rng = random.Random(seed)
    state = engine.new_state(seats, seed)
    moves: list[tuple[int, int, str]] = []
    events: list[tuple[int, str, str]] = []
    while not state.is_terminal():
        seat = rng.choice(state.current_seats())
        action = rng.choice(state.legal_actions(seat))
        moves.append((state.step, seat, action.to_text()))
        for ev in state.apply(seat, action):
            events.append((state.step, ev.kind, ev.text))
    return state.to_json(), moves, events


def seed_finished_games(url: str, count: int, shape: SeedShape = SeedShape(), *,
                        echo=print) -> float:
    """Insert ``count`` finished games into the (migrated, empty) database
    at ``url`` (a libpq URL, ``postgresql://...``). Returns seconds taken.
    Players are shared: ``seats * 50`` players sit at the seeded tables, as
    regular players of a real service would."""
    if count <= 0:
        return 0.0
    t0 = time.perf_counter()
    state_json, moves, events = _sample_game(shape.seats)
    moves, events = moves[:shape.moves], events[:shape.events]
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    began = now - dt.timedelta(days=365)
    filler = ("x" * 76 + "\r\n") * max(1, shape.mail_bytes // 78)
    n_players = shape.seats * 50
    with psycopg.connect(url, autocommit=False) as conn:
        cur = conn.cursor()
        first_player = cur.execute("SELECT coalesce(max(id), 0) + 1 FROM players").fetchone()[0]
        first_game = cur.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0]
        with cur.copy("COPY players (id, email, name, timezone, created_at) FROM STDIN") as cp:
            for p in range(n_players):
                pid = first_player + p
                cp.write_row((pid, f"seeded{pid}@bench.example.org", f"Seeded {pid}", "UTC", began))
        with cur.copy("COPY games (id, kind, title, options, seed, status, host_id, deadline_seconds, "
                      "reminder_seconds, timezone, state, step, phase, created_at, started_at, "
                      "finished_at, updated_at) FROM STDIN") as cp:
            for g in range(count):
                gid = first_game + g
                when = began + dt.timedelta(seconds=g * 60)
                cp.write_row((gid, "lacitta", "La Città", "{}", gid, "finished",
                              first_player + (g % n_players), 172800, 43200, "UTC", state_json,
                              len(moves), "game over", when, when, when + dt.timedelta(days=20),
                              when + dt.timedelta(days=20)))
        with cur.copy('COPY seats (game_id, "index", player_id, joined, joined_at, missed_turns, '
                      "last_moved_step) FROM STDIN") as cp:
            for g in range(count):
                gid = first_game + g
                for s in range(shape.seats):
                    cp.write_row((gid, s, first_player + (g + s * 7) % n_players, True, began, 0,
                                  len(moves)))
        with cur.copy("COPY moves (game_id, step, seat_index, text, source, created_at) FROM STDIN") as cp:
            for g in range(count):
                gid = first_game + g
                for step, seat, text in moves:
                    cp.write_row((gid, step, seat, text, "web", began))
        with cur.copy("COPY game_events (game_id, step, seat_index, text, kind, data, created_at) "
                      "FROM STDIN") as cp:
            for g in range(count):
                gid = first_game + g
                for step, kind, text in events:
                    cp.write_row((gid, step, None, text, kind or "", "{}", began))
        with cur.copy("COPY outbox (game_id, seat_index, recipient, kind, subject, raw, dedupe_key, "
                      "status, attempts, next_attempt_at, created_at, sent_at) FROM STDIN") as cp:
            for g in range(count):
                gid = first_game + g
                for m in range(shape.mails):
                    seat = m % shape.seats
                    raw = f"Subject: seeded {gid}/{m}\r\n\r\n{filler}".encode()
                    cp.write_row((gid, seat, f"seeded{seat}@bench.example.org", "turn", f"seeded {gid}/{m}",
                                  raw, f"turn:{gid}:{m}:{seat}", "sent", 1, began, began, began))
        # the sequences must continue after the ids given explicitly above
        for table in ("players", "games"):
            cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    seconds = time.perf_counter() - t0
    echo(f"seeded {count} finished games ({shape.seats} seats, {len(moves)} moves, {len(events)} events, "
         f"{shape.mails} sent mails each) in {seconds:.1f} s")
    return seconds
