"""Timer leases on the ``rooms`` row: which process runs a room's clocks and bots
(``app/rooms/leases.py`` decides when to take, renew and give them up; this only
reads and writes them).

A lease is taken by one conditional UPDATE (free, already ours, or run out), so the
row names one owner at a time however many processes ask at once.  None of these writes moves the
room's ``updated_at``: a lease is not a change of the room (retention and the idle
sweep go by ``updated_at``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, update

from .models import Room, table_of
from .outage import outages_as_unavailable
from .store_base import StoreBase


class LeaseRows(StoreBase):
    """The lease half of ``RoomStore``, plus ``lease_of`` for tests and the admin view."""

    @outages_as_unavailable
    async def take_lease(
        self, room_id: str, owner: str, now_ms: int, until_ms: int
    ) -> tuple[bool, int | None]:
        """Take or extend the room's timer lease unless another owner holds it past
        ``now_ms``.  Returns (taken, the lease's end as it now stands)."""
        rooms = table_of(Room)
        async with self.sessions.begin() as s:
            res = await s.execute(
                update(rooms)
                .where(
                    rooms.c.id == room_id,
                    (rooms.c.lease_owner.is_(None))
                    | (rooms.c.lease_owner == owner)
                    | (rooms.c.lease_until < now_ms),
                )
                .values(lease_owner=owner, lease_until=until_ms, updated_at=rooms.c.updated_at)
            )
            if getattr(res, "rowcount", 0) == 1:  # an UPDATE's CursorResult
                return True, until_ms
            held = await s.scalar(select(rooms.c.lease_until).where(rooms.c.id == room_id))
        return False, held

    @outages_as_unavailable
    async def renew_leases(self, owner: str, room_ids: Sequence[str], until_ms: int) -> set[str]:
        """Extend this owner's leases; returns the rooms it still holds."""
        if not room_ids:
            return set()
        rooms = table_of(Room)
        async with self.sessions.begin() as s:
            res = await s.execute(
                update(rooms)
                .where(rooms.c.lease_owner == owner, rooms.c.id.in_(list(room_ids)))
                .values(lease_until=until_ms, updated_at=rooms.c.updated_at)
                .returning(rooms.c.id)
            )
            return set(res.scalars().all())

    @outages_as_unavailable
    async def release_leases(self, owner: str, room_ids: Sequence[str]) -> None:
        """Give up leases (shutdown, room left memory) so another process need not wait."""
        if not room_ids:
            return
        rooms = table_of(Room)
        async with self.sessions.begin() as s:
            await s.execute(
                update(rooms)
                .where(rooms.c.lease_owner == owner, rooms.c.id.in_(list(room_ids)))
                .values(lease_owner=None, lease_until=None, updated_at=rooms.c.updated_at)
            )

    @outages_as_unavailable
    async def lease_of(self, room_id: str) -> tuple[str | None, int | None]:
        """(owner, until) of the room's lease: for tests and the admin view."""
        async with self.sessions() as s:
            row = (
                await s.execute(
                    select(Room.lease_owner, Room.lease_until).where(Room.id == room_id)
                )
            ).first()
        return (row[0], row[1]) if row is not None else (None, None)
