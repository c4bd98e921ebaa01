"""Worker processes that never delay the server: the strong bot's, and background work
(the coach's analyses) that also steps aside for every live strong-bot move.

Every worker starts with ``init_worker``: the idle CPU scheduling class, and it ends
with the server.  Background work runs in its own such processes (``BackgroundPool``),
so a live move never queues behind it for a worker.  And it yields the CPU: while any
strong move is in flight (the bots' ``on_live``, app/rooms/botrunner.py) a shared
``live`` flag is set, and the work, which calls ``pause_for_live_moves`` between small
steps (a sampled world: milliseconds), sleeps until it is clear.  A live move therefore
thinks on a machine the analyses have stepped aside on, and keeps its deadline.

What a live move can lose to the analyses is therefore counted, not timed: every
step of background work passes ``pause_for_live_moves`` (``steps``), a step that
finds the flag set was under way when a live move was asked for (``pauses``),
and the flag going from clear to set starts a *live period* (``live_periods``).
At most one step per worker can overlap each live period, so ``pauses <=
workers * live_periods`` however loaded the machine is; work that went on
thinking beside live moves would break it (tests/core/test_processes.py,
tests/server/test_coach.py).

It lives in ``app/core`` because it is no room's: the rooms' bots report their live
moves to it, and the coach (a feature) runs its work on it; ``app/features.py`` joins
the two.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

PAUSE_POLL = 0.005
"""Seconds a paused worker sleeps before looking at the flag again."""
WORKER_NICE = 5
"""How much lower the workers' CPU priority is than the server's (Unix ``nice``), where
the idle scheduling class (Linux) is not available."""

_live: Any = None
"""In a worker: the shared flag, non-zero while live moves are in flight."""
_pauses: Any = None
"""In a worker: the shared count of the times the workers stepped aside."""
_steps: Any = None
"""In a worker: the shared count of the steps of background work begun."""


IDLE = "idle"
"""Workers in the idle scheduling class (Linux): CPU time nothing else wants."""
LOW = "low"
"""Workers ``WORKER_NICE`` lower than the server: a share of the CPU however busy."""
PRIORITIES = (IDLE, LOW)


def init_worker(parent: int, priority: str = IDLE) -> None:
    """Worker initializer: yield the CPU to the server, and end when it ends.

    The workers think with the CPU time the server does not need: on Linux in the
    idle scheduling class (which stays below the server even when the server itself
    runs ``nice``d), elsewhere ``WORKER_NICE`` lower.  A saturated machine then
    slows the search, which has a wall-clock budget and just samples fewer worlds
    (or leaves the move to the greedy bot), not the event loop that every room is
    served from.  ``LOW`` skips the idle class: on a machine whose CPU is always busy
    with other work the idle class would starve the worker for good.

    A server stopped by SIGTERM shuts its pool down; one killed with SIGKILL cannot,
    and its worker used to live on.  On Linux the kernel sends the worker SIGTERM
    when its parent dies (PR_SET_PDEATHSIG); everywhere, a thread also checks every
    second whether the parent is still the one that started it.
    """
    if not (priority == IDLE and _idle_class()):
        try:
            os.nice(WORKER_NICE)
        except (OSError, AttributeError):
            pass
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _idle_class() -> bool:
    """Put this process in the idle scheduling class; False where there is none."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        return False
    return True


def _init_background(parent: int, priority: str, live: Any, pauses: Any, steps: Any) -> None:
    global _live, _pauses, _steps
    init_worker(parent, priority)
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


class LiveMoves(Protocol):
    """Who reports live moves in flight (the rooms' ``BotRunner``): it calls ``on_live``
    with their number whenever it changes."""

    on_live: Callable[[int], None] | None


class BackgroundPool:
    """Worker processes for work that must never delay a live bot move."""

    def __init__(self, bots: LiveMoves, workers: int = 1, priority: str = IDLE) -> None:
        if priority not in PRIORITIES:
            raise ValueError(f"priority {priority!r}: one of {PRIORITIES}")
        self.workers = max(1, workers)
        self.priority = priority
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
                initargs=(os.getpid(), self.priority, self._live, self._pauses, self._steps),
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
            stop_pool(self._pool)
            self._pool = None


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting and end its workers now: a worker busy with
    a long search (a bot's move, an analysis) would otherwise hold a shutdown until
    it finished."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.terminate()
