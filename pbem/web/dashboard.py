"""``GET /``: the signed-in player's games (whose move it is, deadlines in
the player's zone); a visitor gets the front page with the sign-in form."""
from __future__ import annotations

from flask import Blueprint, g, render_template
from flask_babel import gettext

from pbem.service.core.models import CANCELLED
from pbem.service.core.models import ACTIVE, FINISHED, INVITED, PAUSED
from pbem.service.play.queries import pending_order, seats_of
from pbem.web.common import deadline_text, situation, time_left

bp = Blueprint("dashboard", __name__, template_folder="templates")


@bp.route("/")
def index():
    if g.player is None:
        return render_template("web/home.html")
    rows = []
    for seat in seats_of(g.player.id):
        game = seat.game
        sit = situation(game)
        yours = game.status == ACTIVE and seat.index in sit.waiting
        sent = bool(yours and pending_order(game.id, seat.index, game.step))
        rows.append({
            "game": game, "seat": seat, "yours": yours and not sent, "sent": sent,
            "waiting": [game.seat(i) for i in sit.waiting] if game.status in (ACTIVE, PAUSED) else [],
            "deadline": deadline_text(game.deadline_at, g.player.timezone or game.timezone),
            "left": time_left(game.deadline_at) if game.status == ACTIVE else "",
            "scores": sorted(sit.state.scores(), key=lambda s: (s.rank, s.seat))
            if game.status == FINISHED and sit.state is not None else [],
        })
    groups = [
        (gettext("Your move"), [r for r in rows if r["yours"]]),
        (gettext("Waiting for others"), [r for r in rows if r["game"].status in (ACTIVE, PAUSED) and not r["yours"]]),
        (gettext("Invitations and games not started"), [r for r in rows if r["game"].status == INVITED]),
        (gettext("Finished"), [r for r in rows if r["game"].status in (FINISHED, CANCELLED)]),
    ]
    return render_template("web/dashboard.html", groups=[(t, rs) for t, rs in groups if rs],
                           any_games=bool(rows))
