"""The background sweeper behind RETENTION_DAYS and WAITING_ROOM_HOURS (app/core/loops.py):
rounds go on after one fails, the failure is logged (with its traceback unless it is
one of the expected, quiet ones), starting twice runs one task, and stopping cancels
a round in progress."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.core.loops import Doorbell, Sweeper
from tests.conftest import run_async
from tests.waiting import wait_until_async

log = logging.getLogger("tests.sweeper")


class Away(Exception):
    """Stands for the database being away: an expected failure."""


async def rounds_go_on_after_failures() -> list[str]:
    outcomes = ["ok", "boom", "away", "ok", "ok"]
    seen: list[str] = []

    async def sweep() -> None:
        outcome = outcomes[len(seen)] if len(seen) < len(outcomes) else "ok"
        seen.append(outcome)
        if outcome == "boom":
            raise RuntimeError("a bug in one round")
        if outcome == "away":
            raise Away("the database is away")

    sweeper = Sweeper("test", sweep, 0.01, log, quiet=(Away,))
    sweeper.start()
    sweeper.start()  # a second start changes nothing
    try:
        await wait_until_async(lambda: len(seen) >= len(outcomes), 10, 0.01, "five rounds")
        assert sweeper.running
    finally:
        await sweeper.stop()
    assert not sweeper.running
    return seen


def test_the_sweeps_go_on_after_a_round_fails_and_log_only_unexpected_failures(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="tests.sweeper"):
        seen = run_async(rounds_go_on_after_failures())
    assert seen[:5] == ["ok", "boom", "away", "ok", "ok"], "every round ran, in order"
    failures = [r for r in caplog.records if r.name == "tests.sweeper"]
    assert [r.getMessage() for r in failures] == ["test sweep failed"], "once: the bug"
    assert failures[0].exc_info is not None and "a bug in one round" in caplog.text
    assert "the database is away" not in caplog.text


async def stop_cancels_a_round() -> tuple[bool, int]:
    started = asyncio.Event()
    cancelled = False
    rounds = 0

    async def slow_sweep() -> None:
        nonlocal cancelled, rounds
        rounds += 1
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled = True
            raise

    sweeper = Sweeper("slow", slow_sweep, 0.01, log)
    sweeper.start()
    await asyncio.wait_for(started.wait(), 10)
    await asyncio.wait_for(sweeper.stop(), 10)  # returns at once, not after the hour
    assert not sweeper.running
    return cancelled, rounds


def test_stopping_cancels_a_round_in_progress_and_ends_the_task() -> None:
    cancelled, rounds = run_async(stop_cancels_a_round())
    assert cancelled and rounds == 1


def test_a_loop_stops_even_when_its_pause_swallowed_the_cancellation() -> None:
    """Python 3.11's wait_for returns normally when the cancellation comes as what it
    waits on finishes; the deadline poller's loop then waited again and the service's
    stop hung.  The loop ends on ``stop`` whatever its pause did with the cancel."""

    async def check() -> None:
        looks: list[int] = []

        async def look() -> None:
            looks.append(1)

        async def swallowing_pause() -> None:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                pass

        sweeper = Sweeper("swallow", look, 1.0, log, jitter=False, pause=swallowing_pause)
        sweeper.start()
        await wait_until_async(lambda: looks, 5, 0.01, "a first look")
        await asyncio.wait_for(sweeper.stop(), 10)
        assert len(looks) == 1

    run_async(check())


def test_a_doorbell_waiter_cancelled_as_it_rings_is_cancelled() -> None:
    async def check() -> None:
        bell = Doorbell()
        waiter = asyncio.create_task(bell.wait(3600))
        await asyncio.sleep(0)
        bell.ring()
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter

    run_async(check())
