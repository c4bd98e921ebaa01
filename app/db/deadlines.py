"""Reading ``room_deadlines`` (issue 32): what correspondence rooms wait for.

A ``move`` row exists exactly while a correspondence room waits for a seat to move
(a person until their deadline, a bot until its delay is over); ``warn24`` and
``warn1`` rows stand 24 hours and 1 hour before a person's deadline.  The room
service writes them with the events that change them (app/db/room_writes.py) and
the deadline poller fires them (app/db/deadline_claims.py); this module only reads,
for "My games", the digest mail and the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Row, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .models import RoomDeadline, Seat, table_of
from .outage import outages_as_unavailable

DEADLINES = table_of(RoomDeadline)
SEATS = table_of(Seat)
MOVE = "move"
WARN_24 = "warn24"
WARN_1 = "warn1"


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """One row of ``room_deadlines``: ``seat`` is to move in ``room_id`` since the
    room's ``seq``, and ``kind`` falls due at ``due_ms`` (Unix ms)."""

    room_id: str
    kind: str
    seq: int
    seat: int
    due_ms: int


def _row(r: Row[Any, Any, Any, Any, Any]) -> DeadlineRow:
    room_id, kind, seq, seat, due_ms = r
    return DeadlineRow(room_id, kind, int(seq), int(seat), int(due_ms))


_COLUMNS = (
    DEADLINES.c.room_id,
    DEADLINES.c.kind,
    DEADLINES.c.seq,
    DEADLINES.c.seat,
    DEADLINES.c.due_ms,
)


class DeadlineReads:
    """Queries of ``room_deadlines`` on the repository's sessions."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    @outages_as_unavailable
    async def of_room(self, room_id: str) -> list[DeadlineRow]:
        """The room's rows (none for a live room or one that waits for nobody)."""
        async with self.sessions() as s:
            rows = (
                await s.execute(
                    select(*_COLUMNS)
                    .where(DEADLINES.c.room_id == room_id)
                    .order_by(DEADLINES.c.due_ms)
                )
            ).all()
        return [_row(r) for r in rows]

    @outages_as_unavailable
    async def waiting_for(
        self, player_hashes: Sequence[str] = (), account_id: str | None = None
    ) -> list[DeadlineRow]:
        """The ``move`` rows of the rooms that wait for a seat taken by one of these
        player keys (hashes) or held by this account, soonest due first: "your turn"
        in My games and the digest."""
        if not player_hashes and account_id is None:
            return []
        whose: list[ColumnElement[bool]] = []
        if player_hashes:
            whose.append(SEATS.c.player_hash.in_(list(player_hashes)))
        if account_id is not None:
            whose.append(SEATS.c.account_id == account_id)
        query = (
            select(*_COLUMNS)
            .join(
                SEATS,
                (SEATS.c.room_id == DEADLINES.c.room_id) & (SEATS.c.seat == DEADLINES.c.seat),
            )
            .where(DEADLINES.c.kind == MOVE, DEADLINES.c.by_bot.is_(False), or_(*whose))
            .order_by(DEADLINES.c.due_ms)
        )
        async with self.sessions() as s:
            rows = (await s.execute(query)).all()
        return [_row(r) for r in rows]

    @outages_as_unavailable
    async def due(self, now_ms: int, limit: int = 100) -> list[DeadlineRow]:
        """Rows due by ``now_ms`` that nobody holds a live claim on, oldest first (what
        the poller will fire; reading them claims nothing)."""
        query = (
            select(*_COLUMNS)
            .where(
                DEADLINES.c.due_ms <= now_ms,
                (DEADLINES.c.claim_until.is_(None)) | (DEADLINES.c.claim_until < now_ms),
            )
            .order_by(DEADLINES.c.due_ms)
            .limit(limit)
        )
        async with self.sessions() as s:
            rows = (await s.execute(query)).all()
        return [_row(r) for r in rows]

    @outages_as_unavailable
    async def next_due(self) -> int | None:
        """The earliest ``due_ms`` of any row, or None: how long the poller may sleep."""
        async with self.sessions() as s:
            value = await s.scalar(select(DEADLINES.c.due_ms).order_by(DEADLINES.c.due_ms).limit(1))
        return int(value) if value is not None else None
