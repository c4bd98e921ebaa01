"""Ranks and percentiles of a day's results (lower points are better, R6.4).

``rank`` is 1 plus the number of players with fewer points: ties share a rank,
and the rank after a tie skips (1, 2, 2, 4).  ``percentile`` is the share of the
*other* players who scored more points (did worse), in percent, rounded to one
decimal: 100 for a player who beat everyone else, 0 for one who beat nobody,
the same for everyone who tied; a player alone in the results has 100.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Placed:
    rank: int
    percentile: float


def place(points: int, everyone: Sequence[int]) -> Placed:
    """Where ``points`` stands among ``everyone``'s points (which include it)."""
    ordered = sorted(everyone)
    fewer = bisect_left(ordered, points)
    more = len(ordered) - bisect_right(ordered, points)
    others = len(ordered) - 1
    percentile = 100.0 if others <= 0 else round(100.0 * more / others, 1)
    return Placed(rank=fewer + 1, percentile=percentile)


def placings(points: Sequence[int]) -> list[Placed]:
    """``place`` for each of ``points``, in their order."""
    return [place(p, points) for p in points]
