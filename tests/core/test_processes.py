"""Background work (the coach's analyses) steps aside while a live strong move is in
flight, in its own worker process, and a dead worker does not break the pool."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.processes import WORKER_NICE, BackgroundPool, pause_for_live_moves
from app.rooms.botrunner import BotRunner
from tests.conftest import run_async


def step_after_live_moves(value: int) -> int:
    """A step of background work: it waits for the live moves, then answers."""
    pause_for_live_moves()
    return value


def steps(n: int) -> int:
    """Background work of ``n`` steps, each begun by looking at the live moves."""
    for _ in range(n):
        pause_for_live_moves()
    return n


def steps_until(stop: str) -> int:
    """Background work of steps (a millisecond each) until the file ``stop`` exists;
    returns how many it took."""
    n = 0
    while not os.path.exists(stop):
        pause_for_live_moves()
        n += 1
        time.sleep(0.001)  # a step's work
    return n


def die() -> None:
    os._exit(1)


def reporter(bots: BotRunner) -> Callable[[int], None]:
    """The bots' ``on_live``, as the pool set it (BotRunner calls it with the number of
    live strong moves in flight)."""
    assert bots.on_live is not None
    return bots.on_live


def test_background_work_waits_while_a_live_move_is_in_flight() -> None:
    async def check() -> None:
        bots = BotRunner(budget=0.1, workers=1)
        pool = BackgroundPool(bots)
        live = reporter(bots)
        try:
            assert await pool.run(step_after_live_moves, 1) == 1  # started, nothing live
            assert pool.pauses == 0
            live(1)  # as BotRunner does when a strong move is asked for
            assert pool.paused
            job = asyncio.ensure_future(pool.run(step_after_live_moves, 2))
            while pool.pauses == 0:  # the worker reached its step and stepped aside
                await asyncio.sleep(0.01)
            assert not job.done()
            live(0)  # the move was answered
            assert await job == 2
            assert pool.pauses == 1 and not pool.paused
        finally:
            pool.close()

    run_async(check())


def test_the_bots_tell_the_pool_of_their_moves_in_flight() -> None:
    bots = BotRunner(budget=0.1, workers=1)
    pool = BackgroundPool(bots)
    assert bots.on_live == pool.live_moves
    bots.stats.in_flight = 2
    bots._live_changed()
    assert pool.paused
    bots.stats.in_flight = 0
    bots._live_changed()
    assert not pool.paused


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes")
@pytest.mark.parametrize("priority", ["idle", "low"])
def test_the_background_workers_run_at_the_priority_asked_for(priority: str) -> None:
    """``idle``: the idle class, CPU time nothing else wants; ``low``: the normal class
    (a share of a CPU that is always busy) at WORKER_NICE below the server.  The worker
    is asked its pid alone (a builtin: nothing to import at idle priority on a busy
    machine) and looked at from here."""

    async def check() -> tuple[int, int]:
        pool = BackgroundPool(BotRunner(budget=0.1, workers=1), priority=priority)
        try:
            pid = await pool.run(os.getpid)  # runs after the worker's initializer
            return os.sched_getscheduler(pid), os.getpriority(os.PRIO_PROCESS, pid)
        finally:
            pool.close()

    policy, nice = run_async(check())
    server_nice = os.getpriority(os.PRIO_PROCESS, 0)
    if priority == "idle":
        assert policy == os.SCHED_IDLE
    else:
        assert (policy, nice) == (os.SCHED_OTHER, min(19, server_nice + WORKER_NICE))


def test_an_unknown_priority_is_refused() -> None:
    with pytest.raises(ValueError, match="priority"):
        BackgroundPool(BotRunner(budget=0.1, workers=1), priority="realtime")


def test_a_dead_worker_is_replaced() -> None:
    async def check() -> None:
        pool = BackgroundPool(BotRunner(budget=0.1, workers=1))
        try:
            try:
                await pool.run(die)
            except Exception as exc:  # noqa: BLE001 - the pool's own error type
                assert type(exc).__name__ == "BrokenProcessPool"
            else:
                raise AssertionError("a dead worker must fail its work")
            assert await pool.run(step_after_live_moves, 3) == 3
        finally:
            pool.close()

    run_async(check())


def test_each_live_period_overlaps_at_most_one_step(tmp_path: Path) -> None:
    """Live moves come and go while work of many steps runs.  In each live period the
    work, once it has found the flag set (the step under way when the move was asked
    for), begins no step until the period ends, however long it lasts: so a step
    finds the flag set at most once per period, and every step is counted."""

    async def check() -> None:
        bots = BotRunner(budget=0.1, workers=1)
        pool = BackgroundPool(bots)
        live = reporter(bots)
        try:
            assert await pool.run(steps, 1) == 1  # the worker started
            stop = tmp_path / "stop"
            job = asyncio.ensure_future(pool.run(steps_until, str(stop)))
            await until(lambda: pool.steps > 1)  # the work is under way
            for period in range(1, 6):
                live(1)  # a live move asked for (BotRunner does this)
                await until(lambda p=period: pool.pauses >= p)  # it reached a step's end
                assert pool.pauses == period, "it stepped aside once, and waited"
                begun = pool.steps
                live(2)  # a second move while the first thinks: the same period
                await asyncio.sleep(0.05)
                assert pool.steps == begun, "no step begins while a live move is in flight"
                live(0)
                await until(lambda b=begun: pool.steps > b)  # it goes on once they are answered
            stop.touch()
            taken = await job
            assert pool.live_periods == 5 and pool.pauses == 5
            assert pool.steps == 1 + taken
        finally:
            pool.close()

    run_async(check())


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (the worker is scheduled whenever the machine lets it)."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the background worker never got there")
