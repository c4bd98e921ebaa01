"""The coach's analysis rows (``app.coach.store.AnalysisStore``).

Claimed by one conditional UPDATE, as the room timer leases are (leases.py): a
row that is queued, or running under a lease that ran out, is taken by exactly
one of the processes that ask at once.  Progress and the result are written only
while the writer still holds the lease.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from app.coach.report import AnalysisJson
from app.coach.store import DONE, QUEUED, RUNNING, DealState, Key, PlaysSoFar, Stored
from app.rooms.domain.record_types import StoredDeal

from .models import AnalysisRow, DealRow, Room, table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository


def _stored(row: AnalysisRow) -> Stored:
    key = Key(row.room_id, row.match_no, row.deal_no)
    return Stored(key, row.status, row.seed, row.done, row.total, row.result)


def _where(key: Key) -> Any:
    t = table_of(AnalysisRow)
    return (
        (t.c.room_id == key.room_id) & (t.c.match_no == key.match_no) & (t.c.deal_no == key.deal_no)
    )


class AnalysisRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def deal_state(self, key: Key) -> DealState:
        async with self.repo.sessions() as s:
            scores = await s.execute(
                select(DealRow.scores).where(
                    DealRow.room_id == key.room_id,
                    DealRow.match_no == key.match_no,
                    DealRow.deal_no == key.deal_no,
                )
            )
            row = scores.first()
        if row is None:
            return "none"
        return "live" if row[0] is None else "over"

    async def deal_record(self, key: Key) -> StoredDeal | None:
        return await self.repo.deal_record(key.room_id, key.match_no, key.deal_no)

    @outages_as_unavailable
    async def get(self, key: Key) -> Stored | None:
        async with self.repo.sessions() as s:
            row = await s.get(AnalysisRow, (key.room_id, key.match_no, key.deal_no))
            return _stored(row) if row is not None else None

    @outages_as_unavailable
    async def enqueue(self, key: Key, seed: str, total: int, now_ms: int) -> bool:
        values = {
            "room_id": key.room_id,
            "match_no": key.match_no,
            "deal_no": key.deal_no,
            "status": QUEUED,
            "seed": seed,
            "done": 0,
            "total": total,
            "result": None,
            "queued_ms": now_ms,
        }
        async with self.repo.sessions.begin() as s:
            exists = await s.scalar(select(Room.id).where(Room.id == key.room_id))
            if exists is None:
                return False
            dialect = (await s.connection()).dialect.name
            insert = pg_insert if dialect == "postgresql" else sqlite_insert
            res = await s.execute(
                insert(table_of(AnalysisRow)).values(**values).on_conflict_do_nothing()
            )
            return bool(getattr(res, "rowcount", 0) == 1)

    @outages_as_unavailable
    async def queued_count(self) -> int:
        async with self.repo.sessions() as s:
            n = await s.scalar(
                select(func.count()).select_from(AnalysisRow).where(AnalysisRow.status != DONE)
            )
        return int(n or 0)

    @outages_as_unavailable
    async def claim(self, owner: str, now_ms: int, until_ms: int) -> Stored | None:
        t = table_of(AnalysisRow)
        claimable = (t.c.status == QUEUED) | ((t.c.status == RUNNING) & (t.c.lease_until < now_ms))
        for _ in range(3):  # another process may take the one picked: try the next
            async with self.repo.sessions.begin() as s:
                pick = (
                    await s.execute(
                        select(t.c.room_id, t.c.match_no, t.c.deal_no)
                        .where(claimable)
                        .order_by(t.c.queued_ms, t.c.room_id, t.c.match_no, t.c.deal_no)
                        .limit(1)
                    )
                ).first()
                if pick is None:
                    return None
                key = Key(pick[0], pick[1], pick[2])
                res = await s.execute(
                    update(t)
                    .where(_where(key), claimable)
                    .values(status=RUNNING, lease_owner=owner, lease_until=until_ms)
                )
                if getattr(res, "rowcount", 0) != 1:
                    continue
                row = await s.get(AnalysisRow, (key.room_id, key.match_no, key.deal_no))
                assert row is not None
                return _stored(row)
        return None

    @outages_as_unavailable
    async def progress(
        self, key: Key, owner: str, done: int, result: PlaysSoFar, until_ms: int
    ) -> bool:
        t = table_of(AnalysisRow)
        async with self.repo.sessions.begin() as s:
            res = await s.execute(
                update(t)
                .where(_where(key), t.c.status == RUNNING, t.c.lease_owner == owner)
                .values(done=done, result=result, lease_until=until_ms)
            )
            return bool(getattr(res, "rowcount", 0) == 1)

    @outages_as_unavailable
    async def finish(self, key: Key, owner: str, result: AnalysisJson) -> bool:
        t = table_of(AnalysisRow)
        async with self.repo.sessions.begin() as s:
            res = await s.execute(
                update(t)
                .where(_where(key), t.c.status == RUNNING, t.c.lease_owner == owner)
                .values(
                    status=DONE,
                    done=t.c.total,
                    result=result,
                    lease_owner=None,
                    lease_until=None,
                )
            )
            return bool(getattr(res, "rowcount", 0) == 1)

    @outages_as_unavailable
    async def release(self, owner: str) -> None:
        t = table_of(AnalysisRow)
        async with self.repo.sessions.begin() as s:
            await s.execute(
                update(t)
                .where(t.c.status == RUNNING, t.c.lease_owner == owner)
                .values(status=QUEUED, lease_owner=None, lease_until=None)
            )
