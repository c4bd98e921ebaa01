"""Random play for checking invariants and measuring speed (``krypkasino simulate``).

Plays whole deals with uniformly random legal moves and checks after each
deal that every card is conserved (R1.1) and the scores add up to the pack's
card points (R6.3; minus 5 when bordstabbe fired, V5).

``simulate`` plays through the engine's lean playout loop (engine/playout.py),
which makes the same moves ``play_random`` makes on a ``Deal`` with the same
random numbers, at a fraction of the cost; rule sets it does not cover (V7)
are played through ``Deal``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat, starmap
from operator import itemgetter
from typing import TYPE_CHECKING

from .engine.cards import pack
from .engine.moves import POINTS
from .engine.playout import Playout, playout, supports
from .engine.rules import RuleSet
from .engine.scoring import BORDSTABBE

if TYPE_CHECKING:
    from .engine.deal import Deal


class InvariantError(AssertionError):
    """A deal broke card conservation or the score sum."""


@dataclass(slots=True)
class SimulationReport:
    deals: int
    moves: int
    seconds: float


_PACKS = {copies: pack(copies) for copies in (1, 2)}
_POSITIONS = {copies: range(len(cards)) for copies, cards in _PACKS.items()}
_SORTED = {copies: sorted(cards) for copies, cards in _PACKS.items()}
"""Each pack as the invariant check sorts the cards it finds at the end."""
_PACK_POINTS = {
    (copies, nordic): sum(map(POINTS[nordic].__getitem__, cards))
    for copies, cards in _PACKS.items()
    for nordic in (False, True)
}
"""R6.1, V2, V3: the card points a pack holds (42, 21; 36, 18 under V3)."""


def shuffled(copies: int, draw: Callable[[], float]) -> list[str]:
    """A uniformly shuffled pack: sorted by independent uniform keys ``draw()``.

    A uniform permutation (ties have a chance of about 1e-12) made at more
    than twice the speed of ``Random.shuffle``, whose per-card draws are
    Python code: the keys are drawn card by card, as
    ``sorted(pack, key=lambda _: draw())`` would draw them (so a seed deals
    as before), but in C loops (``starmap``), as are the sort and the pick.
    """
    cards = _PACKS[copies]
    keys = list(starmap(draw, repeat((), len(cards))))
    return list(itemgetter(*sorted(_POSITIONS[copies], key=keys.__getitem__))(cards))


def random_deal(rules: RuleSet, players: int, rng: random.Random) -> Deal:
    """A deal of a uniformly shuffled pack with a random dealer."""
    from .engine.deal import Deal  # not needed by the playouts of ``simulate``

    cards = shuffled(rules.copies, rng.random)
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


def check_playout(result: Playout, rules: RuleSet) -> None:
    """``check_invariants`` for a playout of a pack of these rules: every card of the
    pack ends in a capture pile or on the non-scoring picture pile (R1.1, R5.1), and
    the scores add up to the pack's card points (R6.3; minus 5 for V5)."""
    if result.left_over:
        raise InvariantError(f"cards left over at the end: {sorted(result.left_over)}")
    end = [c for p in result.piles for c in p]
    end += result.set_aside_other
    end.sort()
    start = _SORTED[rules.copies]
    if start != end:
        lost, made = Counter(start), Counter(end)
        raise InvariantError(f"cards not conserved: {sorted((lost - made) + (made - lost))}")
    expected = _PACK_POINTS[rules.copies, rules.nordic]
    if result.bordstabbe_seat is not None:
        expected += BORDSTABBE
    total = sum(result.totals())
    if total != expected:
        raise InvariantError(f"scores add up to {total}, expected {expected}")


def random_playout(rules: RuleSet, players: int, rng: random.Random) -> Playout:
    """A deal dealt as ``random_deal`` deals it, played out as ``play_random`` plays it.

    The random numbers are drawn in the same order, so the moves are the
    same as those of ``play_random(random_deal(rules, players, rng), rng)``.
    """
    draw = rng.random
    cards = shuffled(rules.copies, draw)
    return playout(rules, players, rng.randrange(players), cards, draw)


def simulate(players: int, deals: int, seed: int, rules: RuleSet | None = None) -> SimulationReport:
    import time

    rules = rules or RuleSet()
    rules.validate_for(players)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    if supports(rules):
        for _ in range(deals):
            result = random_playout(rules, players, rng)
            moves += result.moves
            check_playout(result, rules)
    else:
        for _ in range(deals):
            deal = random_deal(rules, players, rng)
            moves += play_random(deal, rng)
            check_invariants(deal)
    return SimulationReport(deals, moves, time.perf_counter() - start)
