"""``krypkasino tournament``: bots against bots, with confidence intervals.

Plays D deals with the engine.  Deals come in blocks of one shuffled pack
each (``app.engine.shuffle``): the pack is played once per seating, the bots
rotating one seat to the left every deal, so within a block every bot plays
every hand of that pack ("duplicate" play: the luck of the cards cancels).
Each bot chooses from its own seat's knowledge only, through the typed entry
point the server uses (``levels.choose`` with ``Deal.information_set`` and
``Deal.legal``: the same information the seat's view carries).

Reported per bot level: the mean deal score (R6.2; under V1 the team's deal
score), a 95% confidence interval from the spread of the per-block means
(Student t; blocks are independent, deals within a block are not), and the
mean thinking time per move.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from app.engine.deal import Deal
from app.engine.errors import EngineError
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet, RuleValues, rules_from_text
from app.engine.shuffle import shuffled_pack

from .duplicate import half_width, seat_of, side_totals, t95
from .levels import LEVELS, choose

__all__ = ["Chooser", "TournamentResult", "format_table", "run_tournament", "t95"]


Chooser = Callable[[InformationSet, Sequence[LegalMove], random.Random, float], LegalMove]
"""(information set, legal moves, rng, budget in seconds) -> one of the legal moves: a
player the benchmarks bring (bench/search.py compares search variants this way)."""


class LevelSummary(TypedDict):
    """A level's figures in a tournament's JSON (``LevelStats.summary``)."""

    level: str
    seats: int
    deal_scores: int
    mean: float
    ci95: list[float] | None
    half_width: float | None
    moves: int
    ms_per_move: float
    max_ms_per_move: float


class TournamentJson(TypedDict):
    """What ``krypkasino-tournament`` prints (``TournamentResult.to_dict``)."""

    players: int
    bots: list[str]
    deals: int
    blocks: int
    seed: int
    rules: RuleValues
    budget_s: float
    seconds: float
    levels: list[LevelSummary]


@dataclass(slots=True)
class LevelStats:
    level: str
    seats: int
    scores: list[int] = field(default_factory=list)
    """Every deal score of a bot of this level (one per bot and deal)."""
    block_scores: dict[int, list[int]] = field(default_factory=dict)
    moves: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0

    def summary(self) -> LevelSummary:
        means = [statistics.fmean(v) for _, v in sorted(self.block_scores.items())]
        mean = statistics.fmean(means) if means else math.nan
        half = half_width(means)
        return {
            "level": self.level,
            "seats": self.seats,
            "deal_scores": len(self.scores),
            "mean": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)] if math.isfinite(half) else None,
            "half_width": round(half, 3) if math.isfinite(half) else None,
            "moves": self.moves,
            "ms_per_move": round(1000 * self.seconds / self.moves, 3) if self.moves else 0.0,
            "max_ms_per_move": round(1000 * self.max_seconds, 3),
        }


@dataclass(slots=True)
class TournamentResult:
    players: int
    bots: list[str]
    deals: int
    seed: int
    rules: RuleSet
    budget_s: float
    levels: dict[str, LevelStats]
    seconds: float

    def to_dict(self) -> TournamentJson:
        return {
            "players": self.players,
            "bots": self.bots,
            "deals": self.deals,
            "blocks": math.ceil(self.deals / self.players),
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "budget_s": self.budget_s,
            "seconds": round(self.seconds, 3),
            "levels": [s.summary() for s in self.levels.values()],
        }


def run_tournament(
    players: int,
    bots: Sequence[str],
    deals: int,
    seed: int,
    rules: RuleSet | None = None,
    budget_s: float = 0.5,
    progress: Callable[[int, list[int]], None] | None = None,
    players_by_name: Mapping[str, Chooser] | None = None,
) -> TournamentResult:
    """Play ``deals`` deals; bot i sits at seat (i + deal) mod players.

    ``players_by_name`` adds players besides the levels: a name in ``bots``
    found there plays through its chooser instead of ``levels.choose``.
    """
    rules = rules or RuleSet()
    rules.validate_for(players)
    extra = dict(players_by_name or {})
    if len(bots) != players:
        raise ValueError(f"name one bot level per seat: {players} needed, {len(bots)} given")
    for level in bots:
        if level not in LEVELS and level not in extra:
            raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    levels: dict[str, LevelStats] = {}
    for level in bots:
        if level not in levels:
            levels[level] = LevelStats(level, bots.count(level))
    started = time.perf_counter()
    for d in range(deals):
        block, rotation = divmod(d, players)
        dealer = block % players
        pack = shuffled_pack(f"tournament:{seed}:{block}", rules.copies)
        deal = Deal.from_pack(rules, players, dealer, pack)
        bot_at = {seat_of(i, rotation, players): i for i in range(players)}
        rngs = [random.Random(f"{seed}:{d}:{i}") for i in range(players)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            i = bot_at[seat]
            info, legal = deal.information_set(seat), deal.legal()
            t0 = time.perf_counter()
            chooser = extra.get(bots[i])
            if chooser is not None:
                move = chooser(info, legal, rngs[i], budget_s)
            else:
                move = choose(info, legal, bots[i], rng=rngs[i], budget_s=budget_s)
            spent = time.perf_counter() - t0
            stats = levels[bots[i]]
            stats.moves += 1
            stats.seconds += spent
            stats.max_seconds = max(stats.max_seconds, spent)
            deal.apply(move.card, move.take)
        totals = side_totals(rules, deal.totals())
        for seat, i in bot_at.items():
            stats = levels[bots[i]]
            stats.scores.append(totals[seat])
            stats.block_scores.setdefault(block, []).append(totals[seat])
        if progress is not None:
            progress(d, [totals[seat_of(i, rotation, players)] for i in range(players)])
    return TournamentResult(
        players, list(bots), deals, seed, rules, budget_s, levels, time.perf_counter() - started
    )


def format_table(result: TournamentResult) -> str:
    options = [k for k, v in result.rules.to_dict().items() if v not in (False, None)]
    lines = [
        f"tournament: {result.players} players, {result.deals} deals "
        f"({math.ceil(result.deals / result.players)} packs, seats rotating every deal), "
        f"seed {result.seed}, rules {', '.join(options) or 'standard'}, "
        f"strong budget {result.budget_s:g} s",
        f"{'level':<8} {'seats':>5} {'scores':>6} {'mean':>7}  {'95% CI':<17} "
        f"{'ms/move':>8} {'max ms':>8} {'moves':>6}",
    ]
    for s in (st.summary() for st in result.levels.values()):
        ci = f"[{s['ci95'][0]:6.2f}, {s['ci95'][1]:6.2f}]" if s["ci95"] else "[   n/a,    n/a]"
        lines.append(
            f"{s['level']:<8} {s['seats']:>5} {s['deal_scores']:>6} {s['mean']:>7.2f}  "
            f"{ci:<17} {s['ms_per_move']:>8.1f} {s['max_ms_per_move']:>8.1f} "
            f"{s['moves']:>6}"
        )
    lines.append(f"lower is better; {result.seconds:.1f} s in all")
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_text(args.rules, args.players)
    except EngineError as exc:
        print(f"krypkasino: bad --rules: {exc}", file=sys.stderr)
        return 2
    bots = (
        [b.strip() for b in args.bots.split(",")]
        if args.bots
        else (["strong"] + ["greedy"] * (args.players - 1))
    )
    if args.deals < 1:
        print("krypkasino: --deals must be at least 1", file=sys.stderr)
        return 2
    if args.budget <= 0:
        print("krypkasino: --budget must be positive", file=sys.stderr)
        return 2
    try:
        result = run_tournament(args.players, bots, args.deals, args.seed, rules, args.budget)
    except ValueError as exc:
        print(f"krypkasino: {exc}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(result.to_dict(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(format_table(result))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tournament", help="let bots play each other and compare their scores")
    p.add_argument("--players", type=int, default=4)
    p.add_argument(
        "--bots",
        help="one level per seat, comma-separated, e.g. "
        "strong,greedy,greedy,greedy (default: strong + greedy)",
    )
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget", type=float, default=0.5, help="strong bot seconds per move")
    p.add_argument("--rules", help="rule options as JSON, e.g. '{\"nordic\": true}'")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run)
