"""Background work beside the bots (the coach's analyses): lower priority than any
live bot move, never in its way.

The work runs in its own worker processes, started as the strong bot's are
(``botrunner._init_worker``: the idle CPU scheduling class, ending with the
server), so a live move never queues behind it for a worker.  And it yields the
CPU: while any strong move is in flight (``BotRunner.on_live``) a shared
``live`` flag is set, and the work, which calls ``pause_for_live_moves``
between small steps (a sampled world: milliseconds), waits until it is clear.
A live move therefore thinks on a machine the analyses have stepped aside on,
and keeps its deadline (tests/rooms/test_background.py measures it by the
moves' deadlines).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from .botrunner import BotRunner, _init_worker

T = TypeVar("T")

PAUSE_POLL = 0.25
"""Seconds a paused worker waits on the flag before looking again (it is woken at
once when the flag clears; this only bounds a missed wake-up)."""

_live: Any = None
"""In a worker: the flag set while live moves are in flight (given at its start)."""
paused_waits = 0
"""In a worker: how many times it stepped aside (tests read it through ``pauses``)."""


def _init_background(parent: int, live: Any, clear: Any) -> None:
    global _live, _clear
    _init_worker(parent)
    _live = live
    _clear = clear


_clear: Any = None


def pause_for_live_moves() -> None:
    """Called by background work between steps: return once no live move is in flight."""
    global paused_waits
    if _live is None or not _live.is_set():
        return
    paused_waits += 1
    while _live.is_set():
        _clear.wait(PAUSE_POLL)


def pauses() -> int:
    """How many times this worker stepped aside for live moves."""
    return paused_waits


class BackgroundPool:
    """Worker processes for work that must never delay a live bot move."""

    def __init__(self, bots: BotRunner, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._ctx = multiprocessing.get_context("spawn")
        self._live = self._ctx.Event()
        """Set while live strong moves are in flight."""
        self._clear = self._ctx.Event()
        """Its opposite, for the workers to wait on."""
        self._clear.set()
        self._pool: ProcessPoolExecutor | None = None
        bots.on_live = self.live_moves

    def live_moves(self, in_flight: int) -> None:
        """The number of live strong moves in flight changed (``BotRunner.on_live``)."""
        if in_flight > 0:
            self._clear.clear()
            self._live.set()
        else:
            self._live.clear()
            self._clear.set()

    @property
    def paused(self) -> bool:
        return self._live.is_set()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a background worker (both pickled across)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=self._ctx,
                initializer=_init_background,
                initargs=(os.getpid(), self._live, self._clear),
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        """Stop the workers (work in progress is abandoned; its caller stored its steps)."""
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                proc.terminate()
            self._pool = None
