"""What the readiness check and the admin page ask of the database, as one object:
the API asks for these facts without importing the database layer (it is handed
this object in the services, app/services.py)."""

from __future__ import annotations

from app.rooms.index_types import IndexPage, RoomQuery

from .admin_reads import admin_rooms
from .queries import status_counts
from .repository import RoomRepository


class DatabaseFacts:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    async def ping(self) -> None:
        """One round trip; raises Unavailable when it fails."""
        await self.repo.ping()

    async def status_counts(self) -> dict[str, int]:
        """Rooms by status, plus ``purged`` (tombstones)."""
        return await status_counts(self.repo)

    async def rooms(self, query: RoomQuery) -> IndexPage:
        """A page of every room in the database (app/db/admin_reads.py)."""
        return await admin_rooms(self.repo, query)
