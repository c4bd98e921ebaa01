"""Claiming ``room_deadlines`` rows on real SQLite and PostgreSQL
(app/db/deadline_claims.py): every due row is claimed by one process only, also when
several claim at the same moment, and a claim a dead process left behind keeps the row
until it runs out, then anyone may claim it (issue 48: only the slow server tests
noticed a claim race or a crashed process's claim); a warning becomes its domain event
as it is claimed."""

from __future__ import annotations

import asyncio
import contextlib

from sqlalchemy import insert, select

from app.core.outbox import DEADLINE_NEAR
from app.db.deadlines import MOVE, WARN_1
from app.db.models import RoomDeadline, table_of
from app.db.repository import RoomRepository
from app.engine.rules import RuleSet
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import open_store, run_async
from tests.db.test_push import ANN, BO, seated_room

ROWS = table_of(RoomDeadline)


async def due_rows(repo: RoomRepository, room: str, seqs: range, kind: str = MOVE) -> None:
    """One row of ``kind`` per seq, all due at 1,000 ms."""
    async with repo.sessions.begin() as s:
        await s.execute(
            insert(ROWS),
            [
                {"room_id": room, "kind": kind, "seq": q, "seat": q % 2, "due_ms": 1_000}
                for q in seqs
            ],
        )


async def rooms_each_due(repo: RoomRepository, n: int) -> list[str]:
    """``n`` rooms, each with one ``move`` row due at 1,000 ms (a room has one row of
    each kind at most)."""
    ids = [f"{i:032d}" for i in range(n)]
    for i, rid in enumerate(ids):
        await repo.create_room(RoomState(rid, f"C{i:05d}", 2, RuleSet(), RoomOptions()))
    async with repo.sessions.begin() as s:
        await s.execute(
            insert(ROWS),
            [{"room_id": r, "kind": MOVE, "seq": 5, "seat": 0, "due_ms": 1_000} for r in ids],
        )
    return ids


async def claims_of(repo: RoomRepository) -> dict[int, tuple[str | None, int | None]]:
    async with repo.sessions() as s:
        rows = await s.execute(select(ROWS.c.seq, ROWS.c.claim_owner, ROWS.c.claim_until))
        return {int(q): (owner, until) for q, owner, until in rows.all()}


async def owners_by_room(repo: RoomRepository) -> dict[str, str | None]:
    async with repo.sessions() as s:
        rows = await s.execute(select(ROWS.c.room_id, ROWS.c.claim_owner))
        return {str(r): owner for r, owner in rows.all()}


def test_processes_claiming_at_once_each_get_other_rows(database_url: str) -> None:
    """Three stores on one database (three processes) claim the same 60 due rows (of
    60 rooms) at the same moment, a few at a time: each is claimed once, by one of them."""

    async def check() -> None:
        async with contextlib.AsyncExitStack() as stack:
            stores = [await stack.enter_async_context(open_store(database_url)) for _ in "abc"]
            rooms = await rooms_each_due(stores[0], 60)

            async def claim_all(store: RoomRepository, owner: str) -> list[str]:
                mine: list[str] = []
                while batch := await store.claim_deadlines(owner, 2_000, 60_000, 4):
                    mine += [d.room_id for d in batch]
                return mine

            got = await asyncio.gather(*(claim_all(s, n) for s, n in zip(stores, "abc")))
            every = [r for mine in got for r in mine]
            assert sorted(every) == rooms, "each row claimed exactly once"
            owners = await owners_by_room(stores[0])
            for name, mine in zip("abc", got, strict=True):
                assert all(owners[r] == name for r in mine), "stored as its own"

    run_async(check())


def test_a_dead_processes_claim_holds_the_row_until_it_runs_out(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as a, open_store(database_url) as b:
            room = await seated_room(a, [ANN, BO])
            await due_rows(a, room, range(7, 8))
            (claimed,) = await a.claim_deadlines("a", 2_000, 5_000, 10)
            assert (claimed.room_id, claimed.seq) == (room, 7)
            # A dies holding it: nobody else takes it while the claim lasts ...
            assert await b.claim_deadlines("b", 4_999, 9_000, 10) == []
            assert await b.next_deadline() == 5_000, "due again when the claim runs out"
            # ... nor may anyone but its owner give it back
            await b.release_deadline(room, MOVE, 7, "b", None)
            assert (await claims_of(a))[7] == ("a", 5_000)
            # once it has run out, B claims it, once
            (again,) = await b.claim_deadlines("b", 5_001, 9_000, 10)
            assert again.seq == 7
            assert await a.claim_deadlines("a", 5_002, 9_000, 10) == []
            assert (await claims_of(a))[7] == ("b", 9_000)

    run_async(check())


def test_a_warning_row_goes_with_its_claim_and_a_released_move_comes_back(
    database_url: str,
) -> None:
    """A warning is claimed once: claiming it deletes it and stores, in the same
    transaction, its ``deadline_near`` domain event for the outbox to hand to Web Push
    (at least once, whichever process dies next).  A move given back unfired (the
    database refused the move) is due again at the time its owner sets."""

    async def check() -> None:
        async with open_store(database_url) as a, open_store(database_url) as b:
            room = await seated_room(a, [ANN, BO])
            await due_rows(a, room, range(3, 4), kind=WARN_1)
            await due_rows(a, room, range(4, 5))
            claimed = await a.claim_deadlines("a", 2_000, 5_000, 10)
            assert sorted((d.kind, d.seq) for d in claimed) == [(MOVE, 4), (WARN_1, 3)]
            assert set(await claims_of(a)) == {4}, "the warning's row is gone"
            events = await a.claim_events("x", 2_000, 9_000, 50)
            warned = [(e.room_id, e.body) for e in events if e.kind == DEADLINE_NEAR]
            assert warned == [(room, {"seq": 3, "seat": 1, "hours": 1})]
            assert all(e.created_ms == 2_000 for e in events if e.kind == DEADLINE_NEAR)
            await a.release_deadline(room, MOVE, 4, "a", 3_000)
            assert await b.claim_deadlines("b", 2_999, 9_000, 10) == []
            (move,) = await b.claim_deadlines("b", 3_001, 9_000, 10)
            assert (move.kind, move.seq) == (MOVE, 4)

    run_async(check())
