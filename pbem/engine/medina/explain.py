"""Why a placement is refused, in words a player understands (each a
translatable :class:`~pbem.engine.messages.Msg`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place
from pbem.engine.medina.terms import COLOUR, PIECES, SIDE, a_palace
from pbem.engine.messages import Msg

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState

_SUPPLY_KEY = {"dome": "domes", "stable": "stables", "merchant": "merchants", "wall": "walls"}


def _occupant(st: "MedinaState", i: int) -> Msg:
    from pbem.engine.medina.state import MERCHANT, PALACE, STABLE
    k = st.kind[i]
    if k == MERCHANT:
        return Msg("a merchant")
    if k == PALACE:
        return Msg("a piece of {palace}", palace=st.palaces[st.pal[i]].where())
    if k == STABLE:
        return Msg("a stable of {palace}", palace=st.palaces[st.pal[i]].where())
    return Msg("nothing")


def _touching(st: "MedinaState", i: int, pid: int) -> Msg:
    """The other palace square ``i`` touches (for the street rule message)."""
    from pbem.engine.medina.state import PALACE, STABLE
    for j in B.NEAR[i]:
        if st.kind[j] in (PALACE, STABLE) and st.pal[j] != pid:
            where, at = st.palaces[st.pal[j]].where(), B.square_name(j)
            if st.kind[j] == STABLE:
                return Msg("a stable of {palace} (at {square})", palace=where, square=at)
            return Msg("{palace} (at {square})", palace=where, square=at)
    return Msg("another palace")


def why_illegal(st: "MedinaState", seat: int, a: Any) -> Msg:
    """A sentence saying why ``a`` is not legal for ``seat`` now (a ``Msg``)."""
    from pbem.engine.medina.state import EMPTY, PALACE
    if not isinstance(a, Place):
        return Msg("that is not a Medina order")
    site = a.site
    if st.setup:
        if a.kind != "merchant":
            return Msg("first seat 1 places the start merchant on any square at least one "
                       "square from the city wall (columns B-O, rows 2-10), e.g. 'merchant H6'")
        return Msg("{site} is next to the city wall; the start merchant goes at least one square "
                   "from it (columns B-O, rows 2-10)", site=site)
    s = st.supply[seat]
    key = a.colour if a.kind == "palace" else _SUPPLY_KEY[a.kind]
    if a.kind == "palace" and a.colour in st.returned:
        return Msg("every seat has claimed {a_palace}, so no more {colour} palaces "
                   "are built; the {colour} pieces are back in the box",
                   a_palace=a_palace(a.colour), colour=COLOUR[a.colour])
    if not s[key]:
        if a.kind == "palace":
            return Msg("you have no {colour} palace pieces left behind your screen",
                       colour=COLOUR[a.colour])
        return Msg("you have no {pieces} left behind your screen", pieces=PIECES[key])
    if st.lone and not st.domed and a.kind != "dome":
        if st.placed:
            return Msg("only you have pieces left, so this turn must include a dome: place a dome now")
        return Msg("only you have pieces left, so this turn must include a dome, and after this "
                   "piece no dome could be placed")
    if a.kind == "wall":
        return _wall(st, site)
    i = B.parse_square(site)
    if a.kind != "dome" and st.kind[i] != EMPTY:
        return Msg("{site} is taken by {occupant}", site=site, occupant=_occupant(st, i))
    if a.kind == "dome":
        if st.kind[i] != PALACE:
            return Msg("there is no palace piece on {site} to put a dome on", site=site)
        p = st.palaces[st.pal[i]]
        if p.complete:
            return Msg("{palace} is already completed; domes go on palaces under construction",
                       palace=p.where())
        if p.colour in st.claimed[seat]:
            return Msg("you already own {a_palace}; each player claims only one "
                       "palace of each colour", a_palace=a_palace(p.colour))
    elif a.kind == "palace":
        return _palace(st, site, i, a.colour)
    elif a.kind == "stable":
        return _stable(st, site, i)
    elif a.kind == "merchant":
        return _merchant(st, site, i)
    return Msg("that placement is not legal now")


def _wall(st: "MedinaState", site: str) -> Msg:
    w = B.parse_wall(site)
    if st.walls[w]:
        return Msg("{site} already has a wall piece", site=site)
    if not st.wall_tower(w):
        return Msg("{site} is not next to a tower or a wall piece; walls grow from the towers",
                   site=site)
    side = B.SIDES[B.WALL_SIDE[w]][0]
    return Msg("{site} is the last gap on the {side} side; every side keeps at least one gate open",
               site=site, side=SIDE[side])


def _palace(st: "MedinaState", site: str, i: int, colour: str) -> Msg:
    u = st.unfinished(colour)
    if u is not None and not any(j in u.squares for j in B.ORTH[i]):
        return Msg("{palace} is still under construction: a {colour} piece must go "
                   "orthogonally next to it (a new {colour} palace may start only when it "
                   "is completed)", palace=u.where(), colour=COLOUR[colour])
    pid = -1 if u is None else u.id
    if st.blocked(i, pid):
        return Msg("{site} touches {other}; palaces never touch, not even "
                   "diagonally, so a street stays between them", site=site,
                   other=_touching(st, i, pid))
    return Msg("that placement is not legal now")


def _stable(st: "MedinaState", site: str, i: int) -> Msg:
    from pbem.engine.medina.state import PALACE, STABLE
    pids = {st.pal[j] for j in B.ORTH[i] if st.kind[j] == PALACE}
    if not pids:
        if any(st.kind[j] == STABLE for j in B.ORTH[i]):
            return Msg("{site} is next only to a stable; a stable goes orthogonally next to a "
                       "palace piece, not only next to another stable", site=site)
        return Msg("{site} is not orthogonally next to a palace piece; stables go next to palaces",
                   site=site)
    pid = next(iter(pids))
    if len(pids) > 1 or st.blocked(i, pid):
        return Msg("a stable on {site} would touch {other}; stables keep the "
                   "street between palaces like palace pieces", site=site,
                   other=_touching(st, i, pid))
    return Msg("that placement is not legal now")


def _merchant(st: "MedinaState", site: str, i: int) -> Msg:
    if st.mcount[i] >= 2:
        return Msg("{site} is next to two merchants; a merchant may touch only one", site=site)
    if st.mcount[i] == 1:
        return Msg("{site} is next to the middle of a merchant chain; merchants are added "
                   "only at either end of the chain", site=site)
    return Msg("the merchant chain can still grow, so the merchant goes next to an end of "
               "the chain; a new chain may start only when no chain can grow")
