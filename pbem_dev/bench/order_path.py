"""CPU of one order on the order path, in-process (no HTTP server, no worker).

    .venv/bin/python -m pbem_dev.bench.order_path [N] [--direct] [--profile [--callees REGEX]]

Creates a database of its own on the local PostgreSQL (``pbem_order_path``,
dropped afterwards) and Redis database 13 for rate-limit counts, starts
three-seat La Città games through the service, and posts N orders (default
300) through Flask's test client exactly as the order page does (session,
CSRF token, the turn step), round-robin over the games, each a random legal
order of a seat still to move. Prints the CPU milliseconds
(``time.process_time``) per POST; ``--direct`` also times
``submit_orders`` called without Flask; ``--profile`` prints a cProfile
(CPU-timed, so it inflates pure-Python code) of the measured calls, and
with ``--callees REGEX`` what the functions matching REGEX called.
Figures: docs/performance.md.
"""
from __future__ import annotations

import cProfile
import pstats
import random
import re
import sys
import tempfile
import time

PG = "postgresql://postgres@127.0.0.1:5432"
DB = "pbem_order_path"


def main(argv: list[str]) -> None:
    import psycopg
    import redis

    n = int(next((a for a in argv if a.isdigit()), "300"))
    profile = "--profile" in argv
    redis.Redis.from_url("redis://127.0.0.1:6379/13").flushdb()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")
    try:
        callees = argv[argv.index("--callees") + 1] if "--callees" in argv[:-1] else None
        run(n, profile=profile, direct="--direct" in argv, callees=callees)
    finally:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


def run(n: int, *, profile: bool, direct: bool, callees: str | None = None) -> None:
    from pbem.engine import get_game
    from pbem.service.core.db import db
    from pbem.service.core.migrate import upgrade
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import create_game, join_game
    from pbem.service.play.orders import pending_seats, submit_orders
    from pbem.web import create_app

    url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{DB}"
    upgrade(url)
    app = create_app({"INSTANCE_PATH": tempfile.mkdtemp(), "SECRET_KEY": "bench-" * 8,
                      "SQLALCHEMY_DATABASE_URI": url, "BROKER_URL": "redis://127.0.0.1:6379/13",
                      "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/13", "BASE_URL": "http://bench.example.org",
                      "CELERY_EAGER": False, "DELIVER_AFTER_COMMIT": False})
    engine, rng = get_game("lacitta"), random.Random(1)
    games = []
    with app.app_context():
        for g in range(n // 20 + 2):  # a three-seat game is ~95 decisions: none ends within the run
            people = [(f"P{g}.{s}", f"p{g}-{s}@bench.example.org") for s in range(3)]
            gid = create_game("lacitta", people[0][1], people, seed=g).id
            for s in (1, 2):
                join_game(gid, s)
            games.append((gid, {s.index: s.player_id for s in db.session.get(Game, gid).seats}))
        db.session.remove()
    clients, tokens = {}, {}

    def next_order(gid: int, seats: dict[int, int]):
        with app.app_context():
            game = db.session.get(Game, gid)
            state, step = engine.state_from_json(game.state), game.step
            have = set(pending_seats(gid, step))
            db.session.remove()
        seat = next(s for s in state.current_seats() if s not in have)
        pid = seats[seat]
        if pid not in clients:
            clients[pid] = app.test_client()
            with clients[pid].session_transaction() as sess:
                sess["player_id"] = pid
            page = clients[pid].get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
            tokens[pid] = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        text = rng.choice(state.legal_actions(seat)).to_text()
        return clients[pid], seat, f"/games/{gid}/seat/{seat + 1}", {
            "orders": text, "step": str(step), "csrf_token": tokens[pid]}

    prof = cProfile.Profile(time.process_time)
    for label, call in (("POST", "post"), ("direct submit_orders", "direct")):
        if call == "direct" and not direct:
            continue
        cpu = 0.0
        for i in range(n):
            gid, seats = games[i % len(games)]
            client, seat, path, form = next_order(gid, seats)
            with app.test_request_context():
                t = time.process_time()
                prof.enable() if profile else None
                if call == "post":
                    status = client.post(path, data=form).status_code
                else:
                    status = 302 if submit_orders(gid, seat, form["orders"], expected_step=int(form["step"]),
                                                  source="web").accepted else 422
                prof.disable() if profile else None
                cpu += time.process_time() - t
                db.session.remove()
            if status not in (302, 303):
                raise SystemExit(f"order refused ({status}): {form}")
        print(f"CPU per {label}: {1000 * cpu / n:.2f} ms over {n} orders")
    if profile:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(50)
        if callees:
            pstats.Stats(prof).sort_stats("cumulative").print_callees(callees)


if __name__ == "__main__":
    main(sys.argv[1:])
