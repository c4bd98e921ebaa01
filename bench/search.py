"""Search variants of the strong bot compared at equal thinking time (not a test).

Each run is a duplicate tournament (app/bots/tournament.py): one bot of the
variant against greedy bots, every pack played once per seating.  The
budget is measured in CPU time of the searching thread (``time.thread_time``),
so that variants run side by side on a loaded machine think equally long.

    .venv/bin/python bench/search.py run --variant pimc --players 4 --deals 100 \\
        --seed 1 --budget 0.25 --out /tmp/pimc-4-1.json
    .venv/bin/python bench/search.py pool /tmp/pimc-4-*.json [--against /tmp/ismcts-4-*.json]
    .venv/bin/python bench/search.py run --variant coach --others strong --players 4 \\
        --deals 100 --seed 1 --budget 0.5 --out /tmp/coach-4-1.json

``--others strong`` seats the strong bot (its budget in CPU time too) instead of
greedy in the other seats; the ``coach`` variant plays the coach's best move
(app/coach/player.py, the analysis's search; it ignores the budget).  Against the
strong bot, ``pimc-x4`` is the strong bot thinking four times the budget, and
``pimc-odds`` / ``pimc-all-odds`` the strong bot whose playouts judge traps by the
odds for the other seats / for every seat, its own later plays included (set for
that player's searches only).  ``coach-192-infer`` is the coach's best move at 192
worlds, and ``pimc-infer`` the strong bot, with worlds kept by how well they explain
the others' latest plays (app/bots/belief.py: temperature 0.5, the fit to strong
bots' plays in docs/bots.md).  ``pimc-seeing`` is the strong bot shown the other
hands (not the stock): a bound on what inference could give the search.

``pool`` pools the blocks (packs) of several runs of one variant (different
seeds: independent packs) into one mean and 95% interval per level;
``--against`` adds, for the packs both sets played, the paired difference of
the searching bots' block means (the same packs, so much of the luck cancels);
``pool`` also prints the variant's block means minus the other seats' on the
same packs (the same deals, paired).
Results: docs/bots.md, "Strength".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bots import strong  # noqa: E402
from app.bots.tournament import Chooser, run_tournament, t95  # noqa: E402
from app.engine.infoset import InformationSet  # noqa: E402
from app.engine.moves import LegalMove  # noqa: E402

CPU: Callable[[], float] = time.thread_time


def _pimc(**options: object) -> Chooser:
    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        return strong.choose(info, legal, rng, budget_s=budget, clock=CPU, **options)  # type: ignore[arg-type]

    return chooser


def _pimc_scaled(factor: float, **options: object) -> Chooser:
    """The strong bot thinking ``factor`` times the run's budget (what more time buys)."""

    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        return strong.choose(info, legal, rng, budget_s=budget * factor, clock=CPU, **options)  # type: ignore[arg-type]

    return chooser


def _pimc_odds(self_too: bool = False) -> Chooser:
    """The playouts' other seats (with ``self_too`` the searching seat's own later plays
    as well) judge traps by the odds over the cards they cannot see, as the greedy bot
    does, instead of knowing the next hand of the world.  The models are set for this
    player's searches only (the other seats of a run may be strong bots in the same
    process)."""
    inner = _pimc()

    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        saved = strong.OPPONENT_MODEL, strong.SELF_MODEL
        strong.OPPONENT_MODEL = "odds"
        if self_too:
            strong.SELF_MODEL = "odds"
        try:
            return inner(info, legal, rng, budget)
        finally:
            strong.OPPONENT_MODEL, strong.SELF_MODEL = saved

    return chooser


