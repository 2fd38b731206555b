"""Why a placement is refused, in words a player understands."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState

_SUPPLY_KEY = {"dome": "domes", "stable": "stables", "merchant": "merchants", "wall": "walls"}


def _occupant(st: "MedinaState", i: int) -> str:
    from pbem.engine.medina.state import MERCHANT, PALACE, STABLE
    k = st.kind[i]
    if k == MERCHANT:
        return "a merchant"
    if k == PALACE:
        return f"a piece of {st.palaces[st.pal[i]].where()}"
    if k == STABLE:
        return f"a stable of {st.palaces[st.pal[i]].where()}"
    return "nothing"


def _touching(st: "MedinaState", i: int, pid: int) -> str:
    """The other palace square ``i`` touches (for the street rule message)."""
    from pbem.engine.medina.state import PALACE, STABLE
    for j in B.NEAR[i]:
        if st.kind[j] in (PALACE, STABLE) and st.pal[j] != pid:
            what = "a stable of " if st.kind[j] == STABLE else ""
            return f"{what}{st.palaces[st.pal[j]].where()} (at {B.square_name(j)})"
    return "another palace"


def why_illegal(st: "MedinaState", seat: int, a: Any) -> str:
    """A sentence saying why ``a`` is not legal for ``seat`` now."""
    from pbem.engine.medina.state import EMPTY, MERCHANT, PALACE
    if not isinstance(a, Place):
        return "that is not a Medina order"
    site = a.site
    if st.setup:
        i = B.parse_square(site)
        if a.kind != "merchant":
            return ("first seat 1 places the start merchant on any square at least one "
                    "square from the city wall (columns B-O, rows 2-10), e.g. 'merchant H6'")
        return f"{site} is next to the city wall; the start merchant goes at least one square from it (columns B-O, rows 2-10)"
    s = st.supply[seat]
    key = a.colour if a.kind == "palace" else _SUPPLY_KEY[a.kind]
    if a.kind == "palace" and a.colour in st.returned:
        return (f"every seat has claimed a {a.colour} palace, so no more {a.colour} palaces "
                f"are built; the {a.colour} pieces are back in the box")
    if not s[key]:
        noun = f"{a.colour} palace pieces" if a.kind == "palace" else key
        return f"you have no {noun} left behind your screen"
    if st.lone and not st.domed and a.kind != "dome":
        if st.placed:
            return "only you have pieces left, so this turn must include a dome: place a dome now"
        return ("only you have pieces left, so this turn must include a dome, and after this "
                "piece no dome could be placed")
    if a.kind == "wall":
        w = B.parse_wall(site)
        if st.walls[w]:
            return f"{site} already has a wall piece"
        if not st.wall_tower(w):
            return f"{site} is not next to a tower or a wall piece; walls grow from the towers"
        side = B.SIDES[B.WALL_SIDE[w]][0]
        return f"{site} is the last gap on the {side} side; every side keeps at least one gate open"
    i = B.parse_square(site)
    if a.kind != "dome" and st.kind[i] != EMPTY:
        return f"{site} is taken by {_occupant(st, i)}"
    if a.kind == "dome":
        if st.kind[i] != PALACE:
            return f"there is no palace piece on {site} to put a dome on"
        p = st.palaces[st.pal[i]]
        if p.complete:
            return f"{p.where()} is already completed; domes go on palaces under construction"
        if p.colour in st.claimed[seat]:
            art = "an" if p.colour == "orange" else "a"
            return (f"you already own {art} {p.colour} palace; each player claims only one "
                    f"palace of each colour")
    elif a.kind == "palace":
        u = st.unfinished(a.colour)
        if u is not None and not any(j in u.squares for j in B.ORTH[i]):
            return (f"{u.where()} is still under construction: a {a.colour} piece must go "
                    f"orthogonally next to it (a new {a.colour} palace may start only when it "
                    f"is completed)")
        pid = -1 if u is None else u.id
        if st.blocked(i, pid):
            return (f"{site} touches {_touching(st, i, pid)}; palaces never touch, not even "
                    f"diagonally, so a street stays between them")
    elif a.kind == "stable":
        from pbem.engine.medina.state import PALACE as P
        pids = {st.pal[j] for j in B.ORTH[i] if st.kind[j] == P}
        if not pids:
            from pbem.engine.medina.state import STABLE as S_
            if any(st.kind[j] == S_ for j in B.ORTH[i]):
                return (f"{site} is next only to a stable; a stable goes orthogonally next to a "
                        f"palace piece, not only next to another stable")
            return f"{site} is not orthogonally next to a palace piece; stables go next to palaces"
        pid = next(iter(pids))
        if len(pids) > 1 or st.blocked(i, pid):
            return (f"a stable on {site} would touch {_touching(st, i, pid)}; stables keep the "
                    f"street between palaces like palace pieces")
    elif a.kind == "merchant":
        if st.mcount[i] >= 2:
            return f"{site} is next to two merchants; a merchant may touch only one"
        if st.mcount[i] == 1:
            return (f"{site} is next to the middle of a merchant chain; merchants are added "
                    f"only at either end of the chain")
        return ("the merchant chain can still grow, so the merchant goes next to an end of "
                "the chain; a new chain may start only when no chain can grow")
    return "that placement is not legal now"
