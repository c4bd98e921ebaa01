"""Computing queued analyses in the background, once across every process.

One loop per server process claims the oldest analysis that is queued (or whose
claimer stopped renewing its lease: it crashed or was restarted) and rates its
plays a chunk at a time in the background workers (app/core/processes.py,
which step aside for every live bot move).  After each chunk the plays rated so
far are stored with the lease renewed, so a restart goes on where it stopped;
a runner that lost its lease (the row was taken over, or the room purged) drops
the work.  The result is stored by the one claimer that finishes it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.core.clock import now_ms
from app.core.errors import Unavailable
from app.core.loops import Doorbell, Sweeper
from app.core.processes import pause_for_live_moves
from app.rooms.domain.record_types import StoredDeal

from .rating import DEFAULT, Settings
from .report import PlayJson, rate_range, result
from .store import AnalysisStore, Stored

log = logging.getLogger("krypkasino.coach")


@dataclass(frozen=True, slots=True)
class RunnerSettings:
    chunk: int = 4
    """Plays rated per step (progress is stored after each)."""
    lease_s: float = 120.0
    """How long a claim holds without a stored step before another process may take it."""
    poll_s: float = 5.0
    """Seconds between looks for queued work when nothing woke the loop."""


RUNNER = RunnerSettings()

Run = Callable[..., Awaitable[Any]]
"""Runs a function in the background workers (``BackgroundPool.run``)."""


def rate_chunk(
    stored: StoredDeal, start: int, stop: int, seed: str, settings: Settings
) -> list[PlayJson]:
    """In a background worker: plays ``start``..``stop - 1`` rated, stepping aside for
    live bot moves between sampled worlds."""
    return rate_range(stored, start, stop, seed, settings, pause_for_live_moves)


class Runner:
    def __init__(
        self,
        store: AnalysisStore,
        run: Run,
        owner: str,
        settings: Settings = DEFAULT,
        runner: RunnerSettings = RUNNER,
    ) -> None:
        self.store = store
        self.run = run
        self.owner = owner
        self.settings = settings
        self.runner = runner
        self.computed = 0
        """Analyses this process finished (tests: computed once across processes)."""
        self.plays_rated = 0
        """Plays this process rated (a restart goes on from the stored ones)."""
        self._wake = Doorbell()
        self._worked = False
        self._loop = Sweeper(
            "coach runner",
            self._look,
            runner.poll_s,
            log,
            quiet=(Unavailable,),
            jitter=False,
            pause=self._pause,
        )

    def start(self) -> None:
        self._loop.start()

    def poke(self) -> None:
        """Something was queued: look now."""
        self._wake.ring()

    async def stop(self) -> None:
        await self._loop.stop()
        try:
            await self.store.release(self.owner)
        except Exception:  # noqa: BLE001 - shutting down: the lease runs out by itself
            log.warning("could not release the coach's claims at shutdown")

    async def _look(self) -> None:
        self._worked = False
        self._worked = await self.step()

    async def _pause(self) -> None:
        """None after an analysis step (there may be more); else until poked or polled."""
        if not self._worked:
            await self._wake.wait(self.runner.poll_s)

    async def step(self) -> bool:
        """Claim and compute one analysis; False when there was none to claim."""
        lease_ms = int(self.runner.lease_s * 1000)
        now = now_ms()
        claimed = await self.store.claim(self.owner, now, now + lease_ms)
        if claimed is None:
            return False
        await self._compute(claimed, lease_ms)
        return True

    async def _compute(self, claimed: Stored, lease_ms: int) -> None:
        key = claimed.key
        record = await self.store.deal_record(key)
        if record is None:  # the room went while it was queued
            return
        total = len(record["moves"])
        so_far = claimed.result.get("plays") if claimed.result else None
        plays: list[PlayJson] = list(so_far or [])[: claimed.done]
        while len(plays) < total:
            start = len(plays)
            stop = min(total, start + self.runner.chunk)
            plays += await self.run(rate_chunk, record, start, stop, claimed.seed, self.settings)
            self.plays_rated += stop - start
            kept = await self.store.progress(
                key, self.owner, len(plays), {"plays": plays}, now_ms() + lease_ms
            )
            if not kept:
                return  # another process holds it now (or the room is gone)
        body = result(record, plays, claimed.seed, self.settings)
        if await self.store.finish(key, self.owner, body):
            self.computed += 1
