"""Background work beside the bots (the coach's analyses): lower priority than any
live bot move, never in its way.

The work runs in its own worker processes, started as the strong bot's are
(``botrunner._init_worker``: the idle CPU scheduling class, ending with the
server), so a live move never queues behind it for a worker.  And it yields the
CPU: while any strong move is in flight (``BotRunner.on_live``) a shared
``live`` flag is set, and the work, which calls ``pause_for_live_moves``
between small steps (a sampled world: milliseconds), sleeps until it is clear.
A live move therefore thinks on a machine the analyses have stepped aside on,
and keeps its deadline.

What a live move can lose to the analyses is therefore counted, not timed: every
step of background work passes ``pause_for_live_moves`` (``steps``), a step that
finds the flag set was under way when a live move was asked for (``pauses``),
and the flag going from clear to set starts a *live period* (``live_periods``).
At most one step per worker can overlap each live period, so ``pauses <=
workers * live_periods`` however loaded the machine is; work that went on
thinking beside live moves would break it (tests/rooms/test_background.py,
tests/server/test_coach.py).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .botrunner import BotRunner, _init_worker

T = TypeVar("T")

PAUSE_POLL = 0.005
"""Seconds a paused worker sleeps before looking at the flag again."""

_live: Any = None
"""In a worker: the shared flag, non-zero while live moves are in flight."""
_pauses: Any = None
"""In a worker: the shared count of the times the workers stepped aside."""
_steps: Any = None
"""In a worker: the shared count of the steps of background work begun."""


def _init_background(parent: int, live: Any, pauses: Any, steps: Any) -> None:
    global _live, _pauses, _steps
    _init_worker(parent)
    _live, _pauses, _steps = live, pauses, steps


def pause_for_live_moves() -> None:
    """Called by background work between steps: return once no live move is in flight.

    The flag is a bare byte of shared memory, read without a lock: a lock shared
    with a worker in the idle scheduling class could be held by it while the
    machine's load keeps it off the CPU, and the server's event loop, setting the
    flag for a live move, would wait for it (a priority inversion that made live
    moves late before the flag was lock-free).
    """
    if _live is None:
        return
    _steps.value += 1  # one writer at a time in practice (one worker by default)
    if not _live.value:
        return
    _pauses.value += 1  # one writer at a time in practice; a lost count only understates
    while _live.value:
        time.sleep(PAUSE_POLL)


class BackgroundPool:
    """Worker processes for work that must never delay a live bot move."""

    def __init__(self, bots: BotRunner, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._ctx = multiprocessing.get_context("spawn")
        self._live = self._ctx.RawValue("b", 0)
        """Non-zero while live strong moves are in flight (no lock: see above)."""
        self._pauses = self._ctx.RawValue("q", 0)
        self._steps = self._ctx.RawValue("q", 0)
        self.live_periods = 0
        """Times the flag went from clear to set: live moves began to be in flight."""
        self._pool: ProcessPoolExecutor | None = None
        bots.on_live = self.live_moves

    def live_moves(self, in_flight: int) -> None:
        """The number of live strong moves in flight changed (``BotRunner.on_live``)."""
        live = 1 if in_flight > 0 else 0
        if live and not self._live.value:
            self.live_periods += 1
        self._live.value = live

    @property
    def paused(self) -> bool:
        """Whether background work is asked to wait right now."""
        return bool(self._live.value)

    @property
    def pauses(self) -> int:
        """How many times background work stepped aside for live moves."""
        return int(self._pauses.value)

    @property
    def steps(self) -> int:
        """Steps of background work begun (each passed ``pause_for_live_moves``)."""
        return int(self._steps.value)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a background worker (both pickled across)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=self._ctx,
                initializer=_init_background,
                initargs=(os.getpid(), self._live, self._pauses, self._steps),
            )
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        except BrokenProcessPool:
            self.close()  # a worker died (killed, out of memory): a new pool next time
            raise

    def close(self) -> None:
        """Stop the workers (work in progress is abandoned; its caller stored its steps)."""
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                proc.terminate()
            self._pool = None
