"""What the order page says about a Die Stadt position beyond the board:
the decision the deciding seat owes (the banner: what to decide, why now,
the rule in one sentence) and the section of the rules summary
(pbem/web/templates/rules/diestadt.html) for the decision being played.

Pure functions of a :class:`~pbem.engine.diestadt.state.DieStadtState`;
:func:`pbem.engine.diestadt.view.build_view` puts them in the view
(``"decision"``, ``"rules_section"``). Rules: docs/rules/diestadt.md
"The turn", "Walls, gate, guards, towers", "The end".
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.diestadt.scoring import comma_list
from pbem.engine.diestadt.tiles import PILE_SIZES, pattern_of
from pbem.engine.diestadt.words import say_end
from pbem.engine.messages import Msg, Msgn

if TYPE_CHECKING:
    from pbem.engine.diestadt.state import DieStadtState

#: rules summary section per decision (``None``: the game is over)
RULES_SECTION = {"tile": "tiles", "gate": "wall", "wall": "wall", "tower": "towers", None: "scoring"}

#: the question each section answers, for the link from the order page
RULES_QUESTION = {"tiles": Msg("How do I place a tile and a follower?"),
                  "wall": Msg("How is the wall built?"),
                  "towers": Msg("How do towers score?"),
                  "scoring": Msg("How is the game scored?")}


def rules_section(st: "DieStadtState") -> dict[str, str]:
    """``{"id": "wall", "question": "How is the wall built?"}`` for the
    decision being played."""
    sid = "scoring" if st.over else RULES_SECTION.get(st.decision, "tiles")
    return {"id": sid, "question": RULES_QUESTION[sid]}


def decision(st: "DieStadtState", seat: int | None) -> dict[str, Any] | None:
    """The decision ``seat`` owes now, in words, or ``None`` (a spectator,
    another seat decides, the game is over).

    Shape: ``{"kind": "tile" | "gate" | "wall" | "tower", "owes": one
    sentence saying what to decide, "why": why now, "rule": the rule in one
    sentence, "rules": section id}``; the sentences are :class:`Msg`."""
    if st.over or seat is None or seat not in st.current_seats():
        return None
    made = {"tile": _tile, "gate": _gate, "wall": _wall, "tower": _tower}.get(st.decision)
    return made(st, seat) if made else None


def _tile(st: "DieStadtState", seat: int) -> dict[str, Any]:
    tile = st.drawn
    followers = Msgn("{n} follower", "{n} followers", st.supply[seat])
    if st.pile >= 2:
        why = Msg("It is your turn {turn}: the tile you drew lies face up and goes down now; "
                  "you have {followers} in supply.", turn=st.turn_no, followers=followers)
    else:
        why = Msg("It is your turn {turn}: the tile you drew lies face up and goes down now; "
                  "you have {followers} in supply. Walls begin with pile 2, after {tiles} tiles.",
                  turn=st.turn_no, followers=followers, tiles=PILE_SIZES[0])
    return {
        "kind": "tile",
        "owes": Msg("Place tile {tile} ({pattern}), drawn from pile {pile}.", tile=tile,
                    pattern=pattern_of(tile), pile=st.pile),
        "why": why,
        "rule": Msg("The tile touches the city by at least one side, every edge matching its neighbour "
                    "and streets running on; then you may put a follower on a street, market or "
                    "residential area of that tile that nobody holds and it does not complete (DS-24 to DS-40)."),
        "rules": "tiles",
    }


def _gate(st: "DieStadtState", seat: int) -> dict[str, Any]:
    return {
        "kind": "gate",
        "owes": Msg("Place the city gate on an edge of the city's outline."),
        "why": Msg("Your tile completed a street or market with pile 2 or later in play, so the first "
                   "wall round starts, and it starts with your gate; {pieces} follow in this round.",
                   pieces=Msgn("{n} piece", "{n} pieces", len(st.queue) - 1)),
        "rule": Msg("The gate goes on any outer edge of the city and may take one of your followers as "
                    "a guard; the wall then grows from its two ends (DS-70, A-13, A-14)."),
        "rules": "wall",
    }


def _wall(st: "DieStadtState", seat: int) -> dict[str, Any]:
    mine = sum(1 for s, _ in st.queue if s == seat)
    guard = (Msg("You may guard it with one of your followers.") if st.supply[seat] > 0
             else Msg("You have no follower left for a guard."))
    return {
        "kind": "wall",
        "owes": Msg("Build a wall piece at the cw or ccw end ({pieces} of yours left in this round).",
                    pieces=Msgn("{n} piece", "{n} pieces", mine)),
        "why": Msg("A street or market was completed in turn {turn}, so every seat builds wall "
                   "in turn from the tile's placer; {pieces} remain. {guard}", turn=st.turn_no,
                   pieces=Msgn("{n} piece", "{n} pieces", st.wall.supply), guard=guard),
        "rule": Msg("A piece extends the wall by one edge along the city's outline at either end; a guard "
                    "may stand on it unless a guard faces it across its row with no gap between "
                    "(DS-71 to DS-78, A-16)."),
        "rules": "wall",
    }


def _tower(st: "DieStadtState", seat: int) -> dict[str, Any]:
    points = {end: st.wall.tower_points(end) for end in ("cw", "ccw")}
    offer = comma_list([Msg("{end}: {points}", end=say_end(end), points=Msgn("{n} point", "{n} points", n))
                        for end, n in points.items() if n > 0])
    return {
        "kind": "tower",
        "owes": Msg("Place a tower at an end of the wall, or none."),
        "why": Msg("The wall round of your turn is over and you have {towers} left; a tower now "
                   "scores {offer}.", towers=Msgn("{n} tower", "{n} towers", st.towers_left[seat]),
                   offer=offer),
        "rule": Msg("A tower at a wall end scores a point for every piece between it and the previous "
                    "tower or the gate on that side, and no tower may follow it there until more "
                    "pieces are built (DS-79, DS-80, A-22)."),
        "rules": "towers",
    }
