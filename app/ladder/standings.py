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
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.bots.duplicate import half_width

from .anchored import ratings
from .entrants import EntrantKind
from .published import PackJson, StandingJson
from .relative import pack_means

DIGITS = 4
"""Decimals the published figures are rounded to."""


@dataclass(slots=True)
class _Tally:
    kind: EntrantKind
    deals: int = 0
    means: list[float] = field(default_factory=list)
    relative: list[float] = field(default_factory=list)


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, DIGITS)


def standings(packs: Sequence[PackJson]) -> list[StandingJson]:
    """Every entrant of ``packs``, best relative mean first, each with its rating on
    the anchors' scale (app/ladder/anchored.py)."""
    tallies: dict[str, _Tally] = {}
    for pack in packs:
        kinds = {e["entrant"]: e["kind"] for e in pack["entrants"]}
        for entrant, (mean, rel, count) in pack_means(pack).items():
            tally = tallies.setdefault(entrant, _Tally(kinds.get(entrant, "level")))
            tally.deals += count
            tally.means.append(mean)
            tally.relative.append(rel)
    rated = ratings(packs)
    out: list[StandingJson] = []
    for entrant, t in tallies.items():
        r = rated.get(entrant)
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
                "rating": _rounded(r.value if r else None),
                "rating_low": _rounded(r.low if r else None),
                "rating_high": _rounded(r.high if r else None),
            }
        )
    out.sort(key=lambda s: (s["relative_mean"], s["entrant"]))
    return out
