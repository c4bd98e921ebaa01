"""Ranks and percentiles of a day's results (lower points are better, R6.4).

``rank`` is 1 plus the number of players with fewer points: ties share a rank,
and the rank after a tie skips (1, 2, 2, 4).  ``percentile`` is the share of the
*other* players one did better than, a tie counting half, in percent, rounded to
one decimal: 100 × (worse + ½ × tied) / (everyone − 1), where ``worse`` counts the
others with more points and ``tied`` the others with as many.  100 for a player
who beat everyone else, 0 for one who beat nobody, 50 for everyone when all tie,
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
    same = bisect_right(ordered, points) - fewer
    more = len(ordered) - fewer - same
    others = len(ordered) - 1
    share = (more + 0.5 * (same - 1)) / others if others > 0 else 1.0
    percentile = round(100.0 * share, 1)
    return Placed(rank=fewer + 1, percentile=percentile)


def placings(points: Sequence[int]) -> list[Placed]:
    """``place`` for each of ``points``, in their order."""
    return [place(p, points) for p in points]


@dataclass(frozen=True, slots=True)
class Start:
    """A play of a deal as started: its player key's hash, what is kept of the address
    it came from (None: not known), and when."""

    player_hash: str
    address_hash: str | None
    started_ms: int


def ranked_keys(starts: Sequence[Start], per_address: int) -> set[str]:
    """The player keys whose play of the deal is ranked: of the plays started from one
    address, the first ``per_address`` (by start, then key: the same answer in every
    process and at every read, whatever order two plays were claimed in); every play
    whose address is not known, or all of them with ``per_address`` 0.  A play started
    and never finished takes its place all the same: played nearly to the end, it
    showed nearly every card."""
    if per_address <= 0:
        return {s.player_hash for s in starts}
    ranked: set[str] = set()
    seen: dict[str, int] = {}
    for s in sorted(starts, key=lambda s: (s.started_ms, s.player_hash)):
        if s.address_hash is None:
            ranked.add(s.player_hash)
            continue
        before = seen.get(s.address_hash, 0)
        seen[s.address_hash] = before + 1
        if before < per_address:
            ranked.add(s.player_hash)
    return ranked
