"""Invariants over random legal games (hypothesis picks seeds, seat counts
and how often the missed-deadline default is used)."""
import json
import random

from hypothesis import HealthCheck, given, settings, strategies as S

from pbem.engine.medina import board as B
from pbem.engine.medina.pieces import PALACE_COLOURS, starting_supply
from pbem.engine.medina.palaces import can_grow
from pbem.engine.medina.pieces import MERCHANT, PALACE, STABLE
from pbem.engine.medina.tiles import towers_of

from .helpers import GAME

SUPPLY_KIND = {"dome": "domes", "stable": "stables", "merchant": "merchants", "wall": "walls"}


def check_board(st):
    kind, pal = st.kind, st.pal
    # palaces (pieces and stables) never touch another palace, not even diagonally
    for i in range(B.SQUARES):
        if kind[i] in (PALACE, STABLE):
            for j in B.NEAR[i]:
                if kind[j] in (PALACE, STABLE):
                    assert pal[i] == pal[j], (B.square_name(i), B.square_name(j))
    for p in st.palaces:
        for i in p.squares:
            assert kind[i] == PALACE and pal[i] == p.id
        for i in p.stables:   # a stable sits next to a piece of its palace
            assert kind[i] == STABLE and any(kind[j] == PALACE and pal[j] == p.id for j in B.ORTH[i])
        # unfinished palaces can still grow; completed ones are claimed or boxed in
        assert p.complete or can_grow(st, p)
        assert (p.owner is None) == (p.dome is None)
        if p.owner is not None:
            assert p.complete and p.dome in p.squares
    for c in PALACE_COLOURS:
        assert sum(1 for p in st.palaces if p.colour == c and not p.complete) <= 1
    for s in range(st.seats):
        owned = [p.colour for p in st.palaces if p.owner == s]
        assert sorted(owned) == sorted(st.claimed[s]) and len(set(owned)) == len(owned)
    # merchants form chains: paths, never branching or closing a loop
    ms = {i for i in range(B.SQUARES) if kind[i] == MERCHANT}
    seen = set()
    for m in ms:
        assert sum(1 for j in B.ORTH[m] if j in ms) <= 2
        if m in seen:
            continue
        comp, todo = {m}, [m]
        while todo:
            for j in B.ORTH[todo.pop()]:
                if j in ms and j not in comp:
                    comp.add(j)
                    todo.append(j)
        seen |= comp
        edges = sum(1 for a in comp for j in B.ORTH[a] if j in comp) // 2
        assert edges == len(comp) - 1
    # every side keeps a gate; every wall piece is joined to its tower
    for _, first, count in B.SIDES:
        assert any(not st.walls[w] for w in range(first, first + count))
    for w in range(B.WALLS):
        if st.walls[w]:
            assert any((isinstance(n, str) and int(n[1]) == st.walls[w])
                       or (not isinstance(n, str) and st.walls[n] == st.walls[w])
                       for n in B.RING[w])
    # tiles: the palace tile holder owns a largest claimed palace of that colour;
    # the tower tile holder owns a palace connected to that tower
    for c, holder in st.palace_tiles.items():
        claimed = [p for p in st.palaces if p.colour == c and p.owner is not None]
        if holder is None:
            assert not claimed
        else:
            mine = next(p for p in claimed if p.owner == holder)
            assert mine.size == max(p.size for p in claimed)
    for t, holder in st.tower_tiles.items():
        if holder is not None:
            assert any(p.owner == holder and t in towers_of(st, p) for p in st.palaces)
    for sc in st.scores():
        assert sc.points == sum(sc.detail.values())


def check_conservation(st, placed, boxed):
    start = starting_supply(st.seats)
    for s in range(st.seats):
        for k in start:
            assert st.supply[s][k] + placed[s].get(k, 0) + boxed[s].get(k, 0) == start[k], (s, k)
    on_board = {k: 0 for k in start}
    for p in st.palaces:
        on_board[p.colour] += len(p.squares)
        on_board["stables"] += len(p.stables)
        on_board["domes"] += p.dome is not None
    on_board["merchants"] = len(st.merchants) - 1   # the start merchant is extra
    on_board["walls"] = sum(1 for w in st.walls if w)
    for k in start:
        assert on_board[k] == sum(placed[s].get(k, 0) for s in range(st.seats)), k


def check_views(st):
    for seat in [None] + list(range(st.seats)):
        v = st.view(seat)
        text = json.dumps(v, sort_keys=True)
        for p in v["players"]:
            assert (p["supply"] is not None) == (p["seat"] == seat)
        # changing what is behind the other screens changes nothing this seat sees
        other = st.copy()
        for s in range(st.seats):
            if s != seat:
                other.supply[s]["walls"] += 7
                other.supply[s]["grey"] += 3
        assert json.dumps(other.view(seat), sort_keys=True) == text


