"""Removing finished rooms, and the tombstones they leave (``krypkasino purge``,
RETENTION_DAYS).

A room goes when its match is finished and its last change (``updated_at``,
moved by every committed event) is older than a cutoff; with it go its seats,
events, deals and matches, and a ``purged_rooms`` row stays to say when.

Each room is deleted by its id *and the seq its rows were counted at*, still
finished and still older than the cutoff, so what is reported is exactly what
went: a room that a rematch or a close moved on in the meantime stays, whole.
That check also makes concurrent purges safe (several server processes on one
PostgreSQL, or the command next to a running server): a room's row is deleted
by one transaction only, so it gets one tombstone.  On PostgreSQL the sweeps
also take a transaction-level advisory lock, so that one process does the work
while the others skip a turn instead of waiting on its row locks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict

from sqlalchemy import delete, func, insert, select, text
from sqlalchemy.engine import Connection

from .base import utc_now as _now
from .models import DealRow, Event, MatchRow, PurgedRoom, Room, Seat, table_of
from .repository import RoomRepository

CHILDREN = (table_of(Seat), table_of(Event), table_of(DealRow), table_of(MatchRow))
SWEEP_LOCK = 0x6B72_7970_7572_6765  # "krypurge": the advisory lock key of a sweep
FINISHED = "finished"


class PurgeItemJson(TypedDict):
    """A room that would go (or went), as ``krypkasino purge --json`` prints it."""

    room_id: str
    code: str
    players: int
    finished_at: str
    seats: int
    events: int
    deals: int
    matches: int


@dataclass(frozen=True, slots=True)
class PurgeItem:
    """One finished room, with what would go (or went) with it."""

    room_id: str
    code: str
    players: int
    seq: int
    finished_at: datetime
    seats: int
    events: int
    deals: int
    matches: int

    def to_dict(self) -> PurgeItemJson:
        return {
            "room_id": self.room_id,
            "code": self.code,
            "players": self.players,
            "finished_at": self.finished_at.isoformat(),
            "seats": self.seats,
            "events": self.events,
            "deals": self.deals,
            "matches": self.matches,
        }


def utc(when: datetime) -> datetime:
    """SQLite returns naive datetimes: everything this app stores is UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _count(table: Any) -> Any:
    return (
        select(func.count())
        .select_from(table)
        .where(table.c.room_id == Room.id)
        .correlate(table_of(Room))
        .scalar_subquery()
    )


def _candidates(cutoff: datetime, limit: int | None) -> Any:
    stmt = (
        select(
            Room.id,
            Room.code,
            Room.players,
            Room.seq,
            Room.updated_at,
            *(_count(t) for t in CHILDREN),
        )
        .where(Room.status == FINISHED, Room.updated_at < cutoff)
        .order_by(Room.updated_at, Room.id)
    )
    return stmt.limit(limit) if limit is not None else stmt


def _item(row: Any) -> PurgeItem:
    room_id, code, players, seq, updated, seats, events, deals, matches = row
    return PurgeItem(room_id, code, players, seq, utc(updated), seats, events, deals, matches)


def _purge_sync(conn: Connection, cutoff: datetime, reason: str, limit: int) -> list[PurgeItem]:
    """One batch in one transaction: count, delete each room still as counted, bury it."""
    if conn.dialect.name == "postgresql":
        locked = conn.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": SWEEP_LOCK})
        if not locked.scalar():
            return []  # another process is sweeping right now
    gone: list[PurgeItem] = []
    for item in (_item(r) for r in conn.execute(_candidates(cutoff, limit)).all()):
        res = conn.execute(
            delete(table_of(Room)).where(
                Room.id == item.room_id,
                Room.seq == item.seq,
                Room.status == FINISHED,
                Room.updated_at < cutoff,
            )
        )
        if res.rowcount != 1:
            continue  # moved on since it was counted, or another process took it
        for table in CHILDREN:  # the foreign keys cascade; this is for SQLite without them
            conn.execute(delete(table).where(table.c.room_id == item.room_id))
        gone.append(item)
    if gone:
        now = _now()
        conn.execute(
            insert(table_of(PurgedRoom)),
            [
                {
                    "id": g.room_id,
                    "code": g.code,
                    "finished_at": g.finished_at,
                    "purged_at": now,
                    "reason": reason,
                }
                for g in gone
            ],
        )
    return gone


async def _write(repo: RoomRepository, fn: Callable[..., Any], *args: Any) -> Any:
    """Run a write transaction the way the repository does (SQLite: on its writer thread)."""
    if repo.writer is not None:
        return await repo.writer.run(fn, *args)
    async with repo.sessions.begin() as s:
        conn = await s.connection()
        return await conn.run_sync(fn, *args)


async def purgeable(
    repo: RoomRepository, cutoff: datetime, limit: int | None = None
) -> list[PurgeItem]:
    """The finished rooms last changed before ``cutoff`` (what a purge would remove)."""
    async with repo.sessions() as s:
        return [_item(r) for r in (await s.execute(_candidates(cutoff, limit))).all()]


async def purge(
    repo: RoomRepository, cutoff: datetime, reason: str, batch: int = 100
) -> list[PurgeItem]:
    """Remove the finished rooms last changed before ``cutoff``, ``batch`` rooms per
    transaction (a SQLite server's moves wait for one batch at most); returns them."""
    gone: list[PurgeItem] = []
    while True:
        done: Sequence[PurgeItem] = await _write(repo, _purge_sync, cutoff, reason, batch)
        gone.extend(done)
        if len(done) < batch:
            return gone
