"""The framework floor (issue 24): the least an order endpoint costs.

A Flask + Flask-SQLAlchemy + psycopg app with one endpoint shaped like
pbem's order POST, and nothing else (no session, CSRF, rate limit,
engine, notice or template): ``POST /games/<game>/seat/<seat>`` with the
form fields ``orders`` and ``step``

1. locks the game row (``SELECT ... FOR UPDATE``),
2. answers 409 when ``step`` is not the game's step,
3. inserts the order row and moves the game's step on by one,
4. commits and redirects (302), as pbem's order page does.

``pbem bench service --floor`` serves it under the same granian as pbem
(``granian --interface wsgi --factory bench.floor_app:create_app``) and
drives it with the same clients (:mod:`pbem_dev.bench.floor`); pbem's server CPU per
order divided by the floor's per request is the ratio issue 24 asks about.

Settings from the environment: ``PBEM_FLOOR_DATABASE_URL`` (SQLAlchemy URL,
``postgresql+psycopg://...``) and ``PBEM_WEB_THREADS`` (connections pooled
per process, as pbem's ``PBEM_DB_POOL_SIZE`` defaults to).
"""
from __future__ import annotations

import datetime as dt
import os

from flask import Flask, abort, redirect, request
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


class FloorGame(db.Model):
    """A game: its id and the step it waits for."""

    __tablename__ = "floor_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    step: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class FloorOrder(db.Model):
    """One order a seat sent for a step."""

    __tablename__ = "floor_orders"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("floor_games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


def create_app(database_url: str | None = None) -> Flask:
    """The floor app on ``database_url`` (default ``PBEM_FLOOR_DATABASE_URL``)."""
    app = Flask(__name__)
    threads = int(os.environ.get("PBEM_WEB_THREADS", "2"))
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url or os.environ["PBEM_FLOOR_DATABASE_URL"]
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True, "pool_size": max(5, threads)}
    db.init_app(app)
    app.add_url_rule("/games/<int:game_id>/seat/<int:seat>", view_func=post_order, methods=["POST"])
    return app


def post_order(game_id: int, seat: int):
    """Store one order for the game's current step: 302, 404 for no such
    game, 409 for another step, 400 for a form without ``step``."""
    try:
        step = int(request.form["step"])
    except (KeyError, ValueError):
        abort(400)
    text = request.form.get("orders", "")[:2000]
    game = db.session.execute(select(FloorGame).where(FloorGame.id == game_id).with_for_update()).scalar_one_or_none()
    if game is None:
        abort(404)
    if game.step != step:
        db.session.rollback()
        abort(409)
    now = dt.datetime.now(dt.timezone.utc)
    db.session.add(FloorOrder(game_id=game_id, seat=seat, step=step, text=text, created_at=now))
    game.step, game.updated_at = step + 1, now
    db.session.commit()
    return redirect(f"/games/{game_id}/seat/{seat}", code=302)


def create_tables(database_url: str, games: int) -> None:
    """Create the floor's tables in ``database_url`` with ``games`` games at step 0."""
    app = create_app(database_url)
    with app.app_context():
        db.create_all()
        db.session.add_all(FloorGame(id=g, step=0) for g in range(1, games + 1))
        db.session.commit()
        db.engine.dispose()
