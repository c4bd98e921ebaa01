"""Finding and counting rooms without loading them: a room by its short code, whether
a new code is free, how many live rooms an address (and everyone) has made, which
waiting rooms have sat idle.

These answer admission (codes, the room limits) and the idle-room sweep; they read
the ``rooms`` table only, never events.  Operators' listings are in ``queries``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select

from app.rooms.domain.errors import RoomPurged

from .models import PurgedRoom, Room, Seat
from .outage import outages_as_unavailable
from .store_base import StoreBase


class RoomLookup(StoreBase):
    """Rooms by code, live-room counts and idle waiting rooms."""

    @outages_as_unavailable
    async def live_rooms(self, creator: str | None) -> tuple[int, int]:
        """(live rooms made by ``creator``, live rooms in all): waiting or playing."""
        live = Room.status.in_(("waiting", "playing"))
        async with self.sessions() as s:
            total = await s.scalar(select(func.count()).select_from(Room).where(live))
            mine = (
                0
                if creator is None
                else await s.scalar(
                    select(func.count()).select_from(Room).where(live, Room.created_by == creator)
                )
            )
        return int(mine or 0), int(total or 0)

    @outages_as_unavailable
    async def idle_waiting_rooms(
        self, before: datetime, limit: int = 100, *, unjoined: bool = False
    ) -> list[str]:
        """Rooms still waiting for players whose last change is older than ``before``;
        with ``unjoined``, only those where no one but their maker sat down (bots
        aside): at most one seat taken by a person."""
        query = select(Room.id).where(Room.status == "waiting", Room.updated_at < before)
        if unjoined:
            people = (
                select(func.count())
                .select_from(Seat)
                .where(Seat.room_id == Room.id, Seat.name.is_not(None), Seat.bot.is_(False))
                .scalar_subquery()
            )
            query = query.where(people <= 1)
        async with self.sessions() as s:
            rows = await s.scalars(query.order_by(Room.updated_at).limit(limit))
            return list(rows.all())

    @outages_as_unavailable
    async def code_taken(self, code: str) -> bool:
        async with self.sessions() as s:
            return bool(await s.scalar(select(func.count()).where(Room.code == code)))

    @outages_as_unavailable
    async def room_id_for_code(self, code: str) -> str | None:
        """The room of a code; raises RoomPurged when the code's room was purged."""
        async with self.sessions() as s:
            room_id = await s.scalar(select(Room.id).where(Room.code == code))
            if room_id is None:
                gone = (
                    await s.scalars(
                        select(PurgedRoom)
                        .where(PurgedRoom.code == code)
                        .order_by(PurgedRoom.purged_at.desc())
                        .limit(1)
                    )
                ).first()
                if gone is not None:
                    raise RoomPurged(gone.id, gone.finished_at, gone.purged_at)
            return room_id