def play_random(seats, seed, default_rate, checks=True):
    st = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    placed = [dict() for _ in range(seats)]
    boxed = [dict() for _ in range(seats)]
    log, events = [], []
    while not st.is_terminal():
        (seat,) = st.current_seats()
        legal = st.legal_actions(seat)
        assert legal
        a = st.default_action(seat) if rng.random() < default_rate else rng.choice(legal)
        before = [dict(s) for s in st.supply]
        setup = st.setup
        evs = st.apply(seat, a)
        log.append((seat, a.to_text()))
        events += [e.text for e in evs]
        if not setup:
            key = a.colour if a.kind == "palace" else SUPPLY_KIND[a.kind]
            placed[seat][key] = placed[seat].get(key, 0) + 1
        for e in evs:
            if e.kind == "returned":
                c = e.data["colour"]
                for s in range(seats):
                    n = before[s][c] - (1 if s == seat and a.kind == "palace" and a.colour == c else 0)
                    boxed[s][c] = boxed[s].get(c, 0) + n
        if checks:
            check_board(st)
            check_conservation(st, placed, boxed)
            text = st.to_json()
            again = GAME.state_from_json(text)
            assert again.to_json() == text
            assert again.legal_actions(again.current_seats()[0]) == st.legal_actions(
                st.current_seats()[0]) if st.current_seats() else again.is_terminal()
            if len(log) % 10 == 0:
                check_views(st)
    return st, log, events


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=S.sampled_from([3, 4]), seed=S.integers(0, 2**31), default_rate=S.sampled_from([0.0, 0.2, 1.0]))
def test_random_legal_games_keep_every_invariant(seats, seed, default_rate):
    st, log, _ = play_random(seats, seed, default_rate)
    assert st.is_terminal() and st.current_seats() == []
    check_views(st)
    # at the end no seat can place anything (or only the lone seat, who can place no dome)
    holders = [s for s in range(seats) if st.pieces_left(s)]
    assert all(st.legal_actions(s) == [] for s in range(seats))
    if len(holders) >= 2:
        for s in holders:   # nobody could have moved: look as if it were their turn
            probe = st.copy()
            probe.over, probe.seat, probe.placed, probe.lone = False, s, 0, False
            probe.forget()
            assert probe.legal_actions(s) == []


@settings(max_examples=6, deadline=None)
@given(seats=S.sampled_from([3, 4]), seed=S.integers(0, 2**31))
def test_same_seed_and_log_give_the_same_game(seats, seed):
    st, log, events = play_random(seats, seed, 0.1, checks=False)
    replay = GAME.new_state(seats, seed)
    replay_events = []
    for seat, order in log:
        replay_events += [e.text for e in replay.apply(seat, GAME.parse_action(replay, seat, order))]
    assert replay.to_json() == st.to_json()
    assert replay_events == events


# ---------------------------------------------------------------- reference
def reference_legal(st, seat):
    """Legal placements straight from the rule text, without the engine's
    caches (mcount, near, interned actions): compared with legal_actions."""
    kind, pal, sup = st.kind, st.pal, st.supply[seat]
    out = set()

    def others_near(i, pid):
        return any(kind[k] in (PALACE, STABLE) and pal[k] != pid for k in B.NEAR[i])

    for i in range(B.SQUARES):
        if kind[i]:
            continue
        name = B.square_name(i)
        for c in PALACE_COLOURS:
            if not sup[c] or c in st.returned:
                continue
            u = [p for p in st.palaces if p.colour == c and not p.complete]
            if u:
                if any(j in u[0].squares for j in B.ORTH[i]) and not others_near(i, u[0].id):
                    out.add(("palace", name, c))
            elif not others_near(i, -1):
                out.add(("palace", name, c))
        if sup["stables"]:
            ids = {pal[k] for k in B.NEAR[i] if kind[k] in (PALACE, STABLE)}
            if len(ids) == 1 and any(kind[j] == PALACE for j in B.ORTH[i]):
                out.add(("stable", name, None))
    if sup["merchants"]:
        def mn(i):
            return [j for j in B.ORTH[i] if kind[j] == MERCHANT]
        ext = [i for i in range(B.SQUARES) if not kind[i] and len(mn(i)) == 1 and len(mn(mn(i)[0])) <= 1]
        pool = ext if ext else [i for i in range(B.SQUARES) if not kind[i] and not mn(i)]
        out |= {("merchant", B.square_name(i), None) for i in pool}
    if sup["walls"]:
        for w in range(B.WALLS):
            _, first, count = B.SIDES[B.WALL_SIDE[w]]
            free = sum(1 for x in range(first, first + count) if not st.walls[x])
            near = any(isinstance(n, str) or st.walls[n] for n in B.RING[w])
            if not st.walls[w] and near and free >= 2:
                out.add(("wall", B.wall_name(w), None))
    if sup["domes"]:
        for p in st.palaces:
            if not p.complete and p.colour not in st.claimed[seat]:
                out |= {("dome", B.square_name(i), None) for i in p.squares}
    return out


@settings(max_examples=6, deadline=None)
@given(seats=S.sampled_from([3, 4]), seed=S.integers(0, 2**31))
def test_legal_actions_match_the_rule_text_reference(seats, seed):
    st = GAME.new_state(seats, seed)
    rng = random.Random(seed)
    compared = 0
    while not st.is_terminal():
        (seat,) = st.current_seats()
        legal = st.legal_actions(seat)
        if not st.setup and not st.lone:
            assert {(a.kind, a.site, a.colour) for a in legal} == reference_legal(st, seat)
            compared += 1
        st.apply(seat, rng.choice(legal))
    assert compared > 50
