"""Writing and claiming ``room_deadlines`` (issue 32): the half of the room store that
fires correspondence rooms' deadlines exactly once across processes.

The rows are written by ``room_writes`` in the transaction of the events that change
them (``write_rows``).  Claiming is one transaction per batch: the due rows are read
(on PostgreSQL ``FOR UPDATE SKIP LOCKED``, so two processes never wait on or take the
same row), and each is taken by a conditional statement that only succeeds while no
live claim holds it, so on SQLite too (where the writer lock serialises the
transactions) a row goes to one process.  A ``move`` row is claimed with a lease
(``claim_owner`` until ``claim_until``): a process that dies holding it leaves it to
the next one once the lease has run out, and the move itself is made once by its
server id (``srv:clock:{seq}``) and the room's version.  A warning row is deleted as it
is claimed and becomes, in the same transaction, a ``deadline_near`` domain event of
the outbox (app/db/outbox.py): its subscriber (Web Push) is handed it at least once
whichever process dies, and tells it once by its own row per warning.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from app.rooms.domain.correspondence import MOVE, DeadlineSpec
from app.rooms.domain.outcomes import deadline_near
from app.rooms.store import DueDeadline

from .models import RoomDeadline, table_of
from .outage import outages_as_unavailable
from .outbox import write_events
from .store_base import StoreBase

ROWS = table_of(RoomDeadline)


def write_rows(conn: Connection, room_id: str, rows: Sequence[DeadlineSpec]) -> None:
    """Replace the room's rows with ``rows`` (in the caller's transaction)."""
    conn.execute(delete(ROWS).where(ROWS.c.room_id == room_id))
    if rows:
        conn.execute(
            insert(ROWS),
            [
                {
                    "room_id": room_id,
                    "kind": r.kind,
                    "seq": r.seq,
                    "seat": r.seat,
                    "due_ms": r.due_ms,
                    "by_bot": r.bot,
                    "claim_owner": None,
                    "claim_until": None,
                }
                for r in rows
            ],
        )


def _free(now_ms: int) -> ColumnElement[bool]:
    return (ROWS.c.claim_until.is_(None)) | (ROWS.c.claim_until < now_ms)


def _claim_sync(
    conn: Connection, owner: str, now_ms: int, until_ms: int, limit: int
) -> list[DueDeadline]:
    query = (
        select(ROWS.c.room_id, ROWS.c.kind, ROWS.c.seq, ROWS.c.seat, ROWS.c.due_ms)
        .where(ROWS.c.due_ms <= now_ms, _free(now_ms))
        .order_by(ROWS.c.due_ms)
        .limit(limit)
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    claimed: list[DueDeadline] = []
    for room_id, kind, seq, seat, due_ms in conn.execute(query).all():
        this = (
            (ROWS.c.room_id == room_id)
            & (ROWS.c.kind == kind)
            & (ROWS.c.seq == seq)
            & _free(now_ms)
        )
        if kind == MOVE:
            done = conn.execute(
                update(ROWS).where(this).values(claim_owner=owner, claim_until=until_ms)
            )
        else:
            done = conn.execute(delete(ROWS).where(this))
        if done.rowcount == 1:
            claimed.append(DueDeadline(room_id, kind, int(seq), int(seat), int(due_ms)))
    warned = [deadline_near(d.room_id, d.kind, d.seq, d.seat) for d in claimed if d.kind != MOVE]
    write_events(conn, warned, now_ms)
    return claimed


def _release_sync(
    conn: Connection, room_id: str, kind: str, seq: int, owner: str, until_ms: int | None
) -> None:
    conn.execute(
        update(ROWS)
        .where(
            ROWS.c.room_id == room_id,
            ROWS.c.kind == kind,
            ROWS.c.seq == seq,
            ROWS.c.claim_owner == owner,
        )
        .values(claim_owner=None, claim_until=until_ms)
    )


def _drop_sync(conn: Connection, room_id: str, kind: str, seq: int) -> None:
    conn.execute(
        delete(ROWS).where(ROWS.c.room_id == room_id, ROWS.c.kind == kind, ROWS.c.seq == seq)
    )


class DeadlineClaims(StoreBase):
    """The deadline half of ``RoomStore`` (app/rooms/store.py)."""

    @outages_as_unavailable
    async def claim_deadlines(
        self, owner: str, now_ms: int, until_ms: int, limit: int
    ) -> list[DueDeadline]:
        return await self._run_write(_claim_sync, owner, now_ms, until_ms, limit)

    @outages_as_unavailable
    async def release_deadline(
        self, room_id: str, kind: str, seq: int, owner: str, until_ms: int | None
    ) -> None:
        await self._run_write(_release_sync, room_id, kind, seq, owner, until_ms)

    @outages_as_unavailable
    async def drop_deadline(self, room_id: str, kind: str, seq: int) -> None:
        await self._run_write(_drop_sync, room_id, kind, seq)

    @outages_as_unavailable
    async def next_deadline(self) -> int | None:
        # a row under a claim is not due again before the claim runs out
        when = case((ROWS.c.claim_until > ROWS.c.due_ms, ROWS.c.claim_until), else_=ROWS.c.due_ms)
        async with self.sessions() as s:
            value = await s.scalar(select(func.min(when)))
        return int(value) if value is not None else None
