"""Running a coroutine to its end from plain, blocking code (the operator's commands:
migrate, backup, restore), whether or not the calling thread already runs an event
loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_to_end(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)``, in a thread of its own when this thread already runs a
    loop: asyncio.run refuses to start inside one, and callers do run inside one (an
    application that migrates from async code, a notebook, a test worker whose browser
    tests keep Playwright's loop running: a PostgreSQL migration called there failed
    with "asyncio.run() cannot be called from a running event loop")."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
