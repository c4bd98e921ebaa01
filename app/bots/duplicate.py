"""Duplicate play's arithmetic, shared by ``krypkasino tournament`` and the bot ladder.

A duplicate block (a *pack*) is one shuffled pack played once per seating, the
players rotating one seat every deal, so that every player plays every hand of it
and the luck of the cards cancels.  What the two share is pure: who sits where in
each deal of a block, a seat's score under the rules (the team's under V1), and the
95% confidence interval from per-block means (Student t: blocks are independent,
deals within a block are not).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from app.engine.rules import RuleSet

T95 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)
"""Two-sided 95% Student t quantiles for 1 to 30 degrees of freedom."""


def t95(df: int) -> float:
    """The two-sided 95% Student t quantile for ``df`` degrees of freedom (inf below 1)."""
    if df < 1:
        return math.inf
    if df <= len(T95):
        return T95[df - 1]
    return 1.960 + 2.4 / df  # within 0.003 of the exact quantile above 30


def half_width(means: Sequence[float]) -> float:
    """Half the 95% interval of the mean of independent ``means`` (inf for fewer than 2)."""
    if len(means) < 2:
        return math.inf
    return t95(len(means) - 1) * statistics.stdev(means) / math.sqrt(len(means))


def seat_of(position: int, rotation: int, players: int) -> int:
    """The seat of the player at ``position`` in the ``rotation``-th deal of a block:
    one seat to the left every deal, so that over ``players`` deals each plays each seat."""
    return (position + rotation) % players


def side_totals(rules: RuleSet, totals: Sequence[int]) -> list[int]:
    """Each seat's deal score as it counts for that seat: its own (R6.2), or under V1
    (partnership) its team's."""
    if not rules.partnership:
        return list(totals)
    teams = [totals[0] + totals[2], totals[1] + totals[3]]
    return [teams[rules.team_of(s)] for s in range(len(totals))]
