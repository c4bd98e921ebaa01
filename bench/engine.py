"""Engine benchmark: random full deals per second and the time of a legal-move query.

    .venv/bin/python bench/engine.py            # about 15-20 s
    .venv/bin/python bench/engine.py --quick    # a few seconds

Prints markdown tables (docs/benchmarks.md keeps the numbers measured on the
reference machine).  Times are CPU seconds of this process (``process_time``)
unless a column says "wall": on a shared machine other processes steal the
core, which the wall clock counts and the CPU clock does not.

* Deals per second: whole random 4-player (2-, 6-) deals with uniformly
  random legal moves, the invariants checked after each deal.  "playout" is
  exactly what ``krypkasino simulate`` does (``simulation.random_playout``,
  the lean loop of app/engine/playout.py); "Deal" plays the same moves
  through ``Deal`` (``random_deal`` and ``play_random``), the path of
  everything that needs the position between moves (rooms, bots).  "cold"
  runs start with empty capture caches (like a fresh ``krypkasino
  simulate`` process), "warm" runs keep what earlier runs learned.  The
  median of the runs, and the best in brackets (the least disturbed by
  other processes).  Whole processes, start-up included, against the naive
  reference: bench/simulate_ratio.py.
* Legal-move query: ``Deal.legal_moves()`` on a freshly built ``Deal``, so
  that nothing of the position itself is cached.  "cold" empties the
  capture caches first, "warm" does not.  Typical positions are random
  mid-deal positions; the adversarial ones are crowded tables of small
  cards that make the capture search (R3.3) branch the most.
* Seat queries: what the server hands a bot at every turn of random
  4-player deals, ``Deal.information_set(seat)`` and ``Deal.legal()`` (the
  ``LegalMove`` values), against reading the same information back from the
  seat's view dict (``InformationSet.from_view``, the ``choose_move`` path).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine import legal as legal_module  # noqa: E402
from app.engine.deal import Deal  # noqa: E402
from app.engine.rules import RuleSet  # noqa: E402
from app.simulation import (  # noqa: E402
    check_invariants,
    check_playout,
    play_random,
    random_deal,
    random_playout,
)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def clear_caches() -> None:
    legal_module.clear_caches()


# ------------------------------------------------------------- deals / second


def deals_per_second(
    players: int, deals: int, seed: int, cold: bool, through_deal: bool
) -> tuple[float, float]:
    """(CPU deals/s, wall deals/s) of ``deals`` random deals, invariants checked."""
    if cold:
        clear_caches()
    rules = RuleSet()
    rng = random.Random(seed)
    cpu, wall = time.process_time(), time.perf_counter()
    if through_deal:
        for _ in range(deals):
            deal = random_deal(rules, players, rng)
            play_random(deal, rng)
            check_invariants(deal)
    else:
        for _ in range(deals):
            check_playout(random_playout(rules, players, rng), rules)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return deals / cpu, deals / wall


# ------------------------------------------------------------- positions


def snapshot(deal: Deal) -> dict:
    """What it takes to build the same position again (a fresh Deal, nothing cached)."""
    return {
        "rules": deal.rules,
        "players": deal.players,
        "dealer": deal.dealer,
        "hands": [list(h) for h in deal.hands],
        "table": list(deal.table),
        "stock": list(deal.stock),
        "to_move": deal.to_move,
        "last_capturer": deal.last_capturer,
    }


def rebuild(pos: dict) -> Deal:
    return Deal.from_position(
        pos["rules"],
        pos["players"],
        pos["dealer"],
        pos["hands"],
        pos["table"],
        pos["stock"],
        pos["to_move"],
        opening=False,
        last_capturer=pos["last_capturer"],
    )


def typical_positions(count: int, seed: int) -> list[dict]:
    """Random mid-deal positions of random 4-player deals."""
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        deal = random_deal(RuleSet(), 4, rng)
        stop = rng.randrange(1, 95)
        for _ in range(stop):
            m = rng.choice(deal.legal_moves())
            deal.apply(m.card, m.take)
        out.append(snapshot(deal))
    return out


def table_of(ranks: list[tuple[str, int]], suits: str = "SHDC") -> list[str]:
    """n cards of each rank, suits in turn (so twins appear after four of a rank)."""
    return [r + suits[i % len(suits)] for r, n in ranks for i in range(n)]


def adversarial_positions() -> list[tuple[str, dict]]:
    def position(table: list[str], hand: list[str]) -> dict:
        other = ["6C", "7C", "8C", "9C"][: max(0, len(hand) - 1)]
        return {
            "rules": RuleSet(),
            "players": 2,
            "dealer": 0,
            "hands": [other, hand],
            "table": table,
            "stock": [],
            "to_move": 1,
            "last_capturer": None,
        }

    aces = table_of([("A", 7), ("2", 8), ("3", 4)])
    low = table_of([(r, 5) for r in "A2345"])
    thirteen = table_of([(r, 2) for r in RANKS], "SH")[:25]  # 1..13 twice, one K short
    return [
        ("7 A + 8 twos + 4 threes, an ace played", position(aces, ["AC"])),
        ("25 low cards A-5 (5 each), an ace played", position(low, ["AD"])),
        ("25 low cards A-5 (5 each), a king played", position(low, ["KS"])),
        ("25 low cards A-5, hand A K Q J 10", position(low, ["AD", "KS", "QS", "JS", "10S"])),
        ("25 cards of values 1..13 twice, an ace played", position(thirteen, ["AD"])),
        (
            "25 cards of values 1..13 twice, hand A Q J 10 9",
            position(thirteen, ["AD", "QD", "JD", "10D", "9D"]),
        ),
        ("worst found by hill-climbing the number of moves", position(WORST_TABLE, WORST_HAND)),
    ]


WORST_TABLE = [
    "AC",
    "AD",
    "AS",
    "2D",
    "2S",
    "2S",
    "3C",
    "3D",
    "3H",
    "3S",
    "4C",
    "4D",
    "4H",
    "7C",
    "7D",
    "7H",
    "7S",
    "10C",
    "10D",
    "10H",
    "10S",
    "JC",
    "JD",
    "JH",
    "JS",
]
WORST_HAND = ["QC", "QD", "QH", "QS", "KS"]
"""The position with the most distinct legal moves that a hill climb over random
25-card tables and 5-card hands found (96,666): its time is bound by the size
of the answer (every move is a tuple of card codes), not by the search."""


def query_times(pos: dict, reps: int, cold: bool) -> list[float]:
    """CPU seconds of legal_moves() on a fresh Deal of this position, ``reps`` times."""
    times = []
    for _ in range(reps):
        deal = rebuild(pos)
        if cold:
            clear_caches()
        t = time.process_time()
        deal.legal_moves()
        gc.collect(0)  # the engine pauses the collector; count the collection it put off
        times.append(time.process_time() - t)
    return times


def seat_query_times(deals: int, seed: int) -> dict[str, float]:
    """CPU microseconds per turn of each seat query, over every turn of ``deals`` deals.

    The view modules are imported here, not at the top: loaded for the whole run,
    they measurably slowed the cold legal-move queries above (more live objects)."""
    from app.engine.infoset import InformationSet
    from app.engine.match import Match
    from app.engine.views import match_view

    rng = random.Random(seed)
    spent = {"information_set": 0.0, "legal": 0.0, "from_view": 0.0}
    turns = 0
    for _ in range(deals):
        deal = random_deal(RuleSet(), 4, rng)
        match = Match(deal.rules, 4, deal.dealer)
        while deal.to_move is not None:
            seat = deal.to_move
            t0 = time.process_time()
            deal.information_set(seat)
            t1 = time.process_time()
            legal = deal.legal()
            t2 = time.process_time()
            view = match_view(match, deal, seat, "playing", 1)
            t3 = time.process_time()
            InformationSet.from_view(view)
            t4 = time.process_time()
            spent["information_set"] += t1 - t0
            spent["legal"] += t2 - t1
            spent["from_view"] += t4 - t3
            turns += 1
            move = rng.choice(legal)
            deal.play_legal(move.move, move.kind)
    return {k: v / turns * 1e6 for k, v in spent.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}" if seconds < 0.001 else f"{seconds * 1000:.2f}"


# ------------------------------------------------------------- main


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals and repetitions")
    parser.add_argument("--runs", type=int, default=None, help="runs per measurement")
    args = parser.parse_args(argv)
    runs = args.runs or 3
    deals = 100 if args.quick else 500
    reps = 3 if args.quick else 7
    n_positions = 60 if args.quick else 200

    print(f"Machine: {machine()}\n")
    print(
        f"### Random full deals per second ({deals} deals a run, {runs} runs: median "
        "(best), invariants checked)\n"
    )
    print("| players | path | cold caches, CPU | cold, wall | warm caches, CPU | warm, wall |")
    print("|---:|---|---:|---:|---:|---:|")
    for players in (2, 4, 6):
        for through_deal in (False, True):
            cold = [
                deals_per_second(players, deals, seed, True, through_deal) for seed in range(runs)
            ]
            warm = [
                deals_per_second(players, deals, 100 + seed, False, through_deal)
                for seed in range(runs)
            ]
            cells = []
            for results in (cold, warm):
                for column in (0, 1):
                    rates = [r[column] for r in results]
                    cells.append(f"{statistics.median(rates):.0f} ({max(rates):.0f})")
            path = "Deal" if through_deal else "playout"
            print(f"| {players} | {path} | " + " | ".join(cells) + " |")

    print("\n### Legal-move query (`legal_moves()` on a fresh Deal), CPU ms\n")
    print("| position | moves | cold median | cold max | warm median | warm max |")
    print("|---|---:|---:|---:|---:|---:|")
    positions = typical_positions(n_positions, seed=7)
    cold_all: list[float] = []
    warm_all: list[float] = []
    for pos in positions:
        cold_all += query_times(pos, 1, cold=True)
        warm_all += query_times(pos, 1, cold=False)
    moves = statistics.median(len(rebuild(p).legal_moves()) for p in positions)
    print(
        f"| typical: {len(positions)} random mid-deal 4-player positions | {moves:g} (median) "
        f"| {ms(statistics.median(cold_all))} | {ms(max(cold_all))} "
        f"| {ms(statistics.median(warm_all))} | {ms(max(warm_all))} |"
    )
    for name, pos in adversarial_positions():
        cold_t = query_times(pos, reps, cold=True)
        warm_t = query_times(pos, reps, cold=False)
        n = len(rebuild(pos).legal_moves())
        print(
            f"| {name} ({reps} reps) | {n} | {ms(statistics.median(cold_t))} "
            f"| {ms(max(cold_t))} | {ms(statistics.median(warm_t))} | {ms(max(warm_t))} |"
        )

    print("\n### Seat queries at every turn of random 4-player deals, CPU µs per turn\n")
    print("| query | median of runs (best) |")
    print("|---|---:|")
    runs_q = [seat_query_times(deals // 10, 300 + seed) for seed in range(runs)]
    for key, name in (
        ("information_set", "`Deal.information_set(seat)`"),
        ("legal", "`Deal.legal()` (LegalMove values)"),
        ("from_view", "`InformationSet.from_view(view)` (the view dict path)"),
    ):
        values = [r[key] for r in runs_q]
        print(f"| {name} | {statistics.median(values):.1f} ({min(values):.1f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
