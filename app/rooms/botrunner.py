"""Where bots think: off the event loop, on a bounded pool of worker processes.

Random and greedy bots take milliseconds and run in a worker thread.  The
strong bot searches for ``budget`` seconds, so it runs in worker processes
(its CPU time never competes with the event loop for the interpreter lock):
``workers`` of them, by default one per core, each a little ``nice``r than
the server so that under load the serving loop gets the CPU first.

Every strong move is due one ``budget`` after it was asked for, whatever
happens in between: time spent waiting in the queue is taken from the
thinking time.  A worker that picks a move up late thinks only for what is
left before it is due, and one that picks it up with less than ``min_budget``
left plays the greedy bot's move at once; should the worker not answer by the
due time plus ``GRACE``, the greedy bot answers in a thread.  A move also
gets a budget that shrinks as the queue grows (at ``workers`` moves in flight
each gets the full budget; at twice that, half), and past the queue's bound a
move is chosen by the greedy bot at once.  So a table waits for its bot about
one budget, never one budget per table ahead of it.

Each move is counted once in ``BotStats``: full budget, shortened, or
answered by the greedy bot (``overflow``: queue full, or due before a worker
could think).

The pool is created on first use and shut down with the service; workers also
end by themselves when the server process dies (``app.core.processes.init_worker``).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.core.processes import init_worker, stop_pool
from app.engine.infoset import InformationSet
from app.engine.moves import LegalMove

GRACE = 0.1
"""Seconds past a move's due time the event loop waits for its worker before the
greedy bot answers instead (the worker itself stops thinking at the due time)."""
SHORT = 0.9
"""A strong move that searched for less than this share of the budget counts as shortened."""

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 5.0)
"""Upper bounds (seconds) of the bot move latency histogram."""


ChooseMove = Callable[..., LegalMove]
"""A bot's move at a level (``app.bots.choose``: info, legal, level, and the keywords
``rng``, ``budget_s``, ``worlds``), run in a thread or a worker."""
SEEDED_WORLDS = 200
"""Worlds a seeded strong move searches (about the budget's on an idle core)."""


class Chooser(Protocol):
    """Chooses a bot's move from what its seat may know: the engine's information set
    of the seat and its legal moves (never the view, never hidden cards).

    With a ``seed`` (a challenge room, issue 32) the move is a function of the seed and
    the position alone: the bot's randomness comes from the seed and the strong bot
    searches a fixed number of worlds, however busy the machine (it may take longer;
    it is never cut short nor left to the greedy bot).  Without one, as any room."""

    async def __call__(
        self, info: InformationSet, legal: Sequence[LegalMove], level: str, seed: str | None = None
    ) -> LegalMove: ...


@dataclass(slots=True)
class BotStats:
    """How the pool fares: read by the metrics endpoint."""

    in_flight: int = 0
    """Strong moves asked for and not answered yet (running or queued)."""
    shortened: int = 0
    """Strong moves that searched for less than ``SHORT`` of the full budget: the pool
    was busy when they were asked for, or they waited in the queue."""
    overflow: int = 0
    """Strong moves answered by the greedy bot: the queue was full, or the move was
    due before a worker could think about it."""
    buckets: list[int] = field(default_factory=lambda: [0] * (len(LATENCY_BUCKETS) + 1))
    latency_sum: float = 0.0
    latency_count: int = 0

    def observe(self, seconds: float) -> None:
        self.buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.latency_sum += seconds
        self.latency_count += 1


class BotRunner:
    def __init__(
        self,
        budget: float = 0.5,
        workers: int | None = None,
        queue: int | None = None,
        min_budget: float = 0.05,
        seeded_worlds: int = SEEDED_WORLDS,
    ) -> None:
        self.budget = budget
        self.seeded_worlds = seeded_worlds
        """Worlds a seeded strong move searches (``Chooser``)."""
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.queue = self.workers * 4 if queue is None else max(0, queue)
        """Strong moves that may wait for a worker beyond those running."""
        self.min_budget = min(min_budget, budget)
        self.stats = BotStats()
        self.on_live: Callable[[int], None] | None = None
        """Called with the number of strong moves in flight whenever it changes: the
        background work (app/core/processes.py) pauses while any is."""
        self._pool: Any = None
        self._choose: ChooseMove | None
        try:
            from app.bots import choose

            self._choose = choose
        except ImportError:  # the bots package is optional: play random legal moves
            self._choose = None

    @property
    def queued(self) -> int:
        """Strong moves waiting for a worker right now."""
        return max(0, self.stats.in_flight - self.workers)

    def budget_now(self) -> float:
        """The budget a strong move asked for now gets: the full one while a worker is
        free, less as moves pile up, so that waiting plus thinking stays near one budget."""
        ahead = self.stats.in_flight  # moves already running or waiting
        if ahead < self.workers:
            return self.budget
        return max(self.min_budget, self.budget * self.workers / (ahead + 1))

    async def __call__(
        self, info: InformationSet, legal: Sequence[LegalMove], level: str, seed: str | None = None
    ) -> LegalMove:
        if self._choose is None:
            return (random.Random(seed) if seed is not None else random).choice(legal)
        if seed is not None:
            return await self._seeded(info, legal, level, seed, self._choose)
        if level != "strong":
            return await asyncio.to_thread(self._choose, info, legal, level)
        return await self._strong(info, legal, self._choose)

    async def _seeded(
        self,
        info: InformationSet,
        legal: Sequence[LegalMove],
        level: str,
        seed: str,
        choose: ChooseMove,
    ) -> LegalMove:
        """A move from the seed and the position alone: random and greedy in a thread, the
        strong search over ``seeded_worlds`` worlds in a worker, waited for whole."""
        if level != "strong":
            return await asyncio.to_thread(choose, info, legal, level, rng=random.Random(seed))
        stats = self.stats
        started = time.monotonic()
        stats.in_flight += 1
        self._live_changed()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._strong_pool(), _choose_seeded, info, tuple(legal), seed, self.seeded_worlds
            )
        finally:
            stats.in_flight -= 1
            self._live_changed()
            stats.observe(time.monotonic() - started)

    async def _strong(
        self, info: InformationSet, legal: Sequence[LegalMove], choose: ChooseMove
    ) -> LegalMove:
        stats = self.stats
        started = time.monotonic()
        due = started + self.budget  # queue waiting counts against the move's time
        if stats.in_flight >= self.workers + self.queue:
            stats.overflow += 1
            move = await asyncio.to_thread(choose, info, legal, "greedy")
            stats.observe(time.monotonic() - started)
            return move
        budget = self.budget_now()
        stats.in_flight += 1
        self._live_changed()
        try:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(
                self._strong_pool(),
                _choose_strong,
                info,
                tuple(legal),
                budget,
                due,
                self.min_budget,
            )
            # A late move is left to finish in the pool, not cancelled: a worker given a
            # move already due answers at once, and a future cancelled while it waits
            # in the pool's queue makes Python 3.11's pool raise InvalidStateError in
            # its management thread if a worker dies (or is stopped by close()) next.
            future.add_done_callback(_retrieve)
            done, _ = await asyncio.wait({future}, timeout=max(0.0, due + GRACE - time.monotonic()))
            if done:
                move, searched = future.result()
            else:
                searched = 0.0
                move = await asyncio.to_thread(choose, info, legal, "greedy")
            if searched <= 0.0:
                stats.overflow += 1
            elif searched < SHORT * self.budget:
                stats.shortened += 1
            return move
        finally:
            stats.in_flight -= 1
            self._live_changed()
            stats.observe(time.monotonic() - started)

    def _live_changed(self) -> None:
        if self.on_live is not None:
            self.on_live(self.stats.in_flight)

    def _strong_pool(self) -> Any:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=init_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (moves they are thinking about are abandoned)."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a pool answer's error as seen: a late move's answer is never awaited, and
    its pool may break at shutdown (asyncio would log "exception never retrieved")."""
    if not future.cancelled():
        future.exception()


def _choose_strong(
    info: InformationSet,
    legal: tuple[LegalMove, ...],
    budget: float,
    due: float,
    min_budget: float,
) -> tuple[LegalMove, float]:
    """The move and the seconds it was searched for (0: the greedy bot's, the move
    was due too soon).  ``due`` is on ``time.monotonic``'s clock, which on Linux is
    the machine's, shared by the server and its workers.  The information set and
    the moves are frozen engine values: they cross to the worker process pickled."""
    from app.bots import choose

    left = due - time.monotonic()
    if left < min_budget:
        return choose(info, legal, "greedy"), 0.0
    budget = min(budget, left)
    return choose(info, legal, "strong", budget_s=budget), budget


def _choose_seeded(
    info: InformationSet, legal: tuple[LegalMove, ...], seed: str, worlds: int
) -> LegalMove:
    """A strong move over ``worlds`` worlds, its randomness from ``seed`` (a worker's)."""
    from app.bots import choose

    return choose(info, legal, "strong", rng=random.Random(seed), worlds=worlds)
