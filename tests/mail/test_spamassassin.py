"""Every kind of mail pbem sends passes SpamAssassin under 1.0 points.

Debian's ``spamassassin`` with its packaged rules, local tests only
(``-L``: no DNS or network checks, which this machine cannot make and a
receiving server makes on its own evidence). Each message is built as the
service builds it, with a real board picture, and scored as delivered.
``scripts/test.sh`` installs the package when missing; outside CI the test
skips without it, in CI it fails.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.boards import render_png
from pbem.engine import get_game
from pbem.mail import compose as c
from tests.spamassassin import LIMIT, needs_spamassassin, score

SENT = datetime(2026, 11, 23, 16, 0, tzinfo=timezone.utc)

pytestmark = needs_spamassassin


def _envelope(kind: str) -> c.Envelope:
    return c.Envelope(sender="pbem <pbem@pbem.example.org>", to_name="Matti Mäkelä",
                      to_address="matti@example.fi", reply_to="pbem+12-1-a1b2c3d4e5f6a7b8@pbem.example.org",
                      inbound_address="pbem@pbem.example.org", timezone="Europe/Helsinki",
                      sent_at=SENT, msgid_tag=f"pbem.12.7.0.{kind}")


def _board() -> tuple[bytes, str]:
    game = get_game("lacitta")
    state = game.new_state(3, 7)
    return render_png("lacitta", state.view(0)), "The board: three castles and their cities"


def _turn(board: bytes, alt: str) -> c.Turn:
    game = get_game("lacitta")
    state = game.new_state(3, 7)
    return c.Turn(phase="Year 1, political round 1", seat="Matti (seat 1)",
                  deadline=SENT + timedelta(hours=48), order_url="https://pbem.example.org/games/12/seat/1",
                  private_info=game.view_text(state.view(0)),
                  since_last=["Anna took 2 gold.", "Bruno built a farm at F7."],
                  legal_orders=[a.to_text() for a in state.legal_actions(0)],
                  order_help=game.order_help(), examples=["gold", "build farm F7"],
                  board_png=board, board_alt=alt)


def _messages():
    board, alt = _board()
    turn = _turn(board, alt)
    game = c.GameRef("La Città", 12, "https://pbem.example.org/games/12")
    env = _envelope
    yield "invitation", c.invitation(
        env("invitation"), game, host_name="Anna", seat=1, other_players=["Anna", "Bruno"],
        signin_url="https://pbem.example.org/signin/abc.def.ghi", deadline_hours=48,
        link_expires_at=SENT + timedelta(days=7), game_kind="lacitta")
    yield "signin", c.signin(env("signin"), signin_url="https://pbem.example.org/signin/abc.def.ghi",
                             expires_at=SENT + timedelta(hours=1))
    yield "turn_notice", c.turn_notice(env("turn"), game, turn)
    yield "reminder", c.reminder(env("reminder"), game, turn)
    yield "turn_result", c.turn_result(env("result"), game, c.Result(
        phase="Year 1, political round 1", events=["Anna took 2 gold.", "Bruno built a farm at F7."],
        next_up="Carla (seat 3) is to move.", board_png=board, board_alt=alt, position_text=turn.private_info))
    yield "missed_turn", c.missed_turn(
        env("missed"), game, phase="Year 1, political round 2", default_order="pass", missed_count=1,
        events=["Matti passed (missed deadline)."], next_up="Anna (seat 2) is to move.",
        board_png=board, board_alt=alt, position_text=turn.private_info)
    yield "order_confirmation", c.order_confirmation(
        env("confirm"), game, phase="Year 1, political round 1", lines_read=["build farm F7"],
        outcome=["Matti built a farm at F7."], next_up="Anna (seat 2) is to move.",
        order_url="https://pbem.example.org/games/12/seat/1")
    yield "order_refusal", c.order_refusal(
        env("refusal"), game, lines_read=["build farm Z99"], failed_line=1,
        reason="Z99 is not a site on the board.", turn=turn)
    yield "game_over", c.game_over(
        env("over"), game, scores=[c.ScoreLine(1, "Anna", 21, "4 gold"), c.ScoreLine(2, "Matti", 19, "7 gold")],
        events=["The game ends after year 6."], final_view="Anna 21 points\nMatti 19 points",
        board_png=board, board_alt=alt)
    yield "host_action", c.host_action(
        env("extended"), game, action="extended", phase="Year 1, political round 1",
        deadline=SENT + timedelta(hours=30), earlier=["The host paused the game."],
        board_png=board, board_alt=alt, position_text=turn.private_info)


@pytest.mark.slow
@pytest.mark.parametrize("kind,msg", list(_messages()), ids=lambda v: v if isinstance(v, str) else "")
def test_mail_scores_under_one_point(kind, msg):
    points, report = score(msg.as_bytes())
    assert points < LIMIT, f"{kind}: {points} points\n{report}"
    assert "HTML_IMAGE_ONLY" not in report, report
