"""Each entrant's mean score in one pack, and its mean against the table: the duplicate
comparison every ladder figure starts from (app/ladder/standings.py,
app/ladder/anchored.py)."""

from __future__ import annotations

import statistics
from collections import defaultdict

from .published import PackJson


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
