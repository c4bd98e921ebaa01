"""The outbox's dispatcher: every stored domain event reaches every subscriber of its
kind, at least once, from whichever process claims it.

Each process runs one.  It claims a batch of events nobody holds (a claim is a
lease: a process that dies holding events leaves them to the others once it ran
out), hands each to the subscribers that have not handled it yet, in the order they
registered, records each success, and marks the event done when all succeeded.  A
subscriber that raises stops that event's hand-over: the event is put back to be
claimed again after a back-off, and the subscribers that succeeded are not run again.

It looks for work when the commit of this process rings its doorbell (at once),
and every ``poll_seconds`` otherwise (events another process stored, or whose
claim ran out).  Finished events are kept ``keep_days`` for anyone looking into
what happened, then purged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.core.clock import now_ms
from app.core.loops import Doorbell, Sweeper
from app.core.outbox import OutboxStore, StoredEvent, Subscriptions

log = logging.getLogger("krypkasino.outbox")


@dataclass(frozen=True, slots=True)
class DispatchSettings:
    poll_seconds: float = 2.0
    """How often to look for events other processes stored or left behind."""
    lease_seconds: float = 60.0
    """How long a claim holds an event: longer than any subscriber takes."""
    batch: int = 50
    retry_first: float = 1.0
    retry_max: float = 300.0
    """Back-off after a failed hand-over: doubling from the first to the most."""
    keep_days: float = 7.0
    purge_every: float = 3600.0


@dataclass(slots=True)
class DispatchStats:
    handed: int = 0
    """Events this process finished (every subscriber of its kind handled it)."""
    failures: int = 0
    """Hand-overs a subscriber raised on (the event was put back)."""
    rounds: int = 0
    """Looks for work that ended without failing (a test waits on these, not on time)."""


class Dispatcher:
    def __init__(
        self,
        store: OutboxStore,
        subscriptions: Subscriptions,
        owner: str,
        doorbell: Doorbell | None = None,
        settings: DispatchSettings | None = None,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.subscriptions = subscriptions
        self.owner = owner
        self.doorbell = doorbell or Doorbell()
        self.settings = settings or DispatchSettings()
        self.clock = clock
        self.stats = DispatchStats()
        self._claimed = 0
        self._purged_at: float | None = None
        self._loop = Sweeper(
            "outbox", self._look, self.settings.poll_seconds, log, jitter=False, pause=self._pause
        )

    def start(self) -> None:
        self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def run_once(self) -> int:
        """Claim one batch and hand each event over; returns how many were claimed."""
        s = self.settings
        now = self.clock()
        events = await self.store.claim_events(
            self.owner, now, now + int(s.lease_seconds * 1000), s.batch
        )
        for event in events:
            await self.hand_over(event)
        return len(events)

    async def hand_over(self, event: StoredEvent) -> bool:
        """Give a claimed event to each subscriber that has not handled it; True when
        all have (the event is done)."""
        handled = await self.store.handled_by(event.id)
        for sub in self.subscriptions.of_kind(event.kind):
            if sub.name in handled:
                continue
            try:
                await sub.handler(event)
            except Exception:  # a subscriber's boundary: retried after a back-off
                self.stats.failures += 1
                log.exception(
                    "outbox subscriber failed",
                    extra={"subscriber": sub.name, "event": event.id, "room": event.room_id},
                )
                await self.store.release_event(event.id, self.owner, self._retry_at(event))
                return False
            await self.store.mark_handled(event.id, sub.name, self.clock())
        await self.store.finish_event(event.id, self.owner)
        self.stats.handed += 1
        return True

    def _retry_at(self, event: StoredEvent) -> int:
        s = self.settings
        wait = min(s.retry_first * 2**event.tries, s.retry_max)
        return self.clock() + int(wait * 1000)

    async def _look(self) -> None:
        """One round of the loop: a batch handed on, and now and then a purge."""
        self._claimed = 0
        self._claimed = await self.run_once()
        await self._purge()
        self.stats.rounds += 1

    async def _pause(self) -> None:
        """Until this process's next commit rings, or the next poll; not at all after a
        full batch (more may be waiting)."""
        if self._claimed < self.settings.batch:
            await self.doorbell.wait(self.settings.poll_seconds)

    async def _purge(self) -> None:
        s = self.settings
        if self._purged_at is not None and time.monotonic() - self._purged_at < s.purge_every:
            return
        self._purged_at = time.monotonic()
        gone = await self.store.purge_events(self.clock() - int(s.keep_days * 86_400_000))
        if gone:
            log.info("outbox purged", extra={"events": gone})
