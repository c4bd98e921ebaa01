"""Background work (the coach's analyses) steps aside while a live strong move is in
flight, in its own worker process, and a dead worker does not break the pool."""

from __future__ import annotations

import asyncio
import os

from app.rooms.background import BackgroundPool, pause_for_live_moves
from app.rooms.botrunner import BotRunner
from tests.conftest import run_async


def step_after_live_moves(value: int) -> int:
    """A step of background work: it waits for the live moves, then answers."""
    pause_for_live_moves()
    return value


def die() -> None:
    os._exit(1)


def test_background_work_waits_while_a_live_move_is_in_flight() -> None:
    async def check() -> None:
        bots = BotRunner(budget=0.1, workers=1)
        pool = BackgroundPool(bots)
        try:
            assert await pool.run(step_after_live_moves, 1) == 1  # started, nothing live
            assert pool.pauses == 0
            bots.on_live(1)  # as BotRunner does when a strong move is asked for
            assert pool.paused
            job = asyncio.ensure_future(pool.run(step_after_live_moves, 2))
            while pool.pauses == 0:  # the worker reached its step and stepped aside
                await asyncio.sleep(0.01)
            assert not job.done()
            bots.on_live(0)  # the move was answered
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
