"""The strong bot's pool under load: every move is answered with a legal move, a
busy pool shortens budgets, and past the queue's bound the greedy bot answers at
once instead of making a table wait (real worker processes)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import random
import time
from typing import Any

import pytest

from app.bots import choose
from app.engine.deal import Deal
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove
from app.engine.rules import RuleSet
from app.engine.shuffle import new_seed, shuffled_pack
from app.rooms.botrunner import BotRunner, BotStats, _choose_strong
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


Position = tuple[InformationSet, tuple[LegalMove, ...]]
"""What a bot is given: the information set of the seat to move, and its legal moves."""


def some_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        deal = Deal.from_pack(RuleSet(), 4, rng.randrange(4), shuffled_pack(new_seed(), 2))
        assert deal.to_move is not None
        positions.append((deal.information_set(deal.to_move), deal.legal()))
    return positions


async def saturated() -> None:
    runner = BotRunner(budget=0.2, workers=1, queue=2)
    positions = some_positions(6, 4)
    try:
        await runner(*positions[0], "strong")  # the worker is up (its start may be late)
        runner.stats = BotStats()
        moves = await asyncio.gather(*(runner(*p, "strong") for p in positions))
    finally:
        runner.close()
    assert all(m in legal for m, (_, legal) in zip(moves, positions)), "every move is legal"
    stats = runner.stats
    assert stats.overflow >= 3, "one running and two queued: the other three at once"
    assert stats.shortened + stats.overflow <= 6
    assert stats.latency_count == 6 and stats.in_flight == 0 and runner.queued == 0


def test_a_saturated_pool_answers_every_move_without_stalling() -> None:
    run_async(saturated())


def test_a_worker_given_a_move_already_due_plays_the_greedy_move() -> None:
    info, legal = some_positions(1, 9)[0]
    move, searched = _choose_strong(info, legal, 0.5, time.monotonic() - 0.01, 0.05)
    assert searched == 0.0
    assert move == choose(info, legal, "greedy"), "the greedy bot's move, not a search"


def test_a_worker_thinks_only_for_the_time_left_before_the_move_is_due() -> None:
    info, legal = some_positions(1, 11)[0]
    move, searched = _choose_strong(info, legal, 0.5, time.monotonic() + 0.2, 0.05)
    assert move in legal
    assert 0.05 <= searched <= 0.2, "waiting in the queue was taken from the budget"
    move, searched = _choose_strong(info, legal, 0.1, time.monotonic() + 5.0, 0.05)
    assert searched == 0.1, "with time to spare, the budget the move was given"


async def late_moves() -> None:
    runner = BotRunner(budget=0.01, workers=1, queue=4)
    pool = runner._strong_pool()
    submitted: list[concurrent.futures.Future[Any]] = []
    submit = pool.submit

    def recorded(*args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future = submit(*args, **kwargs)
        submitted.append(future)
        return future

    pool.submit = recorded
    positions = some_positions(3, 2)
    try:
        busy = submit(time.sleep, 1.5)  # the one worker is busy: every move below is late
        moves = await asyncio.gather(*(runner(*p, "strong") for p in positions))
        assert not busy.done()
        assert all(m in legal for m, (_, legal) in zip(moves, positions))
        assert runner.stats.overflow == 3, "each late move was answered by the greedy bot"
        concurrent.futures.wait(submitted, timeout=30)
        assert len(submitted) == 3
        assert not any(f.cancelled() for f in submitted), "late moves are not cancelled"
        assert [f.result()[1] for f in submitted] == [0.0, 0.0, 0.0], (
            "a worker handed a move already due answers at once, without a search"
        )
    finally:
        runner.close()


def test_late_moves_finish_in_the_pool_instead_of_being_cancelled() -> None:
    """A future cancelled while queued in the pool made Python 3.11's pool raise
    InvalidStateError in its management thread when close() stopped the workers."""
    run_async(late_moves())


async def worker_policy() -> int:
    runner = BotRunner(budget=0.05, workers=1, queue=0)
    try:
        await runner(*some_positions(1, 5)[0], "strong")
        pool = runner._strong_pool()
        # A task runs only after its worker's initializer: ask the one worker its pid.
        pid = await asyncio.wrap_future(pool.submit(os.getpid))
        assert list(pool._processes) == [pid]
        return os.sched_getscheduler(pid)
    finally:
        runner.close()


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes")
def test_workers_think_in_the_idle_scheduling_class() -> None:
    assert run_async(worker_policy()) == os.SCHED_IDLE, "the server's loop gets the CPU first"


async def seeded_answers() -> None:
    """A seeded move (a challenge's, issue 32) is a function of the seed and the position:
    the same in every call however busy the pool, and the search is not cut short."""
    runner = BotRunner(budget=0.05, workers=2, queue=0, seeded_worlds=24)
    positions = [p for p in some_positions(12, 7) if len(p[1]) > 2][:4]
    try:
        for level in ("strong", "greedy", "random"):
            for info, legal in positions:
                seeds = [f"seed-{i}" for i in range(6)]
                first = [await runner(info, legal, level, s) for s in seeds]
                # all at once: the queue (0) would send unseeded moves to the greedy bot
                again = await asyncio.gather(*(runner(info, legal, level, s) for s in seeds))
                assert list(again) == first, level
        assert runner.stats.overflow == 0
    finally:
        runner.close()


def test_a_seeded_move_follows_from_the_seed_and_the_position_alone() -> None:
    run_async(seeded_answers())
