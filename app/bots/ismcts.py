"""Information-set Monte Carlo tree search (single observer), a candidate for ``strong``.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012; the search that
beat every rule-based player at Scopone): one tree of the seat's own
information, whose edges are moves, and a fresh *determinization* per
iteration: the hidden cards are dealt anew as ``strong.py`` deals them
(``InformationSet.sample_hidden`` with the proven gaps), and the iteration
descends the tree choosing, among the moves legal in that world only, by UCB1
with availability counts (a move's exploration term counts the iterations in
which it could have been chosen, not its parent's visits).  The first move
not yet in the tree is added (the playout policy's choice if it is untried,
else a random untried one), the deal goes on with the playout policy of
``strong.py`` (greedy costs, the next hand of the world known) until the
search horizon, and every seat's result (``strong.evaluate``, lower is better)
is backed up into the moves that seat chose.

At the root only the greedy ranking's best ``MAX_CANDIDATES`` moves are
searched, as in ``strong.py``.  The most visited root move is played; the
search stops early once no other move can catch up in the time left.

Measured against perfect-information sampling at equal thinking time in
docs/bots.md ("Strength"); what is kept as the ``strong`` level is said there.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from app.engine.deal import Deal
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove, Move

from .greedy import ranked_moves
from .knowledge import knowledge_of
from .strong import (
    END_PLIES_FACTOR,
    MAX_CANDIDATES,
    SAFETY,
    build_deal,
    default_horizon,
    evaluate,
    policy_move,
    sample_world,
)

EXPLORATION = 0.7
"""UCB1's constant, for rewards in units of ``REWARD_SCALE`` points."""
REWARD_SCALE = 10.0
"""Points per reward unit: a sweep is half a unit, a typical spread of results about one."""
STOP_CHECK_EVERY = 16
"""Iterations between checks whether the leader can still be overtaken."""

last_search: dict[str, float] = {}
"""Diagnostics of the latest search in this process (iterations, tree size, time)."""


class _Node:
    """The statistics of one move from an information set of the tree."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.total = 0.0
        """Sum of the rewards of the seat that made this move (higher is better)."""
        self.avail = 0
        """Iterations in which this move was legal when its parent was reached."""


def choose(
    info: InformationSet,
    legal: Sequence[LegalMove],
    rng: random.Random | None = None,
    *,
    budget_s: float = 0.5,
    iterations: int | None = None,
    horizon: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> LegalMove:
    """The most visited root move of ``legal`` after the search (``strong.choose``'s
    arguments: ``iterations`` fixes the number of determinizations instead of the clock).
    """
    start = clock()
    rng = rng if rng is not None else random.Random()
    if len(legal) == 1:
        return legal[0]
    k = knowledge_of(info)
    ranked = ranked_moves(k, legal)
    if not k.consistent:
        return ranked[0][1]
    candidates = {Move.of(m.card, m.take): m for _, m in ranked[:MAX_CANDIDATES]}
    n = k.players
    if horizon is None:
        horizon = default_horizon(n)
    remaining = sum(k.hand_counts) + k.stock_count
    if remaining <= END_PLIES_FACTOR * n:
        horizon = remaining
    deadline = start + budget_s * SAFETY
    root = _Node()
    done = 0
    while True:
        if iterations is not None:
            if done >= iterations:
                break
        else:
            now = clock()
            if now >= deadline:
                break
            if done >= 2 * STOP_CHECK_EVERY and done % STOP_CHECK_EVERY == 0:
                left = done * (deadline - now) / max(now - start, 1e-9)
                if _decided(root, left):
                    break
        hands, stock = sample_world(k, rng)
        _iterate(root, build_deal(k, hands, stock), candidates, rng, horizon)
        done += 1
    last_search.update(iterations=done, seconds=clock() - start, nodes=_size(root))
    if not root.children:
        return ranked[0][1]
    best = max(
        root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total / max(kv[1].visits, 1))
    )
    return candidates[best[0]]


def _decided(root: _Node, left: float) -> bool:
    """Whether the most visited root move stays so however the remaining iterations go."""
    visits = sorted((c.visits for c in root.children.values()), reverse=True)
    return len(visits) == 1 or visits[0] - visits[1] > left


def _size(node: _Node) -> int:
    return 1 + sum(_size(c) for c in node.children.values())


def _iterate(
    root: _Node, deal: Deal, candidates: dict[Move, LegalMove], rng: random.Random, horizon: int
) -> None:
    """One determinization: select, expand, play out, back up (SO-ISMCTS)."""
    path: list[tuple[_Node, int]] = []
    node = root
    plies = 0
    log = math.log
    c = EXPLORATION
    while plies < horizon and not deal.is_over:
        kinds = deal.legal_kinds()
        mover = deal.to_move
        assert mover is not None
        moves = [m for m in kinds if m in candidates] if node is root else list(kinds)
        children = node.children
        untried = [m for m in moves if m not in children]
        for m in moves:
            child = children.get(m)
            if child is not None:
                child.avail += 1
        if untried:
            if len(untried) == 1:
                move = untried[0]
            else:
                preferred, _ = policy_move(deal, rng)
                move = preferred if preferred in untried else rng.choice(untried)
            child = children[move] = _Node()
            child.avail = 1
            deal.play_legal(move, kinds[move])
            path.append((child, mover))
            plies += 1
            break
        best_move = moves[0]
        best_score = -math.inf
        for m in moves:
            ch = children[m]
            score = ch.total / ch.visits + c * math.sqrt(log(ch.avail) / ch.visits)
            if score > best_score:
                best_move, best_score = m, score
        deal.play_legal(best_move, kinds[best_move])
        node = children[best_move]
        path.append((node, mover))
        plies += 1
    while plies < horizon and not deal.is_over:
        move, kind = policy_move(deal, rng)
        deal.play_legal(move, kind)
        plies += 1
    rewards: dict[int, float] = {}
    for child, mover in path:
        reward = rewards.get(mover)
        if reward is None:
            reward = rewards[mover] = -evaluate(deal, mover) / REWARD_SCALE
        child.visits += 1
        child.total += reward
