"""SQL statements (and Python calls) one order costs, by each way in.

    PYTHONPATH=<tree> .venv/bin/python pbem_dev/bench/order_queries.py [N] [--pg] [--profile] [--sql]

Runs the ``pbem`` package found first on ``sys.path``, so the same file
counts any checkout (``PYTHONPATH=/tmp/d99`` for an older one). Starts
three-seat La Città games (``N``, default 5, each way measured once per
game) on a fresh SQLite file, or with ``--pg`` on a fresh database of the
local PostgreSQL (``pbem_order_queries``, dropped afterwards), and counts
the statements sent to the database (SQLAlchemy ``before_cursor_execute``)
by:

- ``web-resolve``: the order page's POST of a legal order of a seat that
  decides alone (the turn resolves in the request);
- ``web-stored``: the POST of the first seat of a decision taken at once
  (stored, the turn waits for the others);
- ``mail-resolve``: a reply to the seat's address through
  ``handle_inbound`` (the inbound pipeline) of a seat that decides alone;
- ``deliver-turn``: the worker's delivery run (``deliver_due``, SMTP
  replaced by nothing) that sends the turn notice ``web-resolve`` wrote.

Prints the mean count per way and, per way, the count per statement kind
(verb and first table); ``--sql`` also prints one order's statements;
``--profile`` prints the top functions of the web POSTs by call count
(``--profile --time``: by cProfile's time)
(cProfile, counts only: they do not depend on the machine's load).
Figures: docs/performance.md, "Order path (issue 24)".
"""
from __future__ import annotations

import cProfile
import collections
import pstats
import random
import re
import sys
import tempfile
from email.message import EmailMessage
from email.utils import make_msgid

PG = "postgresql://postgres@127.0.0.1:5432"
DB = "pbem_order_queries"
KIND = re.compile(r"^\s*(SELECT|INSERT INTO|UPDATE|DELETE FROM|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)"
                  r"\s+\"?(\w+)", re.S | re.I)
FROM = re.compile(r"\bFROM\s+\"?(\w+)", re.I)


def kind(sql: str) -> str:
    """``"SELECT games"``, ``"INSERT INTO outbox"``, ``"BEGIN"``: the verb
    and the table it writes, or for a SELECT the first table after a FROM
    (a subquery's, when one comes first)."""
    sql = sql.split("  <- ")[0]
    m = KIND.match(sql)
    if not m:
        return sql.split()[0].upper() if sql.split() else "?"
    verb = m.group(1).upper()
    if verb in ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"):
        return verb
    if verb == "SELECT":
        found = FROM.search(sql)
        return f"SELECT {found.group(1) if found else '?'}"
    return f"{verb} {m.group(2)}"


def where() -> str:
    """`` <- file:line function`` of the innermost pbem frames that made a
    statement (``--sql`` prints them)."""
    import traceback

    frames = [f for f in traceback.extract_stack() if "/pbem/" in f.filename and "/order_queries" not in f.filename]
    return "  <- " + " < ".join(f"{f.filename.rsplit('/pbem/', 1)[1]}:{f.lineno} {f.name}" for f in frames[-3:][::-1])


class Counter:
    def __init__(self, engine, trace: bool = False):
        from sqlalchemy import event

        self.on, self.statements, self.trace = False, [], trace
        event.listen(engine, "before_cursor_execute", self._seen)
        event.listen(engine, "begin", self._begin)
        event.listen(engine, "commit", self._commit)

    def _seen(self, conn, cursor, statement, params, context, executemany):
        if self.on:
            self.statements.append(statement + (where() if self.trace else ""))

    def _begin(self, conn):  # PostgreSQL's BEGIN is implicit in the driver: count it as a statement
        if self.on and conn.dialect.name != "sqlite":
            self.statements.append("BEGIN")

    def _commit(self, conn):
        if self.on:
            self.statements.append("COMMIT")

    def take(self):
        out, self.statements = self.statements, []
        return out


def main(argv: list[str]) -> None:
    n = int(next((a for a in argv if a.isdigit()), "5"))
    if "--pg" in argv:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {DB}")
        try:
            run(n, f"postgresql+psycopg://postgres@127.0.0.1:5432/{DB}", argv)
        finally:
            with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    else:
        run(n, f"sqlite:///{tempfile.mkdtemp()}/pbem.sqlite", argv)


def make(url: str):
    import pbem
    from pbem.service.core.db import db
    from pbem.web import create_app

    tmp = tempfile.mkdtemp()
    app = create_app({"INSTANCE_PATH": tmp, "TESTING": True, "SECRET_KEY": "count-" * 8,
                      "SQLALCHEMY_DATABASE_URI": url, "BROKER_URL": f"sqla+sqlite:///{tmp}/broker.sqlite",
                      "CELERY_EAGER": True, "DELIVER_AFTER_COMMIT": False, "INBOUND_ADDRESS": "play@pbem.test",
                      "MAIL_FROM": "pbem <pbem@pbem.test>", "BASE_URL": "http://pbem.test", "SMTP_PORT": 1})
    app.extensions["celery"].conf.task_always_eager = True
    with app.app_context():
        db.create_all()
    print(f"pbem from {pbem.__file__}; database {url.split(':')[0]}")
    return app


