"""Waiting rooms nobody joined are closed: within minutes if nobody even has them open,
after WAITING_ROOM_HOURS in any case.

A room someone made and nobody joined would otherwise wait for ever, count
against its maker's live rooms and the server's (MAX_ROOMS), and be loaded again by
any visitor of its link.  Rooms made by a flood and left at once are the worst of
them: at a day each, one network rotating addresses filled MAX_ROOMS so that every
new room on the server was refused for a day, restarts included (issue 34).  So
two rules, both read from the database (a restarted server applies them at once):

- WAITING_ROOM_MINUTES: a waiting room with no person but its maker seated, that
  nobody (maker or spectator) has open on any server process, is closed once it
  has not changed for this many minutes.  Its maker with the page open keeps it.
- WAITING_ROOM_HOURS: any room still waiting after this many hours without a change
  is closed, whoever has it open.

A background task (started and stopped by the app's lifespan) closes such rooms
through the room service's write path, like an operator's close: whoever has the
page open sees why.  Several processes may all run it; a room another process
closed first is skipped.

The same object starts and stops the sweep of rooms in play that nobody plays any
more (ABANDONED_ROOM_MINUTES, app/ops/abandoned.py): what the waiting-room rules are
to waiting rooms, it is to rooms in play.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from app.config import get_settings
from app.core.errors import ServiceError, Unavailable
from app.core.loops import Sweeper
from app.rooms.domain.commands import CloseRoom
from app.rooms.service import RoomService

from .abandoned import AbandonedRooms

log = logging.getLogger("krypkasino.expiry")
BATCH = 100
"""Rooms read from the database at a time."""


class WaitingRoomExpiry:
    def __init__(
        self,
        service: RoomService,
        hours: float,
        minutes: float = 0.0,
        abandoned_minutes: float | None = None,
    ) -> None:
        """``abandoned_minutes``: ABANDONED_ROOM_MINUTES (unset: the server's setting)."""
        self.service = service
        self.hours = hours
        self.minutes = minutes
        periods = [p for p in (hours * 3600, minutes * 60) if p > 0]
        self.interval = max(1.0, min(600.0, min(periods, default=600.0) / 4))
        self.sweeper = Sweeper(
            "waiting-room", self.sweep, self.interval, log, quiet=(Unavailable, ServiceError)
        )
        if abandoned_minutes is None:
            abandoned_minutes = get_settings().abandoned_room_minutes
        self.abandoned = AbandonedRooms(service, abandoned_minutes)

    @property
    def enabled(self) -> bool:
        return self.hours > 0 or self.minutes > 0

    def reason(self) -> str:
        return f"nobody joined within {self.hours:g} hours"

    def unjoined_reason(self) -> str:
        return f"nobody joined within {self.minutes:g} minutes"

    def start(self) -> None:
        if self.enabled:
            self.sweeper.start()
        self.abandoned.start()

    async def stop(self) -> None:
        await self.sweeper.stop()
        await self.abandoned.stop()

    async def sweep(self, now: datetime | None = None) -> list[str]:
        """Close the rooms either rule finds at ``now``; their ids.  Pages of BATCH are
        read until one closes nothing more, so that a flood's thousands of rooms go in
        one round, not a hundred per round."""
        now = now or datetime.now(UTC)
        closed: list[str] = []
        if self.minutes > 0:
            closed += await self._expire(
                now - timedelta(minutes=self.minutes), self.unjoined_reason(), unjoined=True
            )
        if self.hours > 0:
            closed += await self._expire(now - timedelta(hours=self.hours), self.reason())
        if closed:
            log.info("closed waiting rooms nobody joined", extra={"rooms": len(closed)})
        return closed

    async def _expire(self, before: datetime, reason: str, unjoined: bool = False) -> list[str]:
        repo = self.service.repo
        closed: list[str] = []
        while True:
            batch = await repo.idle_waiting_rooms(  # type: ignore[attr-defined]
                before, BATCH, unjoined=unjoined
            )
            before_batch = len(closed)
            for room_id in batch:
                if unjoined and await self.service.attended(room_id):
                    continue  # its maker waits with the page open
                closed += await self._close(room_id, reason)
            if len(batch) < BATCH or len(closed) == before_batch:
                return closed

    async def _close(self, room_id: str, reason: str) -> list[str]:
        """``[room_id]`` once closed; ``[]`` when it was closed or gone already."""
        try:
            await self.service.execute(CloseRoom(room_id, reason))
        except ServiceError as exc:
            if exc.code not in ("closed", "not_found", "purged"):
                raise
            return []
        return [room_id]
