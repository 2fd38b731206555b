"""Merchants ("Asukkaat"; "Alkutoimet"; docs/rules/medina.md "Setup",
"Merchants"): where a merchant may go, why not, and what placing it does.
One :func:`check` decides, one :func:`start_check` for the start merchant.

- Setup: seat 1 puts the extra merchant from the box on a square at least
  one square from the city wall (columns B-O, rows 2-10).
- "Asukkaita saa lisätä ketjun kumpaan päähän tahansa. Asukkaita ei saa
  laittaa niin, että ne olisivat vierekkäin kahden tai useamman asukkaan
  kanssa": next to exactly one merchant, an end of its chain.
- "Jos pelaaja ei voi lisätä asukkaita asukasketjun kumpaakaan päähän, hän
  voi aloittaa uuden asukasketjun": only when no chain can grow, a new
  chain starts on any empty square touching no merchant.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.api import Event
from pbem.engine.medina import board as B
from pbem.engine.medina.actions import Place
from pbem.engine.medina.pieces import EMPTY, MERCHANT
from pbem.engine.medina.squares import Reason, nowhere, square_of, taken
from pbem.engine.messages import Msg
from pbem.engine.phrases import Seat

if TYPE_CHECKING:
    from pbem.engine.medina.state import MedinaState


# ----------------------------------------------------------------- reasons
def _not_start(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("first seat 1 places the start merchant on any square at least one "
               "square from the city wall (columns B-O, rows 2-10), e.g. 'merchant H6'")


def _by_the_wall(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{site} is next to the city wall; the start merchant goes at least one square "
               "from it (columns B-O, rows 2-10)", site=a.site)


def _two(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{site} is next to two merchants; a merchant may touch only one", site=a.site)


def _middle(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("{site} is next to the middle of a merchant chain; merchants are added "
               "only at either end of the chain", site=a.site)


def _chain_grows(st: "MedinaState", seat: int, a: Place) -> Msg:
    return Msg("the merchant chain can still grow, so the merchant goes next to an end of "
               "the chain; a new chain may start only when no chain can grow")


# ------------------------------------------------------------------- rule
def start_check(st: "MedinaState", i: int) -> Reason | None:
    """May the start merchant go on square ``i``? ``None`` or the reason."""
    return _by_the_wall if B.EDGE[i] or st.kind[i] != EMPTY else None


def check(st: "MedinaState", i: int, growing: bool) -> Reason | None:
    """May a merchant go on square ``i``, ``growing`` telling whether some
    chain can still grow (:func:`growing`)? ``None`` or the reason."""
    if st.kind[i] != EMPTY:
        return taken
    n = st.mcount[i]
    if n >= 2:
        return _two
    if n == 1:
        for j in B.ORTH[i]:           # its one merchant: an end of the chain?
            if st.kind[j] == MERCHANT:
                return None if st.mcount[j] <= 1 else _middle
    return _chain_grows if growing else None


def _ends(st: "MedinaState") -> list[int]:
    """The squares a chain may grow onto, in reading order."""
    mcount = st.mcount
    near = {j for m in st.merchants if mcount[m] <= 1 for j in B.ORTH[m]}
    return [j for j in sorted(near) if check(st, j, True) is None]


def growing(st: "MedinaState") -> bool:
    """True when some merchant chain can still grow."""
    return bool(_ends(st))


def verdict(st: "MedinaState", seat: int, a: Place) -> Reason | None:
    """``None`` when the merchant ``a`` may go on its square (the screen
    aside); in setup, the start merchant's rule."""
    if st.setup:
        if a.kind != "merchant":
            return _not_start
        i = square_of(a)
        return _by_the_wall if i is None else start_check(st, i)
    i = square_of(a)
    return nowhere if i is None else check(st, i, growing(st))


def sites(st: "MedinaState") -> list[int]:
    """Every square a merchant may go on now, in reading order: the ends of
    the chains, or when none can grow, every square where a new one may start."""
    if st.setup:
        return [i for i in range(B.SQUARES) if start_check(st, i) is None]
    return _ends(st) or [i for i in range(B.SQUARES) if check(st, i, False) is None]


def place(st: "MedinaState", seat: int, a: Place, events: list[Event]) -> None:
    """Put the merchant ``a`` (legal) on the board: from ``seat``'s screen,
    or in setup the extra one from the box."""
    i = square_of(a)
    st.add_merchant(i)
    if st.setup:
        events.append(Event(Msg("{seat} places the start merchant on {site}.",
                                seat=Seat(seat), site=a.site),
                            kind="merchant", data={"seat": seat, "site": a.site, "start": True}))
        return
    st.supply[seat]["merchants"] -= 1
    new_chain = st.mcount[i] == 0 and len(st.merchants) > 1
    if new_chain:
        text = Msg("{seat} places a merchant on {site} and starts a new merchant chain.",
                   seat=Seat(seat), site=a.site)
    else:
        text = Msg("{seat} places a merchant on {site}.", seat=Seat(seat), site=a.site)
    events.append(Event(text, kind="merchant",
                        data={"seat": seat, "site": a.site, "new_chain": new_chain}))
