"""The strong bot's pool under load: every move is answered with a legal move, a
busy pool shortens budgets, and past the queue's bound the greedy bot answers at
once instead of making a table wait (real worker processes)."""

from __future__ import annotations

import asyncio
import random

from app.engine.deal import Deal
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed, shuffled_pack
from app.rooms.botrunner import BotRunner
from tests.bots.helpers import in_legal, view_for
from tests.conftest import run_async


def test_the_budget_shrinks_as_moves_pile_up() -> None:
    runner = BotRunner(budget=0.6, workers=2, queue=8, min_budget=0.05)
    budgets = []
    for in_flight in range(0, 12):
        runner.stats.in_flight = in_flight
        budgets.append(runner.budget_now())
    assert budgets[:2] == [0.6, 0.6], "full budget while a worker is free"
    assert round(budgets[2], 6) == 0.4 and round(budgets[3], 6) == 0.3, (
        "two workers busy and one or two waiting: 2/3 and 1/2 of the budget"
    )
    assert budgets == sorted(budgets, reverse=True)
    assert min(budgets) >= 0.05


async def saturated() -> None:
    runner = BotRunner(budget=0.2, workers=1, queue=2)
    rng = random.Random(4)
    views = []
    for _ in range(6):
        deal = Deal.from_pack(RuleSet(), 4, rng.randrange(4), shuffled_pack(new_seed(), 2))
        views.append(view_for(deal))
    try:
        moves = await asyncio.gather(*(runner(v, "strong") for v in views))
    finally:
        runner.close()
    assert all(in_legal(m, v) for m, v in zip(moves, views)), "every answer is a legal move"
    stats = runner.stats
    assert stats.overflow == 3, "one running and two queued: the other three at once"
    assert stats.shortened == 2, "the queued moves got shorter budgets"
    assert stats.latency_count == 6 and stats.in_flight == 0 and runner.queued == 0


def test_a_saturated_pool_answers_every_move_without_stalling() -> None:
    run_async(saturated())
