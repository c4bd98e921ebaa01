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


def random_deal(rules: RuleSet, players: int, rng: random.Random) -> Deal:
    cards = pack(rules.copies)
    rng.shuffle(cards)
    return Deal.from_pack(rules, players, rng.randrange(players), cards)


def play_random(deal: Deal, rng: random.Random) -> int:
    """Play the deal to its end with uniformly random legal moves; returns the move count."""
    n = 0
    while not deal.is_over:
        move = rng.choice(deal.legal_moves())
        deal.apply(move.card, move.take)
        n += 1
    return n


def check_invariants(deal: Deal) -> None:
    """Raise InvariantError when cards were lost or made, or scores do not add up."""
    if not deal.is_over:
        raise InvariantError("deal is not over")
    start = Counter(c for h in deal.opening.hands for c in h)
    start.update(deal.opening.table)
    start.update(deal.opening.stock)
    end = Counter(c for p in deal.piles for c in p)
    end.update(deal.set_aside_other)
    end.update(deal.table)
    end.update(c for h in deal.hands for c in h)
    if start != end:
        raise InvariantError(f"cards not conserved: {sorted((start - end) + (end - start))}")
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