def _pimc_infer(temperature: float = 0.5, tries: int = 4) -> Chooser:
    """The strong bot whose worlds are kept in proportion to how well they explain the
    others' latest plays (``app.bots.belief``), for this player's searches only."""
    from app.bots.belief import belief_of, believed_world
    from app.bots.knowledge import knowledge_of

    inner = _pimc()

    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        belief = belief_of(knowledge_of(info))
        saved = strong.sample_world
        strong.sample_world = lambda k, r: believed_world(k, belief, r, temperature, tries)
        try:
            return inner(info, legal, rng, budget)
        finally:
            strong.sample_world = saved

    return chooser


def _pimc_seeing() -> Chooser:
    """The strong bot shown the other hands (the stock's order stays unknown, shuffled
    anew in every world): what perfect inference about the hands could be worth at most
    to this search.  Not a player anyone may meet: a bound for issue 31's target.

    The tournament asks the real deal for each seat's information set just before
    the seat chooses; ``Deal.information_set`` is wrapped to remember that deal."""
    from app.engine.deal import Deal

    last: list[Deal] = []
    original = Deal.information_set

    def remembering(self: Deal, seat: int) -> InformationSet:
        last[:] = [self]
        return original(self, seat)

    Deal.information_set = remembering  # type: ignore[method-assign]
    inner = _pimc()

    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        deal = last[0]
        assert sorted(deal.hands[info.seat]) == sorted(info.hand), "not the deal asked"

        def seeing(k: object, r: random.Random) -> tuple[list[list[str]], list[str]]:
            stock = list(deal.stock)
            r.shuffle(stock)
            return [list(h) for h in deal.hands], stock

        saved = strong.sample_world
        strong.sample_world = seeing  # type: ignore[assignment]
        try:
            return inner(info, legal, rng, budget)
        finally:
            strong.sample_world = saved

    return chooser


def _ismcts(**options: object) -> Chooser:
    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        from app.bots import ismcts  # the variant under test, imported when asked for

        return ismcts.choose(info, legal, rng, budget_s=budget, clock=CPU, **options)  # type: ignore[arg-type]

    return chooser


def _coach(
    samples: int | None = None,
    belief: float | None = None,
    tries: int = 4,
    weighting: float | None = None,
) -> Chooser:
    """The coach's best move; ``samples``: worlds per move instead of the analysis's
    first round (48); ``belief``: the temperature of the worlds' weighing by the others'
    plays (``app.bots.belief``)."""

    def chooser(
        info: InformationSet, legal: Sequence[LegalMove], rng: random.Random, budget: float
    ) -> LegalMove:
        from app.coach.player import coach_move  # the variant under test
        from app.coach.rating import DEFAULT

        if samples is None:
            return coach_move(info, legal, rng)
        settings = dataclasses.replace(
            DEFAULT,
            samples=samples,
            max_samples=samples,
            belief_temperature=belief,
            belief_tries=tries,
            belief_weighting=weighting,
        )
        return coach_move(info, legal, rng, settings)

    return chooser


VARIANTS: dict[str, Callable[[], Chooser]] = {
    "pimc": lambda: _pimc(),
    "pimc-full": lambda: _pimc(horizon=10_000),
    "pimc-odds": _pimc_odds,
    "pimc-all-odds": lambda: _pimc_odds(self_too=True),
    "pimc-x4": lambda: _pimc_scaled(4.0),
    "pimc-h5": lambda: _pimc(horizon=5),
    "ismcts": lambda: _ismcts(),
    "coach": _coach,
    "coach-192": lambda: _coach(192),
    "coach-192-infer": lambda: _coach(192, belief=0.5, tries=8),
    "coach-192-weighted": lambda: _coach(192, weighting=0.5),
    "pimc-infer": _pimc_infer,
    "pimc-seeing": _pimc_seeing,
}


