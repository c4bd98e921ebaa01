"""A background task that runs one async function every N seconds until stopped.

The server's periodic jobs (RETENTION_DAYS in app/ops/retention.py, waiting rooms
nobody joined in app/ops/expiry.py, the ratings' catch-up, the daily digest, the
outbox's dispatcher) are each a ``sweep`` run now and then for the whole life of the
process.  This is the machinery they share, and the one place where a failed round
is caught whatever it raised: start once, stop cleanly (cancelling a round in
progress), wait a random part of the interval before the first round (so that
processes started together do not all sweep together) unless told to start at
once, carry on after a round that failed, and count the rounds (what a test waits
on to see that more rounds change nothing, instead of sleeping).
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
        jitter: bool = True,
        pause: Callable[[], Awaitable[None]] | None = None,
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
        self.jitter = jitter
        """Wait a random part of the interval before the first round (else: at once)."""
        self.pause = pause
        """What to await between rounds instead of ``interval`` seconds (the outbox
        waits on its doorbell)."""
        self.rounds = 0
        """Rounds finished, failed or not."""
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the rounds (once: starting a running sweeper does nothing)."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Stop, cancelling a round in progress; returns once the task has ended."""
        task, self._task = self._task, None
        self._stopping = True
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    async def _run(self) -> None:
        if self.jitter:
            await asyncio.sleep(random.uniform(0.1, 1.0) * min(self.interval, 60.0))
        # ``_stopping`` as well as the cancellation: a cancellation some library
        # swallowed (a wait that finished as it came) must not keep the loop going
        while not self._stopping:
            await self.round()
            self.rounds += 1
            if self.pause is not None:
                await self.pause()
            else:
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


class Doorbell:
    """Rung when there is work, so that a loop waiting for its next look looks at once
    (a commit that stored domain events rings the outbox's; a queued analysis the
    coach's).  A ring while nobody waits is kept for the next wait."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def ring(self) -> None:
        self._event.set()

    def ring_in(self, seconds: float) -> None:
        """Ring ``seconds`` from now (an event stored to fall due then: a turn
        notice); at once if that is not in the future.  On the running loop."""
        if seconds <= 0:
            self.ring()
        else:
            asyncio.get_running_loop().call_later(seconds, self._event.set)

    async def wait(self, timeout: float) -> None:
        """Until rung or ``timeout`` seconds passed; then ready to be rung again."""
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
        # cancellation that arrives as the event is set, and a loop being stopped
        # would then wait again instead of ending
        try:
            async with asyncio.timeout(timeout):
                await self._event.wait()
        except TimeoutError:
            pass
        self._event.clear()
