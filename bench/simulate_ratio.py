"""Whole-process speed of ``krypkasino simulate`` against the naive reference, same run.

    .venv/bin/python bench/simulate_ratio.py              # about a minute
    .venv/bin/python bench/simulate_ratio.py --runs 3 --deals 2000 --naive-deals 200

Issue 14 asks for random full 4-player deals at least 25 times as fast as
the naive reference (bench/naive_engine.py), measured in the same run.
Both are timed as whole processes, start-up (interpreter, imports) included,
which is what a user of the command waits for: the engine plays N deals,
the reference M, each several seconds long, alternately, ``--runs`` times.

A process's time is its CPU time (user + system, from the kernel's account
of the finished child): other processes on a shared machine steal the
core, which the wall clock counts and the CPU clock does not.  The wall
clock is printed too.  Deals per second are N / time (M / time); the ratio
is that of the medians.  Run it nice'd on a shared machine, like every
benchmark here (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAIVE = ROOT / "bench" / "naive_engine.py"


def timed(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def krypkasino() -> str:
    """The installed command next to this interpreter (the virtualenv's)."""
    return str(Path(sys.executable).with_name("krypkasino"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=10_000, help="deals of krypkasino simulate")
    parser.add_argument("--naive-deals", type=int, default=500, help="deals of the reference")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    engine_cmd = [krypkasino(), "simulate", "--players", str(args.players)]
    naive_cmd = [sys.executable, str(NAIVE), "--players", str(args.players)]
    engine: list[tuple[float, float]] = []
    naive: list[tuple[float, float]] = []
    for run in range(args.runs):
        seed = str(run + 1)
        engine.append(timed([*engine_cmd, "--deals", str(args.deals), "--seed", seed]))
        naive.append(timed([*naive_cmd, "--deals", str(args.naive_deals), "--seed", seed]))
    print(f"{args.players} players, {args.runs} runs, load average {os.getloadavg()[0]:.2f}")
    print("| program | deals a run | CPU s (median) | deals/s CPU | deals/s wall |")
    print("|---|---:|---:|---:|---:|")
    rates = {}
    for name, deals, times in (
        ("krypkasino simulate", args.deals, engine),
        ("naive reference", args.naive_deals, naive),
    ):
        cpu = statistics.median(t[0] for t in times)
        wall = statistics.median(t[1] for t in times)
        rates[name] = (deals / cpu, deals / wall)
        print(f"| {name} | {deals} | {cpu:.2f} | {deals / cpu:.0f} | {deals / wall:.0f} |")
    cpu_ratio = rates["krypkasino simulate"][0] / rates["naive reference"][0]
    wall_ratio = rates["krypkasino simulate"][1] / rates["naive reference"][1]
    print(f"\nratio (engine / naive reference): {cpu_ratio:.1f}x CPU, {wall_ratio:.1f}x wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
