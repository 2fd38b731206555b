"""The standard bot: information-set Monte Carlo tree search (single
observer; Cowling, Powley & Whitehouse 2012) over any game of the engine.

Each iteration:

1. **determinise**: deal again what the bot's seat may not see
   (:meth:`~pbem.engine.api.Game.redeal_hidden`), so the search reads only
   what the seat sees;
2. **select** down the tree with UCB1, counting as available only the
   children legal in this variant (IS-MCTS), one node per decision; a
   compound order (Die Stadt: the tile's place and turn, then the follower)
   is two levels, its first steps (:meth:`Action.steps` but the last), then
   the order; a turn of several decisions (Medina's two pieces) is one
   level per decision;
3. **expand** one untried order; at the root, the orders are tried in the
   order of a one-ply look with the evaluation (the greedy bot's), and only
   the best ``WIDEN`` + sqrt(visits) of them are open to the search
   (progressive widening), so a small budget still plays at least as the
   greedy bot would and a larger one looks further;
4. **play out** at random for at most ``depth`` decisions;
5. **score** the end with :func:`pbem.bots.base.rewards` (a win at the end;
   before it the game's evaluation, :meth:`~pbem.engine.api.Game.evaluate`)
   and credit each node with the reward of the seat that decided there.

The order played is the most visited child of the root (then of its
first-level child). Budget per decision: :class:`~pbem.bots.base.Budget`.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any, Sequence

from pbem.bots.base import Bot, Budget, mover, rewards
from pbem.engine.api import Action, State

#: UCB1's exploration constant for rewards in 0..1
EXPLORE = 0.7
#: random decisions played after the tree before the evaluation scores the position
DEPTH = 2
#: orders open at the root before any visit (then + sqrt(visits))
WIDEN = 3


class Node:
    """Search statistics of one tree node: the decision that led here,
    ``visits``, ``total`` reward of the seat that decided, ``avail`` (how
    many times it was legal when its parent was visited) and ``children``."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def first_level(action: Action) -> Any:
    """The first level of a compound order: its label, site and every step
    but the last (Die Stadt: where the tile goes and how it is turned); an
    order of fewer than two steps is one level (``None``)."""
    steps = action.steps
    if len(steps) < 2:
        return None
    return (action.label, action.site) + tuple(answer for _question, answer in steps[:-1])


class StandardBot(Bot):
    """Information-set MCTS (module docstring). ``depth``: playout length
    in decisions; ``explore``: UCB1's constant."""

    name = "standard"

    def __init__(self, budget: Budget | None = None, depth: int = DEPTH, explore: float = EXPLORE) -> None:
        super().__init__(budget)
        self.depth = depth
        self.explore = explore

    def _choose(self, state: State, seat: int, acts: Sequence[Action], rng: random.Random) -> Action:
        root = Node()
        self._prior = self._one_ply(state, seat, acts, rng)
        budget = self.budget
        stop_at = time.process_time() + budget.seconds if budget.seconds is not None else None
        limit = budget.iterations
        n = 0
        while True:
            self._iterate(state, seat, root, rng)
            n += 1
            if limit is not None and n >= limit:
                break
            if stop_at is not None and time.process_time() >= stop_at:
                break
        self.stats.iterations += n
        return self._best(root, seat, acts)

    @staticmethod
    def _one_ply(state: State, seat: int, acts: Sequence[Action], rng: random.Random) -> dict[Any, float]:
        """Each root order's reward for ``seat`` one ply on, on one variant
        (key ``(seat, action)``, and ``(seat, first level)`` the best of its
        orders): the order in which the root tries them."""
        game = state.game
        variant = game.redeal_hidden(state, seat, rng)
        prior: dict[Any, float] = {}
        for a in acts:
            after = variant.copy()
            after.apply(seat, a)
            r = rewards(after, game.evaluation_scale)[seat]
            prior[(seat, a)] = r
            group = (seat, first_level(a))
            prior[group] = max(prior.get(group, 0.0), r)
        return prior

    # ------------------------------------------------------------ one iteration
    def _iterate(self, state: State, seat: int, root: Node, rng: random.Random) -> None:
        game = state.game
        det = game.redeal_hidden(state, seat, rng)
        path: list[tuple[Node, int]] = []
        root.visits += 1                  # the widening at the root reads it
        node = root
        who = seat
        while not det.is_terminal():
            acts = det.legal_actions(who)
            action, node, expanded = self._descend(node, who, acts, path, rng)
            det.apply(who, action)
            if expanded or det.is_terminal():
                break
            who = mover(det, rng)
        for _ in range(self.depth):
            if det.is_terminal():
                break
            who = mover(det, rng)
            acts = det.legal_actions(who)
            det.apply(who, acts[rng.randrange(len(acts))])
        reward = rewards(det, game.evaluation_scale)
        for n, s in path:
            n.visits += 1
            n.total += reward[s]

    def _descend(self, node: Node, who: int, acts: Sequence[Action], path: list, rng: random.Random):
        """Pick ``who``'s order at ``node`` (two levels for compound orders);
        returns the order, the node reached and whether a node was added."""
        groups: dict[Any, list[Action]] = {}
        for a in acts:
            groups.setdefault((who, first_level(a)), []).append(a)
        prior = self._prior if not path else None
        if len(groups) > 1 and len(groups) < len(acts):
            key, node, added = self._pick(node, list(groups), rng, prior)
            path.append((node, who))
            choices = groups[key]
        else:
            added, choices = False, acts
        key, node, added2 = self._pick(node, [(who, a) for a in choices], rng, prior)
        path.append((node, who))
        return key[1], node, added or added2

    def _pick(self, node: Node, keys: list, rng: random.Random, prior: dict | None = None):
        """UCB1 among ``keys`` (those legal now) at ``node``, or an untried
        one at random; with ``prior`` (the root), only the best WIDEN +
        sqrt(visits) keys by prior, untried ones best first. Returns the
        key, its child and whether it is new."""
        children = node.children
        if prior is not None:
            keys = sorted(keys, key=lambda k: -prior.get(k, 0.0))
            keys = keys[:WIDEN + int(math.sqrt(node.visits + 1))]
        untried = []
        for k in keys:
            child = children.get(k)
            if child is None:
                untried.append(k)
            else:
                child.avail += 1
        if untried:
            k = untried[0] if prior is not None else untried[rng.randrange(len(untried))]
            child = children[k] = Node()
            child.avail = 1
            return k, child, True
        c = self.explore
        best_k, best_u = keys[0], -1.0
        for k in keys:
            child = children[k]
            u = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if u > best_u:
                best_k, best_u = k, u
        return best_k, children[best_k], False

    # ------------------------------------------------------------ the answer
    @staticmethod
    def _best(root: Node, seat: int, acts: Sequence[Action]) -> Action:
        """The most visited first-level child, then its most visited order
        (ties: the one listed first)."""
        node = root
        groups: dict[Any, list[Action]] = {}
        for a in acts:
            groups.setdefault((seat, first_level(a)), []).append(a)
        choices: Sequence[Action] = acts
        if len(groups) > 1 and len(groups) < len(acts):
            key = max(groups, key=lambda k: _visits(node, k))
            node = node.children.get(key) or Node()
            choices = groups[key]
        return max(choices, key=lambda a: _visits(node, (seat, a)))


def _visits(node: Node, key: Any) -> int:
    child = node.children.get(key)
    return child.visits if child else -1
