"""Read-only queries for operators (``krypkasino rooms``, the admin stats): rooms as
rows of the database, without replaying them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import case, func, select

from .models import PurgedRoom, Room, Seat
from .purge import utc
from .repository import RoomRepository

STATUSES = ("waiting", "playing", "finished")


class RoomRowJson(TypedDict):
    """A room row as ``krypkasino rooms --json`` and the admin pages print it."""

    room_id: str
    code: str
    status: str
    players: int
    seated: int
    bots: int
    seq: int
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class RoomRow:
    room_id: str
    code: str
    status: str
    players: int
    seated: int
    """Seats taken (by people or bots)."""
    bots: int
    seq: int
    created_at: datetime
    updated_at: datetime
    """The last change: the time of the room's latest event."""

    def to_dict(self) -> RoomRowJson:
        return {
            "room_id": self.room_id,
            "code": self.code,
            "status": self.status,
            "players": self.players,
            "seated": self.seated,
            "bots": self.bots,
            "seq": self.seq,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }


def _rows_stmt() -> Any:
    seated = func.count(Seat.name)
    bots = func.coalesce(func.sum(case((Seat.bot.is_(True), 1), else_=0)), 0)
    return (
        select(
            Room.id,
            Room.code,
            Room.status,
            Room.players,
            seated,
            bots,
            Room.seq,
            Room.created_at,
            Room.updated_at,
        )
        .join(Seat, Seat.room_id == Room.id, isouter=True)
        .group_by(
            Room.id,
            Room.code,
            Room.status,
            Room.players,
            Room.seq,
            Room.created_at,
            Room.updated_at,
        )
    )


def _row(r: Any) -> RoomRow:
    return RoomRow(r[0], r[1], r[2], r[3], int(r[4]), int(r[5]), r[6], utc(r[7]), utc(r[8]))


async def list_rooms(
    repo: RoomRepository, statuses: Sequence[str] = STATUSES, limit: int = 200
) -> list[RoomRow]:
    """Rooms with these statuses, the most recently changed first."""
    stmt = (
        _rows_stmt()
        .where(Room.status.in_(list(statuses)))
        .order_by(Room.updated_at.desc(), Room.id)
        .limit(limit)
    )
    async with repo.sessions() as s:
        return [_row(r) for r in (await s.execute(stmt)).all()]


async def room_row(repo: RoomRepository, room_id: str) -> RoomRow | None:
    async with repo.sessions() as s:
        r = (await s.execute(_rows_stmt().where(Room.id == room_id))).first()
    return _row(r) if r is not None else None


async def status_counts(repo: RoomRepository) -> dict[str, int]:
    """Rooms in the database by status, plus ``purged`` (tombstones)."""
    async with repo.sessions() as s:
        rows = (await s.execute(select(Room.status, func.count()).group_by(Room.status))).all()
        purged = await s.scalar(select(func.count()).select_from(PurgedRoom))
    out = {status: 0 for status in STATUSES}
    out.update({status: int(n) for status, n in rows})
    out["purged"] = int(purged or 0)
    return out
