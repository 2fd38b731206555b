"""Invariants of every La Città position (issue 2, "Property tests")."""
from __future__ import annotations

import json

from pbem.engine.lacitta import data as D
from pbem.engine.lacitta.geometry import NBR


def check(s) -> None:
    # citizens conserved between bank and board
    on_board = sum(c.citizens for c in s.cities.values())
    assert s.bank + on_board == D.CITIZEN_BANK, (s.bank, on_board)
    # every building stands on the board once, in its city
    for castle, c in s.cities.items():
        assert c.sites[0] == castle and s.kind[castle] == "castle"
        assert all(s.occ[x] == castle for x in c.sites)
        assert c.citizens >= 0
    assert sum(len(c.sites) for c in s.cities.values()) == len(s.occ) == len(s.kind)
    # outside the year-end choices every building holds a citizen and every castle at least one
    if s.phase_name in ("political", "setup", "over"):
        for c in s.cities.values():
            assert c.citizens >= len(c.sites), (c.castle, c.citizens, c.sites)
    # (a city may hold more citizens than its limit after losing its market or
    # fountain in a demolition: the rules remove none for that, so no check here)
    # cities never touch
    for site, castle in s.occ.items():
        for n in NBR[site]:
            o = s.occ.get(n)
            assert o is None or o == castle, (site, n)
    # food tokens equal the production of owned castles and farms
    for p in range(s.n):
        prod = sum(s.terrain.food[x] for c in s.cities_of(p) for x in c.sites
                   if s.kind[x] in ("castle", "farm"))
        assert s.food[p] == prod, (p, s.food[p], prod)
        assert s.gold[p] >= 0
        assert 0 <= s.notables_free(p) <= D.NOTABLES
        assert 0 <= s.actions[p] <= D.ACTION_CARDS
        assert s.castles_left(p) >= 0
    # supply never overdrawn, counted from the board
    for pile, total in D.SUPPLY.items():
        built = sum(1 for k in s.kind.values() if k != "castle" and D.PILE[k] == pile)
        assert s.used[pile] == built <= total
    # the political deck is conserved
    cards = len(s.deck) + len(s.display) + len(s.discard) + sum(len(x) for x in s.played)
    assert cards == sum(D.POLITICAL_DECK.values())
    assert len(s.display) <= D.DISPLAY
    # no view shows a card its seat may not see
    for viewer in [None, *range(s.n)]:
        v = s.view(viewer)
        text = json.dumps(v)
        assert '"deck"' not in text and "voice_deck" not in text
        peeked = set(s.peeked[viewer]) if viewer is not None else set()
        for i, card in enumerate(v["voice"]):
            if i > 0 and not s.revealed and i not in peeked:
                assert card["wish"] is None
            elif card["wish"] is not None:
                assert card["wish"] == s.voice[i]
        if viewer is not None:
            assert v["private"]["seat"] == viewer
        else:
            assert v["private"] is None
