"""A background task that runs one async function every N seconds until stopped.

The server's periodic jobs (RETENTION_DAYS in app/ops/retention.py, waiting rooms
nobody joined in app/ops/expiry.py) are each a ``sweep`` run now and then for the
whole life of the process.  This is the machinery they share: start once, stop
cleanly (cancelling a round in progress), wait a random part of the interval
before the first round (so that processes started together do not all sweep
together), and carry on after a round that failed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable


class Sweeper:
    def __init__(
        self,
        name: str,
        sweep: Callable[[], Awaitable[object]],
        interval: float,
        log: logging.Logger,
        *,
        quiet: tuple[type[BaseException], ...] = (),
    ) -> None:
        self.name = name
        """The task's name, and what the log says failed."""
        self.sweep = sweep
        self.interval = interval
        """Seconds between the end of one round and the start of the next."""
        self.log = log
        self.quiet = quiet
        """Failures expected while a part is away (the database): skipped to the next
        round without a traceback in the log."""
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the rounds (once: starting a running sweeper does nothing)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Stop, cancelling a round in progress; returns once the task has ended."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    async def _run(self) -> None:
        await asyncio.sleep(random.uniform(0.1, 1.0) * min(self.interval, 60.0))
        while True:
            await self.round()
            await asyncio.sleep(self.interval)

    async def round(self) -> bool:
        """One sweep; True if it succeeded, False if it failed (and was logged)."""
        try:
            await self.sweep()
        except asyncio.CancelledError:
            raise
        except self.quiet:
            return False  # expected while the database is away: the next round tries again
        except Exception:
            # A task boundary: nothing awaits this task but ``stop``, so an exception
            # let through would end the sweeps for the rest of the process's life,
            # silently (a failed round must cost that round only).  Whatever went
            # wrong is logged with its traceback and the next round runs as usual.
            self.log.exception("%s sweep failed", self.name)
            return False
        return True
