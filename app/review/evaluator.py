"""Expected points for each legal move, as a what-if in a shared review shows them.

``MoveEvaluator`` is the one seam: a plain, synchronous function of what the seat to
move knows (its ``InformationSet``, never the hidden cards) and its legal moves,
returning for each move the points that seat is expected to end the deal with
(lower is better in this game).  The review runs it off the event loop
(``app/review/whatif.py``).  The server's is the coach's (``app/coach/whatif.py``,
``CoachEvaluator``: the analysis's own method), handed in where the features are
built (``app/features.py``, ``Reviews(..., evaluator=...)``).

``SampledEvaluator``, the default when none is handed in (a review built on its
own, as in tests), is the strong bot's sampling (``app/bots/strong.py``):
a world is drawn from the seat's knowledge (hidden hands and stock, keeping out of
each hand the values its player has shown it lacks), every legal move is played in
it, and the deal is played out to its end by the strong bot's playout policy (the
greedy cost, ties broken at random); the same worlds and the same playout
randomness for every move (common random numbers), so the differences between
moves are not drowned in the luck of the deal.  The mean of the seat's deal total
over the worlds is the move's expected points.  Deterministic for a seed as long as
the worlds fit the time budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.bots import strong
from app.bots.knowledge import knowledge_of
from app.bots.values import points_so_far
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

TO_THE_END = 10_000
"""Plies a playout may last: more than any deal has, so it runs to the deal's end."""


class MoveEvaluator(Protocol):
    """The expected deal total of ``info``'s seat after each of ``legal`` (same order)."""

    def __call__(
        self, info: InformationSet, legal: Sequence[LegalMove], seed: int
    ) -> list[float]: ...


@dataclass(frozen=True, slots=True)
class SampledEvaluator:
    """The strong bot's sampling and playouts to the end of the deal (module doc)."""

    worlds: int = 16
    """Worlds sampled at most."""
    budget_s: float = 0.4
    """Seconds of thinking at most (at least one world is always played)."""

    def __call__(self, info: InformationSet, legal: Sequence[LegalMove], seed: int) -> list[float]:
        if not legal:
            return []
        rng = random.Random(seed)
        k = knowledge_of(info)
        me = info.seat
        totals = [0.0] * len(legal)
        done = 0
        deadline = time.perf_counter() + self.budget_s
        while done < self.worlds and (done == 0 or time.perf_counter() < deadline):
            hands, stock = strong.sample_world(k, rng)
            playout_seed = rng.getrandbits(32)
            for i, move in enumerate(legal):
                deal = strong.build_deal(k, hands, stock)
                deal.apply(move.card, move.take)
                strong.playout(deal, me, random.Random(playout_seed), TO_THE_END)
                totals[i] += deal.scores[me].total
            done += 1
        # a sampled world's deal starts at 0 points: add the seat's so far (from the log)
        so_far = points_so_far(info)
        return [round(so_far + t / done, 2) for t in totals]
