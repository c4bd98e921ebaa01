"""Waiting rooms nobody joined are closed after WAITING_ROOM_HOURS.

A room someone made and nobody joined would otherwise wait for ever, count
against its maker's live rooms and the server's, and be loaded again by any
visitor of its link.  A background task (started and stopped by the app's
lifespan) closes such rooms through the room service's write path, like an
operator's close: whoever has the page open sees why.  Several processes may
all run it; a room another process closed first is skipped.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from app.rooms.domain.errors import ServiceError
from app.rooms.service import RoomService
from app.rooms.store import Unavailable

from .sweeper import Sweeper

log = logging.getLogger("krypkasino.expiry")


class WaitingRoomExpiry:
    def __init__(self, service: RoomService, hours: float) -> None:
        self.service = service
        self.hours = hours
        self.interval = max(1.0, min(600.0, hours * 3600 / 4))
        self.sweeper = Sweeper(
            "waiting-room", self.sweep, self.interval, log, quiet=(Unavailable, ServiceError)
        )

    @property
    def enabled(self) -> bool:
        return self.hours > 0

    def reason(self) -> str:
        return f"nobody joined within {self.hours:g} hours"

    def start(self) -> None:
        if self.enabled:
            self.sweeper.start()

    async def stop(self) -> None:
        await self.sweeper.stop()

    async def sweep(self, now: datetime | None = None) -> list[str]:
        """Close every waiting room last changed ``hours`` before ``now``; their ids."""
        now = now or datetime.now(UTC)
        closed: list[str] = []
        for room_id in await self.service.repo.idle_waiting_rooms(  # type: ignore[attr-defined]
            now - timedelta(hours=self.hours)
        ):
            try:
                await self.service.close_room(room_id, self.reason())
            except ServiceError as exc:
                if exc.code not in ("closed", "not_found", "purged"):
                    raise
                continue
            closed.append(room_id)
        if closed:
            log.info("closed waiting rooms nobody joined", extra={"rooms": len(closed)})
        return closed
