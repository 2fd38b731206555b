"""CPU per delivered turn notice: what the mail worker spends on one mail.

    PYTHONPATH=<tree> .venv/bin/python -m pbem_dev.bench.mail_cpu [--profile]

Starts 12 three-seat La Città games (random set-up) on a fresh database of
the local PostgreSQL (``mailcpu``), then six rounds of one order a game by
mail (``submit_orders``) and one delivery run (``deliver_due``, SMTP
replaced by nothing); prints the process CPU a mail each round and in all
(the turn notices' composing, their pictures and close-ups, the outbox's
reads and writes). ``--profile``: cProfile of the delivery runs. Figures:
docs/performance.md, "Session of 2026-11-29".
"""
from __future__ import annotations

import cProfile
import datetime as dt
import pstats
import random
import sys
import time

import psycopg

import pbem_dev.bench.order_queries as oq

def main(argv: list[str]) -> None:
    """Run the rounds and print the CPU a mail (see the module)."""
    with psycopg.connect(f"{oq.PG}/postgres", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS mailcpu WITH (FORCE)"); conn.execute("CREATE DATABASE mailcpu")
    app = oq.make("postgresql+psycopg://postgres@127.0.0.1:5432/mailcpu")
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import create_game, join_game
    from pbem.service.play.orders import submit_orders
    from pbem.engine import get_game
    from pbem.mail import smtp
    from pbem.service.post.delivery import deliver_due
    sent = []
    smtp.send_raw = lambda *a, **k: sent.append(1)
    eng = get_game("lacitta"); rng = random.Random(2)
    prof = cProfile.Profile() if "--profile" in argv else None
    total = 0.0
    with app.app_context():
        gids = []
        for g in range(12):
            people = [(f"P{g}.{s}", f"p{g}-{s}@example.org") for s in range(3)]
            gid = create_game("lacitta", people[0][1], people, options={}, seed=100 + g).id
            for s in (1, 2): join_game(gid, s)
            gids.append(gid)
        deliver_due(now=dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1))
        sent.clear()
        for rnd in range(6):
            for gid in gids:
                game = db.session.get(Game, gid); st = eng.state_from_json(game.state)
                seat = st.current_seats()[0]
                submit_orders(gid, seat, rng.choice(st.legal_actions(seat)).to_text(), expected_step=st.step, source="email")
                db.session.remove()
            n0 = len(sent)
            if prof: prof.enable()
            t = time.process_time()
            deliver_due(now=dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1))
            total += time.process_time() - t
            if prof: prof.disable()
            print(f"round {rnd}: {len(sent)-n0} mails, {(time.process_time()-t)*1000/max(1,len(sent)-n0):.1f} ms CPU a mail")
    print(f"all: {total*1000/len(sent):.1f} ms CPU a mail over {len(sent)} mails")
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main(sys.argv[1:])
