"""The bot ladder in SQL (app/ladder/store.py's ``LadderStore``).

"Stored once" is a lease in the pack's row: a pack is inserted (seed, table,
seatings) with its owner and lease before it is played, and finished by one
transaction that first marks the row finished only where this owner still holds it
unfinished (a conditional UPDATE: of two processes, one wins) and then writes every
result and deal.  A background pack's schedule slot is unique, so of the processes
that want the slot's pack one insert wins.  Only finished packs are ever read back
for publishing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from app.core.errors import Conflict
from app.ladder.play import PlayedDeal
from app.ladder.published import EntrantJson, PackJson, ResultJson
from app.ladder.records import plan_from
from app.ladder.schedule import PackPlan
from app.ladder.store import Claimed, StoredDeal

from .ladder_models import LadderDeal, LadderPack, LadderResult
from .models import table_of
from .outage import outages_as_unavailable
from .repository import RoomRepository
from .session import make_engine, make_sessionmaker, make_writer

PACKS = table_of(LadderPack)
RESULTS = table_of(LadderResult)
DEALS = table_of(LadderDeal)
FINISHED = PACKS.c.finished_ms.is_not(None)


def entrants_json(plan: PackPlan) -> list[EntrantJson]:
    return [{"entrant": e.id, "kind": e.kind} for e in plan.table]


def _pack_json(row: Any, results: list[ResultJson]) -> PackJson:
    return {
        "id": row.id,
        "seed": row.seed,
        "players": row.players,
        "rules": row.rules,
        "made_ms": row.made_ms,
        "finished_ms": row.finished_ms,
        "entrants": list(row.entrants),
        "seatings": list(row.seatings),
        "results": results,
    }


def _insert(conn: Connection, values: dict[str, object]) -> int:
    key = conn.execute(insert(PACKS).values(**values)).inserted_primary_key
    assert key is not None  # an INSERT of one row
    return int(key[0])


def _reclaim(conn: Connection, owner: str, now_ms: int, until_ms: int) -> Claimed | None:
    row = conn.execute(
        select(PACKS)
        .where(PACKS.c.finished_ms.is_(None), PACKS.c.lease_until < now_ms)
        .order_by(PACKS.c.id)
        .limit(1)
    ).first()
    if row is None:
        return None
    res = conn.execute(
        update(PACKS)
        .where(
            PACKS.c.id == row.id,
            PACKS.c.finished_ms.is_(None),
            PACKS.c.lease_until == row.lease_until,
        )
        .values(owner=owner, lease_until=until_ms)
    )
    return (
        Claimed(row.id, plan_from(row.seed, row.players, row.rules, row.entrants))
        if res.rowcount == 1
        else None
    )


def _finish(
    conn: Connection, pack_id: int, owner: str, deals: Sequence[PlayedDeal], now_ms: int
) -> bool:
    row = conn.execute(select(PACKS.c.seatings).where(PACKS.c.id == pack_id)).first()
    res = conn.execute(
        update(PACKS)
        .where(PACKS.c.id == pack_id, PACKS.c.owner == owner, PACKS.c.finished_ms.is_(None))
        .values(finished_ms=now_ms, owner=None, lease_until=None)
    )
    if res.rowcount != 1 or row is None:
        return False
    seatings: list[list[str]] = row.seatings
    conn.execute(
        insert(RESULTS),
        [
            {"pack_id": pack_id, "deal": d.index, "seat": seat, "entrant": entrant, "score": score}
            for d in deals
            for seat, (entrant, score) in enumerate(zip(seatings[d.index], d.totals, strict=True))
        ],
    )
    conn.execute(
        insert(DEALS),
        [
            {"pack_id": pack_id, "deal": d.index, "moves": d.moves, "scores": d.scores}
            for d in deals
        ],
    )
    return True


class LadderRows:
    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo

    @outages_as_unavailable
    async def tables_played(self, players: int) -> dict[tuple[str, ...], int]:
        q = select(PACKS.c.entrants).where(PACKS.c.players == players)
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
        played: dict[tuple[str, ...], int] = defaultdict(int)
        for row in rows:
            played[tuple(e["entrant"] for e in row.entrants)] += 1
        return dict(played)

    @outages_as_unavailable
    async def claim(
        self, plan: PackPlan, owner: str, now_ms: int, until_ms: int, slot: int | None
    ) -> int | None:
        values: dict[str, object] = {
            "seed": plan.seed,
            "players": plan.players,
            "rules": plan.rules.to_dict(),
            "entrants": entrants_json(plan),
            "seatings": plan.seatings(),
            "made_ms": now_ms,
            "slot": slot,
            "owner": owner,
            "lease_until": until_ms,
        }
        try:
            return await self.repo._run_write(_insert, values)
        except Conflict:
            if slot is None:
                raise
            return None  # another process made this slot's pack

    @outages_as_unavailable
    async def reclaim(self, owner: str, now_ms: int, until_ms: int) -> Claimed | None:
        return await self.repo._run_write(_reclaim, owner, now_ms, until_ms)

    @outages_as_unavailable
    async def renew(self, pack_id: int, owner: str, until_ms: int) -> bool:
        def run(conn: Connection) -> bool:
            res = conn.execute(
                update(PACKS)
                .where(PACKS.c.id == pack_id, PACKS.c.owner == owner, PACKS.c.finished_ms.is_(None))
                .values(lease_until=until_ms)
            )
            return res.rowcount == 1

        return await self.repo._run_write(run)

    @outages_as_unavailable
    async def finish(
        self, pack_id: int, owner: str, deals: Sequence[PlayedDeal], now_ms: int
    ) -> bool:
        return await self.repo._run_write(_finish, pack_id, owner, deals, now_ms)

    @outages_as_unavailable
    async def stamp(self) -> tuple[int, int]:
        q = select(func.count(), func.max(PACKS.c.finished_ms)).where(FINISHED)
        async with self.repo.sessions() as s:
            count, latest = (await s.execute(q)).one()
        return int(count), int(latest or 0)

    async def _with_results(self, q: Any, results_of: Any) -> list[PackJson]:
        async with self.repo.sessions() as s:
            rows = (await s.execute(q)).all()
            found = (
                await s.execute(
                    results_of.order_by(RESULTS.c.pack_id, RESULTS.c.deal, RESULTS.c.seat)
                )
            ).all()
        by_pack: dict[int, list[ResultJson]] = defaultdict(list)
        for r in found:
            by_pack[r.pack_id].append(
                {"deal": r.deal, "seat": r.seat, "entrant": r.entrant, "score": r.score}
            )
        return [_pack_json(row, by_pack[row.id]) for row in rows]

    @outages_as_unavailable
    async def finished(self, players: int) -> list[PackJson]:
        where = (FINISHED, PACKS.c.players == players)
        q = select(PACKS).where(*where).order_by(PACKS.c.id)
        ids = select(PACKS.c.id).where(*where)
        return await self._with_results(q, select(RESULTS).where(RESULTS.c.pack_id.in_(ids)))

    @outages_as_unavailable
    async def packs(self, after: int, limit: int) -> list[PackJson]:
        q = select(PACKS).where(FINISHED, PACKS.c.id > after).order_by(PACKS.c.id).limit(limit)
        ids = (
            select(PACKS.c.id).where(FINISHED, PACKS.c.id > after).order_by(PACKS.c.id).limit(limit)
        )
        return await self._with_results(
            q, select(RESULTS).where(RESULTS.c.pack_id.in_(ids.scalar_subquery()))
        )

    @outages_as_unavailable
    async def pack(self, pack_id: int) -> tuple[PackJson, list[StoredDeal]] | None:
        q = select(PACKS).where(FINISHED, PACKS.c.id == pack_id)
        found = await self._with_results(q, select(RESULTS).where(RESULTS.c.pack_id == pack_id))
        if not found:
            return None
        async with self.repo.sessions() as s:
            rows = (
                await s.execute(
                    select(DEALS).where(DEALS.c.pack_id == pack_id).order_by(DEALS.c.deal)
                )
            ).all()
        return found[0], [StoredDeal(r.deal, list(r.moves), list(r.scores)) for r in rows]


@asynccontextmanager
async def opened(url: str) -> AsyncIterator[LadderRows]:
    """The ladder's rows on the database at ``url`` (``krypkasino ladder``), closed on
    the way out."""
    engine = make_engine(url)
    writer = make_writer(url)
    try:
        yield LadderRows(RoomRepository(make_sessionmaker(engine), writer))
    finally:
        if writer is not None:
            writer.close()
        await engine.dispose()
