"""What every part of the room repository shares: the session factory, SQLite's
writer thread, and the one way a write transaction is run.

The repository is split by job (``room_writes``, ``room_reads``, ``room_lookup``,
``deal_records``, ``leases``); each part is a mixin on this base, and
``app.db.repository.RoomRepository`` puts them together.  The satellites of the
repository (``players``, ``social``, ``history``, ``purge``) use ``sessions``,
``writer`` and ``_run_write`` from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import Conflict

from .outage import outages_as_unavailable
from .session import SqliteWriter

T = TypeVar("T")


class StoreBase:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], writer: SqliteWriter | None = None
    ) -> None:
        self.sessions = sessions
        self.writer = writer

    async def _run_write(self, fn: Callable[..., T], *args: Any, soon: bool = False) -> T:
        """Run ``fn(connection, *args)`` as one transaction: on PostgreSQL on the async
        engine; on SQLite whole on the writer's own thread (see ``SqliteWriter``), one
        hop instead of one per statement, or with ``soon`` (a move) at the end of the
        loop's tick on its own thread.  A unique constraint failing is a Conflict."""
        try:
            if self.writer is not None:
                if soon:
                    return await self.writer.run_soon(fn, *args)
                return await self.writer.run(fn, *args)
            async with self.sessions.begin() as s:
                conn = await s.connection()
                return await conn.run_sync(fn, *args)
        except IntegrityError as exc:
            raise Conflict(str(exc.orig)) from exc

    @outages_as_unavailable
    async def ping(self) -> None:
        """One round trip, for the health check: raises Unavailable when it fails."""
        async with self.sessions() as s:
            await s.execute(select(1))
