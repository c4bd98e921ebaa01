"""``run_to_end`` (app/core/blocking.py): a coroutine run to its end from blocking
code, in this thread when no loop runs here, in a thread of its own when one does."""

from __future__ import annotations

import asyncio
import threading

from app.core.blocking import run_to_end


async def where() -> int:
    await asyncio.sleep(0)
    return threading.get_ident()


def test_without_a_running_loop_it_runs_here() -> None:
    assert run_to_end(where()) == threading.get_ident()


def test_inside_a_running_loop_it_runs_in_a_thread_of_its_own() -> None:
    async def caller() -> tuple[int, int]:
        return threading.get_ident(), run_to_end(where())

    mine, theirs = asyncio.run(caller())
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

    assert asyncio.run(caller()) == "no such table"