def run(args: argparse.Namespace) -> None:
    """One run; with ``--out`` the file is rewritten after every whole block (pack), so a
    run stopped early still leaves every finished pack (the deals count says how many)."""
    if args.variant == args.others:
        raise SystemExit("the variant and the other seats need different names")
    bots = [args.variant] + [args.others] * (args.players - 1)
    chooser = VARIANTS[args.variant]()
    by_name = {args.variant: chooser}
    if args.others == "strong":  # the live level, its budget in CPU time as the variant's
        by_name["strong"] = _pimc()
    scores: dict[str, dict[int, list[int]]] = {args.variant: {}, args.others: {}}
    started = time.perf_counter()

    def progress(d: int, totals: list[int]) -> None:
        block = d // args.players
        for i, name in enumerate(bots):
            scores[name].setdefault(block, []).append(totals[i])
        if (d + 1) % args.players == 0:
            _write(args, scores, d + 1, time.perf_counter() - started)

    run_tournament(
        args.players,
        bots,
        args.deals,
        args.seed,
        budget_s=args.budget,
        progress=progress,
        players_by_name=by_name,
    )


def _write(
    args: argparse.Namespace, scores: dict[str, dict[int, list[int]]], deals: int, seconds: float
) -> None:
    out = {
        "variant": args.variant,
        "others": args.others,
        "players": args.players,
        "deals": deals,
        "seed": args.seed,
        "budget_cpu_s": args.budget,
        "seconds": round(seconds, 1),
        "levels": {
            name: {"blocks": {str(b): statistics.fmean(v) for b, v in blocks.items()}}
            for name, blocks in scores.items()
        },
    }
    text = json.dumps(out)
    if args.out:
        tmp = Path(args.out + ".tmp")
        tmp.write_text(text + "\n")
        tmp.replace(args.out)
    else:
        print(text)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% Student t interval of independent block means."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def _blocks(paths: Sequence[str]) -> tuple[dict[str, dict[tuple[int, str], float]], dict[str, Any]]:
    """Per level, block means keyed by (seed, block); and the first run's header."""
    by_level: dict[str, dict[tuple[int, str], float]] = {}
    head: dict[str, Any] = {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        head = head or data
        for name, level in data["levels"].items():
            key = "search" if name == data["variant"] else name
            for b, v in level["blocks"].items():
                by_level.setdefault(key, {})[(data["seed"], b)] = v
    return by_level, head


def pool(args: argparse.Namespace) -> None:
    mine, head = _blocks(args.files)
    seeds = sorted({s for s, _ in mine["search"]})
    deals = len(mine["search"]) * head["players"]
    print(f"{head['variant']}: {head['players']} players, seeds {seeds}, {deals} deals")
    for name, blocks in mine.items():
        m, lo, hi = interval(list(blocks.values()))
        print(f"  {name:<7} {m:6.2f} [{lo:6.2f}, {hi:6.2f}]  ({len(blocks)} packs)")
    others = head.get("others", "greedy")
    if others in mine:
        same = sorted(set(mine["search"]) & set(mine[others]))
        m, lo, hi = interval([mine["search"][k] - mine[others][k] for k in same])
        print(f"  search minus {others}, same packs: {m:+6.2f} [{lo:+6.2f}, {hi:+6.2f}]")
    if args.against:
        other, ohead = _blocks(args.against)
        common = sorted(set(mine["search"]) & set(other["search"]))
        diffs = [mine["search"][k] - other["search"][k] for k in common]
        m, lo, hi = interval(diffs)
        print(
            f"  minus {ohead['variant']} on the same {len(common)} packs: "
            f"{m:+6.2f} [{lo:+6.2f}, {hi:+6.2f}]"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(required=True)
    r = sub.add_parser("run")
    r.add_argument("--variant", choices=sorted(VARIANTS), default="pimc")
    r.add_argument("--others", choices=("greedy", "strong"), default="greedy")
    r.add_argument("--players", type=int, default=4)
    r.add_argument("--deals", type=int, default=100)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--budget", type=float, default=0.25, help="CPU seconds per move")
    r.add_argument("--out")
    r.set_defaults(func=run)
    p = sub.add_parser("pool")
    p.add_argument("files", nargs="+")
    p.add_argument("--against", nargs="*")
    p.set_defaults(func=pool)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
