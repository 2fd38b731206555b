"""Static files of the pages: ``/assets/<file>`` from ``pbem/web/static``
and ``/assets/board/<file>`` (board.js, board.css) from
``pbem/boards/static``, and ``/favicon.ico`` (browsers ask for it whatever
the page links). Nothing is loaded from elsewhere."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory

from pbem.boards import STATIC_DIR as BOARD_STATIC

bp = Blueprint("assets", __name__)

WEB_STATIC = Path(__file__).resolve().parent / "static"


@bp.route("/assets/board/<path:name>")
def board(name: str):
    return send_from_directory(BOARD_STATIC, name, max_age=3600)


@bp.route("/assets/<path:name>")
def static(name: str):
    return send_from_directory(WEB_STATIC, name, max_age=3600)


@bp.route("/favicon.ico")
def favicon():
    return send_from_directory(WEB_STATIC, "favicon.ico", max_age=86400)