def run(n: int, url: str, argv: list[str]) -> None:
    from pbem.engine import get_game
    from pbem.service.core.db import db
    from pbem.service.core.models import Game
    from pbem.service.play.lifecycle import create_game, join_game

    app, engine, rng = make(url), get_game("lacitta"), random.Random(1)
    with app.app_context():
        counter = Counter(db.engine, trace="--sql" in argv)
    prof = Attributing() if "--attribute" in argv else cProfile.Profile() if "--profile" in argv else None
    ways: dict[str, list[list[str]]] = collections.defaultdict(list)

    def state_of(gid):
        with app.app_context():
            game = db.session.get(Game, gid)
            return engine.state_from_json(game.state), {s.index: (s.player_id, s.player.email) for s in game.seats}

    measured = ways
    for g in range(-1, n):
        # game -1 warms the process up (catalogs, compiled statements, imports), uncounted
        ways = collections.defaultdict(list) if g < 0 else measured
        prof_g = prof if g >= 0 else None
        with app.app_context():
            people = [(f"P{g}.{s}", f"p{g}-{s}@example.org") for s in range(3)]
            gid = create_game("lacitta", people[0][1], people, options={"setup": "beginner"}, seed=g % 1000).id
            for s in (1, 2):
                join_game(gid, s)
        # a seat that decides alone: by the order page, then by mail
        for way in ("web-resolve", "mail-resolve"):
            state, seats = state_of(gid)
            seat = state.current_seats()[0]
            text = rng.choice(state.legal_actions(seat)).to_text()
            if way == "web-resolve":
                deliver(app, None)   # the mail before this order goes first, uncounted
            ways[way].append(web_post(app, counter, prof_g, gid, seat, seats[seat][0], text, state.step)
                             if way.startswith("web") else mail(app, counter, gid, seat, seats[seat][1], text))
            if way == "web-resolve":
                ways["deliver-turn"].append(deliver(app, counter))
        # on to a decision taken at once; its first seat's POST is stored
        state, seats = state_of(gid)
        while len(state.current_seats()) < 2:
            seat = state.current_seats()[0]
            web_post(app, counter, None, gid, seat, seats[seat][0],
                     rng.choice(state.legal_actions(seat)).to_text(), state.step)
            state, seats = state_of(gid)
        seat = state.current_seats()[0]
        ways["web-stored"].append(web_post(app, counter, prof_g, gid, seat, seats[seat][0],
                                           rng.choice(state.legal_actions(seat)).to_text(), state.step))
    ways = measured
    report(ways, "--sql" in argv)
    if isinstance(prof, Attributing):
        prof.report(len(ways["web-resolve"]) + len(ways["web-stored"]))
    elif prof is not None:
        profile_report(prof, len(ways["web-resolve"]) + len(ways["web-stored"]), "--time" in argv)


class Attributing:
    """Python calls (``sys.setprofile`` call events, built-ins too) each
    charged to the innermost ``pbem`` function on the stack when it was
    made: which of pbem's functions the work of a POST comes from."""

    def __init__(self):
        self.counts: collections.Counter = collections.Counter()

    def _event(self, frame, event, arg):
        if event not in ("call", "c_call"):
            return
        f = frame
        while f is not None and "/pbem/" not in f.f_code.co_filename:
            f = f.f_back
        if f is not None:
            self.counts[f"{f.f_code.co_filename.rsplit('/pbem/', 1)[1]}:{f.f_code.co_name}"] += 1
        else:
            self.counts["(outside pbem: flask, werkzeug, limits...)"] += 1

    def enable(self):
        sys.setprofile(self._event)

    def disable(self):
        sys.setprofile(None)

    def report(self, posts: int) -> None:
        print(f"\nPython calls per web POST charged to pbem functions ({posts} POSTs): "
              f"{sum(self.counts.values()) / posts:.0f}")
        for fn, c in self.counts.most_common(30):
            print(f"  {c / posts:8.1f}  {fn}")


