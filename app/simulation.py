"""Random play for checking invariants and measuring speed (``krypkasino simulate``).

Plays whole deals with uniformly random legal moves and checks after each
deal that every card is conserved (R1.1) and the scores add up to the pack's
card points (R6.3; minus 5 when bordstabbe fired, V5).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .engine.cards import pack
from .engine.deal import Deal
from .engine.rules import RuleSet
from .engine.scoring import BORDSTABBE


class InvariantError(AssertionError):
    """A deal broke card conservation or the score sum."""


@dataclass(slots=True)
class SimulationReport:
    deals: int
    moves: int
    seconds: float


_PACKS = {copies: pack(copies) for copies in (1, 2)}


def random_deal(rules: RuleSet, players: int, rng: random.Random) -> Deal:
    """A deal of a uniformly shuffled pack with a random dealer.

    The pack is sorted by independent uniform keys, a uniform permutation
    (ties have a chance of about 1e-12) made at twice the speed of
    ``Random.shuffle``, whose per-card draws are Python code.
    """
    draw = rng.random
    cards = sorted(_PACKS[rules.copies], key=lambda _: draw())
    return Deal.from_pack(rules, players, rng.randrange(players), cards)


def play_random(deal: Deal, rng: random.Random) -> int:
    """Play the deal to its end with uniformly random legal moves; returns the move count.

    Each move is drawn uniformly from the distinct legal moves of the position
    (``Deal.legal_moves``; ``int(random() * n)`` is uniform up to n / 2**53);
    the engine's own index of them is used directly, so a move it has just
    listed is not looked up and checked a second time.
    """
    n = 0
    random = rng.random
    legal_index = deal.legal_kinds
    play = deal.play_legal
    while deal.to_move is not None:
        legal = legal_index()
        if len(legal) == 1:
            move = next(iter(legal))
        else:
            moves = list(legal)
            move = moves[int(random() * len(moves))]
        play(move, legal[move])
        n += 1
    return n


def check_invariants(deal: Deal) -> None:
    """Raise InvariantError when cards were lost or made, or scores do not add up."""
    if not deal.is_over:
        raise InvariantError("deal is not over")
    opening = deal.opening
    start = [c for h in opening.hands for c in h]
    start += opening.table
    start += opening.stock
    end = [c for p in deal.piles for c in p]
    end += deal.set_aside_other
    end += deal.table
    end += [c for h in deal.hands for c in h]
    start.sort()
    end.sort()
    if start != end:
        lost, made = Counter(start), Counter(end)
        raise InvariantError(f"cards not conserved: {sorted((lost - made) + (made - lost))}")
    expected = deal.total_points() + (BORDSTABBE if deal.bordstabbe_seat is not None else 0)
    if sum(deal.totals()) != expected:
        raise InvariantError(f"scores add up to {sum(deal.totals())}, expected {expected}")


def simulate(players: int, deals: int, seed: int, rules: RuleSet | None = None) -> SimulationReport:
    import time

    rules = rules or RuleSet()
    rules.validate_for(players)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(deals):
        deal = random_deal(rules, players, rng)
        moves += play_random(deal, rng)
        check_invariants(deal)
    return SimulationReport(deals, moves, time.perf_counter() - start)
