"""Alternating paired runs of bench/load.py (not a test): two checkouts' servers, in turn.

    .venv/bin/python bench/pairs.py --old ../before --pairs 3
    .venv/bin/python bench/pairs.py --old ../before --pairs 3 -- --rooms 250

On a shared machine the CPU per committed move of one and the same server
moves by about 5% from run to run (docs/benchmarks.md), which is as much as
the changes being measured.  A claim like "half of before" therefore needs
several runs of both servers in the same session, alternating (new, old, new,
old, ...) so that a slow spell of the machine falls on both, and the ratio of
each pair.  This runs ``bench/load.py`` that way (``--server-root`` for each
side; everything after ``--`` goes to every run) and prints each run's
latency and CPU per move, each pair's ratio new / old, and the median ratio.

The order within a pair alternates too (new then old, then old then new, ...:
``pair_order``), so that a machine that slows down or speeds up over the
session does not always favour the side that runs first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load.py"
DEFAULT_LOAD_ARGS = ["--rooms", "500", "--duration", "60", "--warmup", "15", "--clients", "2"]
"""The 500-room run of docs/benchmarks.md ("How it is measured")."""


def run_load(server_root: Path, load_args: list[str]) -> dict[str, Any]:
    """One bench/load.py run against ``server_root``'s server; its JSON report."""
    done = subprocess.run(
        [sys.executable, str(LOAD), *load_args, "--server-root", str(server_root)],
        capture_output=True,
        text=True,
        check=False,
    )
    out = done.stdout
    if done.returncode != 0 or "{" not in out:
        raise RuntimeError(f"bench/load.py failed ({done.returncode}):\n{done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(out[out.index("{") :])
    return report


def pair_ratios(runs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[float]:
    """CPU per committed move, new / old, for each (new, old) pair."""
    return [
        new["server_cpu_ms_per_move"] / old["server_cpu_ms_per_move"]
        for new, old in runs
        if old["server_cpu_ms_per_move"]
    ]


def pair_order(n: int) -> tuple[str, str]:
    """Which side runs first in pair ``n`` (1-based): new first in odd pairs, old first
    in even ones (ABBA), so a steady drift of the machine falls on both sides alike."""
    return ("new", "old") if n % 2 else ("old", "new")


def line(label: str, report: dict[str, Any]) -> str:
    return (
        f"{label:4s} p50 {report['latency_ms_p50']:7.1f} ms  p99 {report['latency_ms_p99']:7.1f} ms"
        f"  CPU {report['server_cpu_ms_per_move']:.3f} ms/move"
        f" ({report['server_cpu_share']:.0%} of a core)  moves/s {report['moves_per_s']}"
        f"  RSS after {report['server_rss_mb_after']} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the checkout to compare against")
    parser.add_argument("--new", default=str(ROOT), help="the checkout measured (this one)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("load_args", nargs="*", help="after --: arguments for bench/load.py")
    args = parser.parse_args()
    load_args = DEFAULT_LOAD_ARGS + args.load_args
    new_root, old_root = Path(args.new).resolve(), Path(args.old).resolve()
    runs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    roots = {"new": new_root, "old": old_root}
    for n in range(1, args.pairs + 1):
        reports: dict[str, dict[str, Any]] = {}
        for side in pair_order(n):
            reports[side] = run_load(roots[side], load_args)
            print(line(side, reports[side]), flush=True)
        new, old = reports["new"], reports["old"]
        runs.append((new, old))
        print(f"pair {n}: CPU per move new / old = {pair_ratios([(new, old)])[0]:.3f}", flush=True)
    ratios = pair_ratios(runs)
    summary = {
        "new": str(new_root),
        "old": str(old_root),
        "load_args": load_args,
        "ratios": [round(r, 3) for r in ratios],
        "median_ratio": round(statistics.median(ratios), 3) if ratios else None,
        "new_p99_ms": [new["latency_ms_p99"] for new, _ in runs],
        "old_p99_ms": [old["latency_ms_p99"] for _, old in runs],
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
