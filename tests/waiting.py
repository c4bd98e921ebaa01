"""Waiting in tests: for a condition (sync and async), and for a server to come up.

A test that waits for something polls it against a deadline and, when the deadline
passes, fails with a message that says what it was waiting for.  These are the one
way the tests do that, so that each wait is one line and no test hand-rolls its
own loop (and forgets the deadline, or the message).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx

from tests import fetch

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """A condition a test waited for did not come about in time."""


def _failure(message: str | Callable[[], str], timeout: float) -> WaitTimeout:
    text = message() if callable(message) else message
    return WaitTimeout(f"timed out after {timeout:g} s waiting for {text}")


def wait_until(
    predicate: Callable[[], T],
    timeout: float = 30,
    interval: float = 0.1,
    message: str | Callable[[], str] = "the condition",
) -> T:
    """Call ``predicate`` every ``interval`` seconds until it returns something true,
    and return that; raise WaitTimeout after ``timeout`` seconds.  ``message`` (or
    a function giving it, called only on failure) says what was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _failure(message, timeout)
        time.sleep(interval)


async def wait_until_async(
    predicate: Callable[[], T | Awaitable[T]],
    timeout: float = 30,
    interval: float = 0.1,
    message: str | Callable[[], str] = "the condition",
) -> T:
    """``wait_until`` for a coroutine: the event loop runs between the checks, and
    ``predicate`` may be a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise _failure(message, timeout)
        await asyncio.sleep(interval)


def healthy(url: str) -> bool:
    """Whether the server at ``url`` answers its liveness check right now."""
    try:
        return fetch.get(url + "/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def wait_healthy(url: str, proc: Any, log: Path | None = None, timeout: float = 90) -> None:
    """Wait until the server process ``proc`` answers /healthz at ``url``; raise
    RuntimeError, with the end of its ``log``, if it exits first or is not healthy
    in ``timeout`` seconds (a ceiling: a loaded CI machine can take long).  The
    process is left running either way: stopping it is the caller's."""

    def tail() -> str:
        if log is None or not log.exists():
            return ""
        return ": " + log.read_text(errors="replace")[-2000:]

    def up() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}{tail()}")
        return healthy(url)

    try:
        wait_until(up, timeout, 0.02, f"the server at {url} to answer /healthz")
    except WaitTimeout:
        raise RuntimeError(f"server did not become healthy in {timeout:g} s{tail()}") from None
