"""Where bots think: off the event loop.

Random and greedy bots take milliseconds and run in a worker thread; the
strong search runs in a worker process, so that its CPU time never competes
with the event loop for the interpreter lock.  The process pool is created on
first use and shut down with the service, so no worker outlives the server.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from typing import Any, Protocol


class Chooser(Protocol):
    async def __call__(self, view: dict[str, Any], level: str) -> dict[str, Any]: ...


class BotRunner:
    def __init__(self, budget: float = 0.5) -> None:
        self.budget = budget
        self._pool: Any = None
        try:
            from app.bots import choose_move
        except ImportError:  # the bots package is optional: play random legal moves
            choose_move = None
        self._choose = choose_move

    async def __call__(self, view: dict[str, Any], level: str) -> dict[str, Any]:
        if self._choose is None:
            return random.choice(view["legal"])
        if level != "strong":
            return await asyncio.to_thread(self._choose, view, level)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._strong_pool(), _choose_strong, view, self.budget)

    def _strong_pool(self) -> Any:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_die_with, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        """Stop the worker process (a move it is thinking about is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                proc.terminate()
            self._pool = None


def _die_with(parent: int) -> None:
    """Worker initializer: end when the server process ends, however it ends.

    A server stopped by SIGTERM shuts its pool down; one killed with SIGKILL cannot,
    and its worker used to live on.  On Linux the kernel sends the worker SIGTERM
    when its parent dies (PR_SET_PDEATHSIG); everywhere, a thread also checks every
    second whether the parent is still the one that started it.
    """
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


def _choose_strong(view: dict[str, Any], budget: float) -> dict[str, Any]:
    from app.bots import choose_move

    return choose_move(view, "strong", budget_s=budget)
