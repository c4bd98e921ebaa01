"""The suite's ``run_async`` (tests/conftest.py) ends what a test left running.

A library coroutine may catch a cancellation and wait again in its ``finally``
(aiosqlite's ``close`` waits for its worker thread's stop there): cancelled once, as
``asyncio.run`` does, such a task waits on; a fresh CI run failed so, on a connection
SQLAlchemy had terminated. ``run_async`` cancels again until it ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from tests.conftest import run_async


async def _waits_again_when_cancelled(ended: list[str]) -> None:
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    try:
        await asyncio.sleep(3600)
    finally:
        try:
            await never  # as aiosqlite awaits a stopped thread's answer
        finally:
            ended.append("ended")


async def _leaves(
    ended: list[str], coro_factory: Callable[[list[str]], Coroutine[Any, Any, None]]
) -> str:
    asyncio.get_running_loop().create_task(coro_factory(ended))
    await asyncio.sleep(0)  # the task starts and waits
    return "done"


def test_a_task_that_waits_again_in_its_finally_is_ended() -> None:
    ended: list[str] = []
    assert run_async(_leaves(ended, _waits_again_when_cancelled)) == "done"
    assert ended == ["ended"]


async def _ignores_every_cancellation(ended: list[str]) -> None:
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            ended.append("cancelled")


def test_a_task_that_ignores_every_cancellation_fails_the_test_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tests.conftest.LEFT_TASKS_WAIT", 1.0)
    ended: list[str] = []
    with pytest.raises(AssertionError, match="_ignores_every_cancellation"):
        run_async(_leaves(ended, _ignores_every_cancellation))
    assert len(ended) >= 2, "cancelled again and again"
