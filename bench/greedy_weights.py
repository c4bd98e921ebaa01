"""The greedy cost's weights tried (not a test): one seat plays greedy with other
weights against three greedy bots as they are, duplicate packs (app/bots/tournament.py).

The greedy cost is also the strong bot's and the coach's playout policy (strong.py), so
a clearly better set of weights would be the first candidate for "a better playout
policy" (issue 31).  A greedy deal takes some 12 ms, so thousands of packs are cheap.

    .venv/bin/python bench/greedy_weights.py '{"TABLE_WEIGHT": 0.3}' --deals 2000 --procs 2

Prints the variant's mean deal score minus the three standard seats' mean on the same
packs, with a 95% interval over the packs (the seeds of the processes are independent).
Results: docs/bots.md, "The greedy cost's weights".
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots import greedy  # noqa: E402
from app.bots.knowledge import knowledge_of  # noqa: E402
from app.bots.tournament import Chooser, run_tournament, t95  # noqa: E402
from app.engine.infoset import InformationSet  # noqa: E402
from app.engine.moves import LegalMove  # noqa: E402

WEIGHTS = ("HAND_WEIGHT", "TABLE_WEIGHT", "KEEP_CAPTURE")


def weighted(weights: dict[str, float]) -> Chooser:
    """Greedy's cheapest move with ``weights`` in place of the module's, for this seat only."""

    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        if len(legal) == 1:
            return legal[0]
        saved = {name: getattr(greedy, name) for name in weights}
        for name, value in weights.items():
            setattr(greedy, name, value)
        try:
            return greedy.ranked_moves(knowledge_of(info), legal)[0][1]
        finally:
            for name, value in saved.items():
                setattr(greedy, name, value)

    return chooser


def packs(job: tuple[dict[str, float], int, int, int]) -> list[float]:
    """Per pack: the variant's mean deal score minus the standard seats' mean."""
    weights, players, deals, seed = job
    mine: dict[int, list[int]] = {}
    theirs: dict[int, list[float]] = {}

    def progress(d: int, totals: list[int]) -> None:
        block = d // players
        mine.setdefault(block, []).append(totals[0])
        theirs.setdefault(block, []).append(statistics.fmean(totals[1:]))

    bots = ["weighted"] + ["greedy"] * (players - 1)
    run_tournament(
        players,
        bots,
        deals,
        seed,
        progress=progress,
        players_by_name={"weighted": weighted(weights)},
    )
    return [
        statistics.fmean(mine[b]) - statistics.fmean(theirs[b])
        for b in mine
        if len(mine[b]) == players
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("weights", help=f"JSON object of some of {', '.join(WEIGHTS)}")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=2000, help="deals per process")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000, help="the first process's seed")
    args = ap.parse_args()
    weights = json.loads(args.weights)
    unknown = set(weights) - set(WEIGHTS)
    if unknown:
        raise SystemExit(f"unknown weights: {', '.join(sorted(unknown))}")
    jobs = [(weights, args.players, args.deals, args.seed + i) for i in range(args.procs)]
    with Pool(args.procs) as pool:
        diffs = [d for part in pool.map(packs, jobs) for d in part]
    mean = statistics.fmean(diffs)
    half = t95(len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5
    print(
        json.dumps(
            {
                "weights": weights,
                "players": args.players,
                "packs": len(diffs),
                "minus_greedy": round(mean, 3),
                "ci95": [round(mean - half, 3), round(mean + half, 3)],
            }
        )
    )


if __name__ == "__main__":
    main()
