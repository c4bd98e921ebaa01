"""Rooms in play that nobody plays any more are closed: ABANDONED_ROOM_MINUTES.

A room in play counts against its maker's address (MAX_ROOMS_PER_IP) and the server
(MAX_ROOMS) until its match ends, and a match nobody plays never ends: a game left
to the bots pauses as soon as nobody has it open (app/rooms/attendance.py), and one
still watched plays on between bots.  Rooms made by "Find a game" with bots at
once, "Play now" or the deal of the day and then left held their maker's places for
good: one address filled a server, and a club behind one address locked itself out
of "Play now" with its own left games (issue 46).  The waiting-room expiry
(app/ops/expiry.py) never looks at them: they are not waiting.

So a room in play in which no person has acted for ABANDONED_ROOM_MINUTES is closed
through the room service, like an operator's close ("abandoned: nobody played for N
minutes"), whoever has it open.  A person's act is any event a person causes: a
play of their own (not one the server made for them: a bot's, a stand-in's, the
clock's), a seat taken (making the room, joining it), a match started (a rematch),
Continue pressed, a rematch answered, a take-back, a hint, a setting changed, a
vacation.  A correspondence room is never closed so (its days per move end its
turns).  The rule is read from the database, so a restarted server applies it at
once, and several processes may all run it (a room another one closed first is
skipped).  The in-memory store of the service's tests keeps no such index, and
nothing is closed there.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from sqlalchemy import Exists, and_, exists, not_, or_, select

from app.core.errors import ServiceError, Unavailable
from app.core.loops import Sweeper
from app.db.models import Event, Room
from app.db.outage import outages_as_unavailable
from app.db.repository import RoomRepository
from app.rooms.domain.commands import CloseRoom
from app.rooms.domain.events import (
    HINT,
    MATCH,
    OPTION,
    PLAY,
    READY,
    REMATCH_ACCEPT,
    REMATCH_DECLINE,
    REMATCH_OFFER,
    SEAT,
    TAKEBACK,
    VACATION,
)
from app.rooms.service import RoomService

log = logging.getLogger("krypkasino.expiry")
BATCH = 100
"""Rooms read from the database at a time."""
PERSON_KINDS = (
    SEAT,
    MATCH,
    READY,
    OPTION,
    REMATCH_OFFER,
    REMATCH_ACCEPT,
    REMATCH_DECLINE,
    TAKEBACK,
    HINT,
    VACATION,
)
"""Kinds of event only a person's request writes (a play is one when it is not the
server's: its id does not start with ``srv:``, app/rooms/automation.py)."""
SERVER_MOVE = "srv:"


def _a_person_acted(since: datetime) -> Exists:
    """An event of the room, written at ``since`` or later, that a person caused."""
    own_play = and_(
        Event.kind == PLAY,
        or_(Event.client_id.is_(None), not_(Event.client_id.startswith(SERVER_MOVE))),
    )
    return exists().where(
        Event.room_id == Room.id,
        Event.created_at >= since,
        or_(Event.kind.in_(PERSON_KINDS), own_play),
    )


@outages_as_unavailable
async def abandoned_rooms(repo: RoomRepository, before: datetime, limit: int = BATCH) -> list[str]:
    """Rooms in play (live, not correspondence), made before ``before``, in which no
    person has acted since; the longest unchanged first."""
    pace = Room.options["pace"].as_string()
    query = (
        select(Room.id)
        .where(
            Room.status == "playing",
            Room.created_at < before,
            or_(pace.is_(None), pace != "correspondence"),
            ~_a_person_acted(before),
        )
        .order_by(Room.updated_at, Room.id)
        .limit(limit)
    )
    async with repo.sessions() as s:
        return list((await s.scalars(query)).all())


class AbandonedRooms:
    """The background sweep that closes abandoned rooms (started with the waiting-room
    expiry, app/ops/expiry.py)."""

    def __init__(self, service: RoomService, minutes: float) -> None:
        self.service = service
        self.minutes = minutes
        self.interval = max(1.0, min(600.0, minutes * 60 / 4)) if minutes > 0 else 600.0
        self.sweeper = Sweeper(
            "abandoned-room", self.sweep, self.interval, log, quiet=(Unavailable, ServiceError)
        )

    @property
    def enabled(self) -> bool:
        return self.minutes > 0 and isinstance(self.service.repo, RoomRepository)

    def reason(self) -> str:
        return f"abandoned: nobody played for {self.minutes:g} minutes"

    def start(self) -> None:
        if self.enabled:
            self.sweeper.start()

    async def stop(self) -> None:
        await self.sweeper.stop()

    async def sweep(self, now: datetime | None = None) -> list[str]:
        """Close the rooms abandoned at ``now``; their ids.  Pages of BATCH are read
        until one closes nothing more."""
        if not self.enabled:
            return []
        repo = self.service.repo
        assert isinstance(repo, RoomRepository)
        before = (now or datetime.now(UTC)) - timedelta(minutes=self.minutes)
        closed: list[str] = []
        while True:
            batch = await abandoned_rooms(repo, before)
            before_batch = len(closed)
            for room_id in batch:
                closed += await self._close(room_id)
            if len(batch) < BATCH or len(closed) == before_batch:
                break
        if closed:
            log.info("closed rooms nobody played in", extra={"rooms": len(closed)})
        return closed

    async def _close(self, room_id: str) -> list[str]:
        try:
            await self.service.execute(CloseRoom(room_id, self.reason()))
        except ServiceError as exc:
            if exc.code not in ("closed", "not_found", "purged"):
                raise
            return []
        return [room_id]
