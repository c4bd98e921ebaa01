"""RETENTION_DAYS: the running server removes rooms finished more than N days ago.

A background task started and stopped by the app's lifespan (app/main.py).
Every ``interval`` seconds it purges (app/db/purge.py) the finished rooms
whose last change is older than the retention period and tells the room
service, which drops any of them it still held and closes their connections
with an ``error`` "purged".  Several server processes on one PostgreSQL may
all run it: the purge deletes each room in exactly one transaction and lets
one process sweep at a time (see app/db/purge.py), so a room is removed once
and has one tombstone.  The first sweep waits a random part of the interval,
so that processes started together do not all sweep together.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from app.core.loops import Sweeper
from app.db.purge import PurgeItem, purge
from app.db.repository import RoomRepository
from app.metrics import Metrics
from app.rooms.domain.errors import RoomPurged
from app.rooms.service import RoomService

log = logging.getLogger("krypkasino.retention")
REASON = "retention"


class Retention:
    def __init__(
        self,
        repo: RoomRepository,
        service: RoomService,
        metrics: Metrics,
        *,
        days: int,
        interval: float,
    ) -> None:
        self.repo = repo
        self.service = service
        self.metrics = metrics
        self.days = days
        self.interval = interval
        self.sweeper = Sweeper(REASON, self.sweep, interval, log)

    @property
    def enabled(self) -> bool:
        return self.days > 0

    def start(self) -> None:
        if self.enabled:
            self.sweeper.start()

    async def stop(self) -> None:
        await self.sweeper.stop()

    async def sweep(self, now: datetime | None = None) -> list[PurgeItem]:
        """Purge once: the finished rooms last changed ``days`` days before ``now``."""
        now = now or datetime.now(UTC)
        gone = await purge(self.repo, now - timedelta(days=self.days), REASON, batch=50)
        if gone:
            self.metrics.purged.inc(len(gone))
            held = self.service.forget_purged(
                [RoomPurged(g.room_id, g.finished_at, now) for g in gone]
            )
            log.info(
                "purged finished rooms", extra={"rooms": len(gone), "held": held, "days": self.days}
            )
        return gone
