"""Ratings on the anchors' scale: what makes two outside bots comparable when they met
different tables (issue 51: "built-in levels as fixed anchors, outside bots by
rating").

A relative mean (``standings.pack_means``) says how a bot did against its own table:
beating random by 3 points a deal and beating strong by 1 are not the same feat.
The ratings put every entrant on one scale, in points a deal, lower better:

- **Anchors.** Each level L has a value r_L, fitted to the packs whose tables hold
  levels only: in such a pack an entrant's relative mean is its value minus its
  table's mean value, r_e - (1/n) sum over seats r, and the values are the least-squares
  solution of those equations with the levels' values summing to 0 (the scale's
  zero is the anchors' average).  Outside bots' packs never move them: the anchors
  are fixed by the anchors' own games.  Not identifiable (no anchor-only pack yet, or
  levels that never met at a table, directly or through others): no ratings at all.
- **An outside bot** b at a table with the levels of known values: its relative
  mean there is r_b - (k r_b + S)/n (k its seats, S the sum of the other seats'
  values), so each of its packs gives r_b = (n rel + S)/(n - k).  Its rating is the
  mean of those estimates over its packs, with a 95% Student t interval from their
  spread, as the relative mean's (the anchors' own error is not in the interval).

Published as ``rating`` (and ``rating_low``, ``rating_high``) in each standing,
computed from the published packs alone, as everything on the ladder is.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from app.bots.duplicate import half_width

from .published import PackJson
from .relative import pack_means

PIVOT = 1e-9
"""A pivot smaller than this: the anchors' equations do not fix their values."""


@dataclass(frozen=True, slots=True)
class Rating:
    value: float
    low: float | None
    high: float | None


def _is_anchor_only(pack: PackJson) -> bool:
    return all(e["kind"] == "level" for e in pack["entrants"])


def _seats(pack: PackJson) -> Counter[str]:
    """How many seats of the table each entrant holds."""
    return Counter(e["entrant"] for e in pack["entrants"])


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; None for a singular system."""
    n = len(rhs)
    a = [row[:] + [b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < PIVOT:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def anchor_values(packs: Sequence[PackJson]) -> dict[str, float] | None:
    """Each level's value from the anchor-only packs (see the module); None when they
    do not fix it."""
    rows: list[tuple[dict[str, float], float]] = []
    for pack in packs:
        if not _is_anchor_only(pack):
            continue
        seats = _seats(pack)
        n = sum(seats.values())
        for entrant, (_, rel, _) in pack_means(pack).items():
            coeff = {e: -count / n for e, count in seats.items()}
            coeff[entrant] = coeff.get(entrant, 0.0) + 1.0
            rows.append((coeff, rel))
    levels = sorted({e for coeff, _ in rows for e in coeff})
    if len(levels) < 2:
        return None
    k = len(levels)
    index = {e: i for i, e in enumerate(levels)}
    # normal equations of the least squares, with a Lagrange row: the values sum to 0
    system = [[0.0] * (k + 1) for _ in range(k + 1)]
    rhs = [0.0] * (k + 1)
    for coeff, rel in rows:
        for e, c in coeff.items():
            for f, d in coeff.items():
                system[index[e]][index[f]] += c * d
            rhs[index[e]] += c * rel
    for i in range(k):
        system[i][k] = system[k][i] = 1.0
    solved = _solve(system, rhs)
    if solved is None:
        return None
    return {e: solved[index[e]] for e in levels}


def ratings(packs: Sequence[PackJson]) -> dict[str, Rating]:
    """Every entrant's rating (anchors: their fixed values, no interval; an outside
    bot: from its packs whose other seats are all rated levels).  Empty when the
    anchors are not fixed yet."""
    anchors = anchor_values(packs)
    if anchors is None:
        return {}
    out: dict[str, Rating] = {e: Rating(v, None, None) for e, v in anchors.items()}
    estimates: dict[str, list[float]] = {}
    for pack in packs:
        seats = _seats(pack)
        outside = [e["entrant"] for e in pack["entrants"] if e["kind"] == "outside"]
        if len(set(outside)) != 1:
            continue
        (bot,) = set(outside)
        others = {e: c for e, c in seats.items() if e != bot}
        if not all(e in anchors for e in others):
            continue
        n, k = sum(seats.values()), seats[bot]
        rel = pack_means(pack)[bot][1]
        known = sum(anchors[e] * c for e, c in others.items())
        estimates.setdefault(bot, []).append((n * rel + known) / (n - k))
    for bot, values in estimates.items():
        mean = statistics.fmean(values)
        half = half_width(values)
        finite = math.isfinite(half)
        out[bot] = Rating(mean, mean - half if finite else None, mean + half if finite else None)
    return out
