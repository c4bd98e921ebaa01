"""The standings, a pure function of the published packs (``PackJson``), so that a
test, or anyone holding the published results, recomputes them.

Per pack and entrant: the mean of its deal scores, and the mean of each score minus
the mean of every seat of that deal (the table's mean on the same cards).  Across
packs: the mean of the per-pack means (packs are independent, the deals within a
pack are not), and a 95% Student t interval of the relative mean from their spread
(``app.bots.duplicate.half_width``, as ``krypkasino tournament`` reports).  Sorted
by the relative mean, best (lowest) first.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.bots.duplicate import half_width

from .entrants import EntrantKind
from .published import PackJson, StandingJson

DIGITS = 4
"""Decimals the published figures are rounded to."""


@dataclass(slots=True)
class _Tally:
    kind: EntrantKind
    deals: int = 0
    means: list[float] = field(default_factory=list)
    relative: list[float] = field(default_factory=list)


def pack_means(pack: PackJson) -> dict[str, tuple[float, float, int]]:
    """Per entrant of ``pack``: (mean score, mean relative score, results counted)."""
    by_deal: dict[int, list[int]] = defaultdict(list)
    for r in pack["results"]:
        by_deal[r["deal"]].append(r["score"])
    table_mean = {deal: statistics.fmean(scores) for deal, scores in by_deal.items()}
    scores: dict[str, list[float]] = defaultdict(list)
    relative: dict[str, list[float]] = defaultdict(list)
    for r in pack["results"]:
        scores[r["entrant"]].append(r["score"])
        relative[r["entrant"]].append(r["score"] - table_mean[r["deal"]])
    return {
        e: (statistics.fmean(scores[e]), statistics.fmean(relative[e]), len(scores[e]))
        for e in scores
    }


def standings(packs: Iterable[PackJson]) -> list[StandingJson]:
    """Every entrant of ``packs``, best relative mean first."""
    tallies: dict[str, _Tally] = {}
    for pack in packs:
        kinds = {e["entrant"]: e["kind"] for e in pack["entrants"]}
        for entrant, (mean, rel, count) in pack_means(pack).items():
            tally = tallies.setdefault(entrant, _Tally(kinds.get(entrant, "level")))
            tally.deals += count
            tally.means.append(mean)
            tally.relative.append(rel)
    out: list[StandingJson] = []
    for entrant, t in tallies.items():
        rel = statistics.fmean(t.relative)
        half = half_width(t.relative)
        finite = math.isfinite(half)
        out.append(
            {
                "entrant": entrant,
                "kind": t.kind,
                "packs": len(t.means),
                "deals": t.deals,
                "mean": round(statistics.fmean(t.means), DIGITS),
                "relative_mean": round(rel, DIGITS),
                "low": round(rel - half, DIGITS) if finite else None,
                "high": round(rel + half, DIGITS) if finite else None,
            }
        )
    out.sort(key=lambda s: (s["relative_mean"], s["entrant"]))
    return out
