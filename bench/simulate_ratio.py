"""Whole-process speed of ``krypkasino simulate`` against the naive reference, same run.

    .venv/bin/python bench/simulate_ratio.py                      # a few minutes
    .venv/bin/python bench/simulate_ratio.py --baseline df8e1cf   # and an older engine

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

``--baseline REV`` also times ``krypkasino simulate`` of an earlier commit
(its ``app`` package taken out of git into a temporary directory, run with
this interpreter as ``python -m app.cli``), so that before and after are
measured in the same run.  Every program runs once untimed first (Python
compiles the modules of a fresh directory).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAIVE = ROOT / "bench" / "naive_engine.py"


def timed(cmd: list[str], cwd: Path = ROOT) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def krypkasino() -> str:
    """The installed command next to this interpreter (the virtualenv's)."""
    return str(Path(sys.executable).with_name("krypkasino"))


def extract(rev: str, into: Path) -> None:
    """The ``app`` package of commit ``rev``, written under ``into``."""
    archive = subprocess.run(
        ["git", "archive", rev, "app"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=10_000, help="deals of krypkasino simulate")
    parser.add_argument("--naive-deals", type=int, default=300, help="deals of the reference")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline-deals", type=int, help="deals of the baseline (--deals)")
    parser.add_argument("--baseline", metavar="REV", help="also time simulate of this commit")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            extract(args.baseline, Path(tmp))
        report(args, Path(tmp))
    return 0


def report(args: argparse.Namespace, baseline_dir: Path) -> None:
    engine_cmd = [krypkasino(), "simulate", "--players", str(args.players)]
    naive_cmd = [sys.executable, str(NAIVE), "--players", str(args.players)]
    base_cmd = [sys.executable, "-m", "app.cli", "simulate", "--players", str(args.players)]
    programs: list[tuple[str, list[str], int, Path]] = [
        ("krypkasino simulate", engine_cmd, args.deals, ROOT),
        ("naive reference", naive_cmd, args.naive_deals, ROOT),
    ]
    if args.baseline:
        name = f"krypkasino simulate at {args.baseline}"
        programs.append((name, base_cmd, args.baseline_deals or args.deals, baseline_dir))
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, *_ in programs}
    for _, cmd, _, cwd in programs:  # untimed: compiles the modules
        timed([*cmd, "--deals", "1"], cwd)
    for run in range(args.runs):
        seed = str(run + 1)
        for name, cmd, deals, cwd in programs:
            times[name].append(timed([*cmd, "--deals", str(deals), "--seed", seed], cwd))
    print(f"{args.players} players, {args.runs} runs, load average {os.getloadavg()[0]:.2f}")
    print("| program | deals a run | CPU s (median) | deals/s CPU | deals/s wall | x naive |")
    print("|---|---:|---:|---:|---:|---:|")
    naive_cpu = args.naive_deals / statistics.median(t[0] for t in times["naive reference"])
    naive_wall = args.naive_deals / statistics.median(t[1] for t in times["naive reference"])
    for name, _, deals, _ in programs:
        cpu = statistics.median(t[0] for t in times[name])
        wall = statistics.median(t[1] for t in times[name])
        print(
            f"| {name} | {deals} | {cpu:.2f} | {deals / cpu:.0f} | {deals / wall:.0f} "
            f"| {deals / cpu / naive_cpu:.1f} (wall {deals / wall / naive_wall:.1f}) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