def profile_report(prof, posts: int, timed: bool = False) -> None:
    """Python calls per web POST: in all, by package, and the 30 functions
    called most (built-ins left out); with ``timed`` (``--time``) the 40
    functions with the most time of their own and the 40 with the most
    time inside them instead (cProfile's times: relative, not figures)."""
    if timed:
        stats = pstats.Stats(prof)
        for order in ("tottime", "cumulative"):
            stats.sort_stats(order).print_stats(40)
        return
    stats = pstats.Stats(prof).stats
    by_pkg: collections.Counter = collections.Counter()
    by_fn: collections.Counter = collections.Counter()
    for (filename, line, name), (_cc, ncalls, *_rest) in stats.items():
        path = filename.replace("\\", "/")
        pkg = ("pbem/" + path.rsplit("/pbem/", 1)[1].rsplit("/", 1)[0] if "/pbem/" in path
               else path.rsplit("site-packages/", 1)[1].split("/")[0] if "site-packages/" in path
               else "built-in" if filename == "~" else "stdlib")
        by_pkg[pkg] += ncalls
        if filename != "~":
            short = path.rsplit("/pbem/", 1)[-1] if "/pbem/" in path else path.rsplit("site-packages/", 1)[-1]
            by_fn[f"{short}:{line}({name})"] += ncalls
    print(f"\nPython calls per web POST (cProfile, {posts} POSTs): {sum(by_pkg.values()) / posts:.0f}")
    for pkg, c in by_pkg.most_common(14):
        print(f"  {c / posts:8.0f}  {pkg}")
    print("Functions called most per POST (built-ins left out):")
    for fn, c in by_fn.most_common(30):
        print(f"  {c / posts:8.1f}  {fn}")


def web_post(app, counter, prof, gid, seat, pid, text, step) -> list[str]:
    client = app.test_client()
    with client.session_transaction() as sess:
        sess["player_id"] = pid
    with app.app_context():
        page = client.get(f"/games/{gid}/seat/{seat + 1}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"orders": text, "step": str(step), "csrf_token": token}
    with app.app_context():
        counter.take()
        counter.on = True
        if prof is not None:
            prof.enable()
        resp = client.post(f"/games/{gid}/seat/{seat + 1}", data=form)
        if prof is not None:
            prof.disable()
        counter.on = False
    if resp.status_code != 302:
        raise SystemExit(f"order refused ({resp.status_code}): {form}\n{resp.get_data(as_text=True)[:2000]}")
    return counter.take()


def mail(app, counter, gid, seat, email, text) -> list[str]:
    from pbem.service.core.links import reply_address
    from pbem.service.inbound import handle_inbound

    with app.app_context():
        msg = EmailMessage()
        msg["From"], msg["To"] = email, reply_address(gid, seat)
        msg["Subject"], msg["Message-ID"] = f"Re: game {gid}", make_msgid(domain="example.org")
        notice = sent_notice(gid, seat)
        if notice:
            msg["In-Reply-To"] = msg["References"] = notice
        msg.set_content(text + "\n")
        raw = msg.as_bytes()
    with app.app_context():
        counter.take()
        counter.on = True
        res = handle_inbound(raw)
        counter.on = False
    if res.result != "stored":
        raise SystemExit(f"mail refused: {res}")
    return counter.take()


def deliver(app, counter) -> list[str]:
    """One delivery run (``deliver_due``, an hour on: past any live
    player's grace) with SMTP replaced by nothing; counted when ``counter``."""
    import datetime as dt

    from pbem.mail import smtp
    from pbem.service.post.delivery import deliver_due

    smtp.send_raw = lambda *a, **k: None
    with app.app_context():
        if counter is not None:
            counter.take()
            counter.on = True
        deliver_due(now=dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1))
        if counter is not None:
            counter.on = False
    return counter.take() if counter is not None else []


def sent_notice(gid: int, seat: int) -> str | None:
    """The Message-ID of the seat's latest turn notice, composed and kept as
    delivery would have sent it (the reply answers a mail that went out)."""
    from email.parser import BytesHeaderParser

    from sqlalchemy import select

    from pbem.service.core.db import db
    from pbem.service.core.models import OutboxMessage
    from pbem.service.post.outbox import render

    row = db.session.execute(select(OutboxMessage).where(
        OutboxMessage.game_id == gid, OutboxMessage.seat_index == seat, OutboxMessage.kind == "turn")
        .order_by(OutboxMessage.id.desc()).limit(1)).scalar_one_or_none()
    if row is None:
        return None
    if row.raw is None:
        row.raw = render(row)
        db.session.commit()
    return str(BytesHeaderParser().parsebytes(row.raw)["Message-ID"])


def report(ways: dict[str, list[list[str]]], sql: bool) -> None:
    for way, runs in ways.items():
        mean = sum(map(len, runs)) / len(runs)
        print(f"\n{way}: {mean:.1f} statements per order (min {min(map(len, runs))}, max {max(map(len, runs))},"
              f" {len(runs)} orders)")
        kinds = collections.Counter(kind(s) for r in runs for s in r)
        for k, c in sorted(kinds.items(), key=lambda kc: (-kc[1], kc[0])):
            print(f"  {c / len(runs):5.1f}  {k}")
        if sql:
            for s in runs[0]:
                sql, _, frames = s.partition("  <- ")
                print("    | " + " ".join(sql.split())[:150] + "\n    |      <- " + frames)


if __name__ == "__main__":
    main(sys.argv[1:])
