"""What the order page says about a Medina position beyond the board: the
decision the seat to move owes (the banner: which piece of the turn, and
why a dome is due) and the section of the rules summary for the phase.

Pure functions of a :class:`~pbem.engine.medina.state.MedinaState`;
``MedinaState.view`` puts them in the view (``"decision"``,
``"rules_section"``). Rules: docs/rules/medina.md "Setup", "Turns", "The end".
"""
from __future__ import annotations

from typing import Any

from pbem.engine.medina.lone import owes_dome
from pbem.engine.messages import Msg

_QUESTIONS = {"setup": Msg("How does setup work?"), "turn": Msg("How does a turn work?"),
              "end": Msg("When does the game end?"), "scoring": Msg("How is the game scored?")}


def rules_section(st) -> dict[str, Any]:
    """``{"id": "turn", "question": "How does a turn work?"}``."""
    sid = "scoring" if st.over else "setup" if st.setup else "end" if st.lone else "turn"
    return {"id": sid, "question": _QUESTIONS[sid]}


def decision(st, seat: int | None) -> dict[str, Any] | None:
    """The placement ``seat`` owes now, in words, or ``None`` (not its turn,
    a spectator, the game over). Shape: ``{"kind": "start_merchant" |
    "piece1" | "piece2" | "dome", "owes", "why", "rule", "rules"}``; the
    sentences ("owes", "why", "rule") are :class:`Msg`."""
    if st.over or seat is None or seat != st.seat:
        return None
    if st.setup:
        return {"kind": "start_merchant", "owes": Msg("Place the start merchant."),
                "why": Msg("Seat 1 opens the game with the extra merchant from the box."),
                "rule": Msg("The start merchant goes on any square at least one square from the "
                            "city wall (columns B–O, rows 2–10)."),
                "rules": "setup"}
    if owes_dome(st):
        return {"kind": "dome",
                "owes": Msg("Piece {n} of 2: this turn must include a dome.", n=st.placed + 1),
                "why": Msg("Only you still have pieces, so every turn of yours must place a dome "
                           "until the game ends."),
                "rule": Msg("The lone player's turn includes a dome; the game ends when they cannot "
                            "place one."),
                "rules": "end"}
    if st.placed == 0:
        return {"kind": "piece1", "owes": Msg("Place piece 1 of 2 of your turn."),
                "why": Msg("Each turn you place two pieces from behind your screen."),
                "rule": Msg("Any two pieces, each by its own rule: palace pieces next to their "
                            "palace, a dome claims a palace, stables next to a palace, merchants at "
                            "the end of the chain, walls out from a tower."),
                "rules": "turn"}
    return {"kind": "piece2", "owes": Msg("Place piece 2 of 2 of your turn."),
            "why": Msg("Your first piece is on the board (outlined); the turn passes after this one."),
            "rule": Msg("The second piece follows the same placement rules, on the board as the "
                        "first piece left it."),
            "rules": "turn"}
