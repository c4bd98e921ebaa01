"""``run_to_end`` (app/core/blocking.py): a coroutine run to its end from blocking
code, in this thread when no loop runs here, in a thread of its own when one does.

Each case runs in a fresh thread of its own: a test worker's thread may run a loop
already (Playwright's, after browser tests), which is what the helper is for."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from typing import TypeVar

from app.core.blocking import run_to_end

T = TypeVar("T")


def in_a_fresh_thread(case: Callable[[], T]) -> T:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(case).result()


async def where() -> int:
    await asyncio.sleep(0)
    return threading.get_ident()


def test_without_a_running_loop_it_runs_here() -> None:
    def case() -> tuple[int, int]:
        return threading.get_ident(), run_to_end(where())

    mine, theirs = in_a_fresh_thread(case)
    assert theirs == mine


def test_inside_a_running_loop_it_runs_in_a_thread_of_its_own() -> None:
    async def caller() -> tuple[int, int]:
        return threading.get_ident(), run_to_end(where())

    mine, theirs = in_a_fresh_thread(lambda: asyncio.run(caller()))
    assert theirs != mine


def test_its_exception_reaches_the_caller() -> None:
    async def fails() -> None:
        raise LookupError("no such table")

    async def caller() -> str:
        try:
            run_to_end(fails())
        except LookupError as exc:
            return str(exc)
        return "nothing raised"

    assert in_a_fresh_thread(lambda: asyncio.run(caller())) == "no such table"
