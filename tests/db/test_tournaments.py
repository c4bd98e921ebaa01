"""The tournaments' store on real SQLite and PostgreSQL (app/db/tournaments.py): every
step that moves an event on happens once however many processes try it at the same
moment (two stores on one database are two processes), and a refused step changes
nothing.  The rules that decide what follows are app/tournaments/progress.py's."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable
from functools import partial
from typing import Any

import pytest

from app.core.errors import ServiceError
from app.db.tournaments import TournamentRows
from app.tournaments.plan import EventPlan
from app.tournaments.progress import advance, first_tables
from app.tournaments.service import board_hash
from app.tournaments.store import NewEvent
from tests.conftest import open_store, run_async
from tests.server.process import sql

PEOPLE = [f"acct{n:028d}" for n in range(4)]


def event(tid: str, fmt: str = "duplicate", cap: int = 8) -> NewEvent:
    plan = EventPlan(fmt, 2, boards=2, rounds=2, cap=cap)  # type: ignore[arg-type]
    seeds = [f"seed{n}" for n in range(2)] if fmt == "duplicate" else []
    return NewEvent(
        tid,
        "Tuesday",
        None,
        PEOPLE[0],
        "p0",
        plan,
        "draw",
        1000,
        None,
        [(s, board_hash(s)) for s in seeds],
    )


def second(url: str, one: Any, two: Any) -> TournamentRows:
    """Another process's store on PostgreSQL; on SQLite (one server process, one writer)
    the same store, its steps still racing on the event loop."""
    return TournamentRows(one if url.startswith("sqlite") else two)


async def refused(pending: Awaitable[Any]) -> str:
    with pytest.raises(ServiceError) as caught:
        await pending
    return str(caught.value.code)


async def started(rows: TournamentRows, tid: str) -> None:
    await rows.create(event(tid), 5)
    for n, who in enumerate(PEOPLE):
        await rows.register(tid, who, f"p{n}", 2000 + n, False, 10)
    assert await rows.start(tid, 3000, first_tables)


def test_an_event_starts_once_and_its_tables_are_claimed_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = TournamentRows(one), second(database_url, one, two)
            await a.create(event("t1"), 5)
            for n, who in enumerate(PEOPLE):
                await a.register("t1", who, f"p{n}", 2000 + n, False, 10)
            wins = await asyncio.gather(
                a.start("t1", 3000, first_tables), b.start("t1", 3000, first_tables)
            )
            assert sorted(wins) == [False, True]
            claims = await asyncio.gather(
                a.claim_tables(4000, 34000, 20), b.claim_tables(4000, 34000, 20)
            )
            claimed = [(t.table.stage, t.table.table_no) for c in claims for t in c]
            assert sorted(claimed) == [(1, 1), (1, 2)], "each table by one process"
            assert await a.claim_tables(5000, 35000, 20) == [], "a live claim holds"
            again = await b.claim_tables(34001, 64001, 20)
            assert len(again) == 2, "a lapsed claim is taken by another"
            assert again[0].board_seed == "seed0"
            assert await a.set_room("t1", 1, 1, "r" * 32)
            assert not await b.set_room("t1", 1, 1, "s" * 32), "a table's room once"
            snap = await a.snapshot("t1")
            assert snap is not None
            assert [t.room_id for t in snap.tables] == ["r" * 32, None]

    run_async(check())


def test_a_tables_results_count_once_however_often_they_are_told(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = TournamentRows(one), second(database_url, one, two)
            await started(a, "t2")
            await a.claim_tables(4000, 34000, 20)
            room = "a" * 32
            assert await a.set_room("t2", 1, 1, room)
            totals = [(0, 7, False), (1, 3, False)]
            told = await asyncio.gather(
                *(s.table_done(room, 1, totals, 5000, advance) for s in (a, b, a, b))
            )
            assert told.count("t2") == 1 and told.count(None) == 3
            assert await a.table_done(room, 2, totals, 6000, advance) is None, "a rematch"
            assert await a.table_done("b" * 32, 1, totals, 6000, advance) is None, "no table"
            rows = sql(database_url, "SELECT stage, table_no, seat, total FROM tournament_results")
            assert sorted(rows) == [(1, 1, 0, 7), (1, 1, 1, 3)]
            snap = await b.snapshot("t2")
            assert snap is not None
            made = sorted((t.stage, t.table_no) for t in snap.tables)
            assert made == [(1, 1), (1, 2), (2, 1)], "that table's next board, once"

    run_async(check())


def test_the_cap_holds_when_many_register_at_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one:
            a = TournamentRows(one)  # on PostgreSQL, concurrent transactions of its pool
            await a.create(event("t3", cap=3), 5)
            who = [f"acct{n:028d}" for n in range(10, 18)]
            outcomes = await asyncio.gather(
                *(a.register("t3", w, f"q{n}", 2000, False, 10) for n, w in enumerate(who)),
                return_exceptions=True,
            )
            refusals = [str(o.code) for o in outcomes if isinstance(o, ServiceError)]
            assert len(refusals) == 5 and set(refusals) == {"tournament_full"}, outcomes
            counted = sql(database_url, "SELECT entrants FROM tournaments WHERE id = 't3'")
            assert counted == [(3,)]
            assert await refused(a.register("t3", who[0], "q0", 2000, False, 10)) in (
                "already_registered",
                "tournament_full",
            )
            assert await refused(a.withdraw("t3", "nobody" * 5, 2000)) == "not_registered"
            assert sql(database_url, "SELECT count(*) FROM tournament_entries") == [(3,)]

    run_async(check())


async def round_one_played(rows: TournamentRows, tid: str, plan: EventPlan) -> list[str]:
    """A Swiss event of PEOPLE at tables of two, started at 3000, its round-1 rooms
    made: the rooms, in table order."""
    made = dataclasses.replace(event(tid, "swiss"), plan=plan)
    await rows.create(made, 5)
    for n, who in enumerate(PEOPLE):
        await rows.register(tid, who, f"p{n}", 2000 + n, False, 10)
    assert await rows.start(tid, 3000, first_tables)
    rooms = []
    for t in await rows.claim_tables(4000, 34000, 20):
        room = f"{tid}{t.table.table_no}".ljust(32, "x")
        assert await rows.set_room(tid, 1, t.table.table_no, room)
        rooms.append(room)
    return sorted(rooms)


def round_two(snap: Any) -> list[tuple[int, int]]:
    return sorted((t.stage, t.table_no) for t in snap.tables if t.stage == 2)


def test_a_rounds_last_two_tables_ending_at_once_in_two_processes_seat_the_next_once(
    database_url: str,
) -> None:
    """Round 1's two tables end at the same moment, one in each process: each
    transaction sees the other's table as done only once it has committed (the event's
    row is locked first), so round 2 is seated, and seated once."""

    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = TournamentRows(one), second(database_url, one, two)
            plan = EventPlan("swiss", 2, rounds=2)
            first, last = await round_one_played(a, "t4", plan)
            totals = [(0, 7, False), (1, 3, False)]
            await asyncio.gather(
                a.table_done(first, 1, totals, 5000, advance),
                b.table_done(last, 1, totals, 5000, advance),
            )
            snap = await a.snapshot("t4")
            assert snap is not None
            assert round_two(snap) == [(2, 1), (2, 2)], "round 2, once"
            assert snap.event.stage == 2

    run_async(check())


def test_a_round_at_a_set_time_is_seated_at_that_time_once(database_url: str) -> None:
    """Rounds 5 minutes apart from the start (3000): round 1 over at 5000, round 2
    waits; a step before its time changes nothing; at its time the loops of two
    processes both try, and it is seated once."""

    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = TournamentRows(one), second(database_url, one, two)
            plan = EventPlan("swiss", 2, rounds=2, round_minutes=5)
            due = 3000 + 5 * 60_000
            first, last = await round_one_played(a, "t5", plan)
            totals = [(0, 2, False), (1, 9, False)]
            for room in (first, last):
                assert await a.table_done(room, 1, totals, 5000, partial(advance, now_ms=5000))
            snap = await a.snapshot("t5")
            assert snap is not None and round_two(snap) == [] and snap.event.stage == 1
            early = partial(advance, now_ms=due - 1)
            assert not await b.step("t5", due - 1, early), "before its time: nothing"
            on_time = partial(advance, now_ms=due)
            steps = await asyncio.gather(a.step("t5", due, on_time), b.step("t5", due, on_time))
            assert sorted(steps) == [False, True]
            snap = await b.snapshot("t5")
            assert snap is not None and round_two(snap) == [(2, 1), (2, 2)]

    run_async(check())
