"""Where bots think: off the event loop.

Random and greedy bots take milliseconds and run in a worker thread; the
strong search runs in a worker process, so that its CPU time never competes
with the event loop for the interpreter lock.  The process pool is created on
first use and shut down with the service, so no worker outlives the server.
"""

from __future__ import annotations

import asyncio
import random
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

            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        """Stop the worker process (a move it is thinking about is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                proc.terminate()
            self._pool = None


def _choose_strong(view: dict[str, Any], budget: float) -> dict[str, Any]:
    from app.bots import choose_move

    return choose_move(view, "strong", budget_s=budget)
