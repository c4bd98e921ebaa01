"""The coach's benchmark (not a test): how fast it analyses a deal, how stable its
labels are across sample seeds, and whether its losses order the bots.

    .venv/bin/python bench/coach.py --deals 24 [--procs 2] [--players 4] [--budget 0.5]
        [--first 0] [--json out.json]
    .venv/bin/python bench/coach.py --report out.json more.json   # pooled figures

Deals of four players are played by bots seated strong, greedy, random, greedy
(rotated a seat every deal, so each level sits everywhere), then each deal is
analysed at the server's default settings twice, with sample seeds "1" and "2",
in ``--procs`` processes side by side.  Reported:

* wall time of one deal's analysis (one process: the server runs one analysis
  worker), mean and max;
* labels changed between the two seeds, in % of plays;
* per bot level, the mean loss per play with a 95% interval (Student t over the
  deals' means of that level), and the share of its plays left unlabelled (the
  thresholds' calibration: the strong bot's own plays should mostly be).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots.tournament import t95  # noqa: E402
from app.coach.report import analyse  # noqa: E402
from tests.coach.helpers import bot_deal  # noqa: E402

SEATING = ["strong", "greedy", "random", "greedy"]


def one(args: tuple[int, int, float]) -> dict[str, Any]:
    """Play deal ``d`` and analyse it with two seeds; per play: level, loss, labels."""
    d, players, budget = args
    levels = [SEATING[(i + d) % len(SEATING)] for i in range(players)]
    stored = bot_deal(levels, 1000 + d, budget_s=budget)
    started, cpu = time.perf_counter(), time.process_time()
    a = analyse(stored, "1")
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    b = analyse(stored, "2")
    plays = [
        {"level": levels[p["seat"]], "loss": p["loss"], "label": p["label"], "other": q["label"]}
        for p, q in zip(a["plays"], b["plays"], strict=True)
    ]
    return {"deal": d, "seconds": seconds, "cpu": cpu, "plays": plays}


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=24)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--procs", type=int, default=2)
    p.add_argument("--budget", type=float, default=0.5, help="strong bot seconds per move")
    p.add_argument("--first", type=int, default=0, help="number of the first deal")
    p.add_argument("--json", type=Path, help="write every deal's figures here")
    p.add_argument("--report", type=Path, nargs="+", help="report these --json files pooled")
    args = p.parse_args()
    if args.report:
        deals = [d for f in args.report for d in json.loads(f.read_text())]
        report(deals, args.players, args.procs, math.nan)
        return 0
    jobs = [(d, args.players, args.budget) for d in range(args.first, args.first + args.deals)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.procs) as pool:
        deals = list(pool.map(one, jobs))
    wall = time.perf_counter() - started
    if args.json:
        args.json.write_text(json.dumps(deals))
    report(deals, args.players, args.procs, wall)
    return 0


def report(deals: list[dict[str, Any]], players: int, procs: int, wall: float) -> None:
    """Print the figures of ``deals`` (see the module's docstring)."""
    secs = [d["seconds"] for d in deals]
    cpus = [d["cpu"] for d in deals]
    plays = [p for d in deals for p in d["plays"]]
    changed = sum(1 for p in plays if p["label"] != p["other"])
    print(f"{len(deals)} deals of {players} players, {len(plays)} plays, {wall:.0f} s in all")
    print(
        f"analysis of one deal: mean {statistics.fmean(secs):.1f} s, max {max(secs):.1f} s "
        f"(one process, {procs} side by side); CPU time mean "
        f"{statistics.fmean(cpus):.1f} s, max {max(cpus):.1f} s"
    )
    print(
        f"labels changed between seeds 1 and 2: {changed} of {len(plays)} "
        f"({100 * changed / len(plays):.1f}%)"
    )
    print(f"{'level':<7} {'plays':>5} {'loss/play':>9}  {'95% interval':<16} {'unlabelled':>10}")
    for level in ("strong", "greedy", "random"):
        per_deal = [
            statistics.fmean(p["loss"] for p in d["plays"] if p["level"] == level)
            for d in deals
            if any(p["level"] == level for p in d["plays"])
        ]
        mine = [p for p in plays if p["level"] == level]
        mean, lo, hi = interval(per_deal)
        clean = sum(1 for p in mine if p["label"] == "none") / len(mine)
        print(f"{level:<7} {len(mine):>5} {mean:>9.3f}  [{lo:.3f}, {hi:.3f}]  {100 * clean:>9.1f}%")


if __name__ == "__main__":
    raise SystemExit(main())
