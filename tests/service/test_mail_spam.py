"""The mail a real game sends, kind by kind, passes SpamAssassin under 1.0
(issue 13, "What pbem sends"): invitations, turn notices, reminders and
missed-turn notices, each as delivery sends it, board picture included."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.service.play.deadlines import scan
from pbem.service.play.lifecycle import create_game, join_game
from pbem.service.play.orders import submit_orders
from tests.spamassassin import LIMIT, needs_spamassassin, score

from .helpers import PLAYERS, compose_pending, outbox, parsed

H = dt.timedelta(hours=1)
pytestmark = [needs_spamassassin, pytest.mark.slow]


def _play_a_little(t0) -> None:
    gid = create_game("lacitta", PLAYERS[0][1], PLAYERS, seed=11, now=t0).id
    for i in (1, 2):
        join_game(gid, i, now=t0)
    compose_pending()
    submit_orders(gid, 0, "gold", expected_step=None, source="email", now=t0 + H)
    compose_pending()
    scan(now=t0 + 40 * H)                      # the reminder
    compose_pending()
    scan(now=t0 + 60 * H)                      # the deadline: a missed turn
    compose_pending()


def test_every_kind_of_mail_a_game_sends_scores_under_one_point(app, t0):
    _play_a_little(t0)
    kinds: dict[str, bytes] = {}
    for row in outbox():
        if row.kind not in kinds and row.raw is not None:
            kinds[row.kind] = parsed(row).as_bytes()
    assert {"invite", "turn", "reminder", "missed"} <= set(kinds), sorted(kinds)
    for kind, raw in sorted(kinds.items()):
        points, report = score(raw)
        assert points < LIMIT and "HTML_IMAGE_ONLY" not in report, f"{kind}: {points}\n{report}"
