"""The coach's analysis rows on SQLite and PostgreSQL: queued once, claimed by one
owner at a time, taken over when a lease runs out, written only by their owner, and
purged with their room."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from app.coach.store import DONE, QUEUED, RUNNING, Key
from app.db.analyses import AnalysisRows
from app.db.migrate import upgrade
from app.db.purge import purge
from app.db.repository import RoomRepository, Written
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import SEAT
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async

ROOM = "c" * 32


async def _rows(url: str) -> tuple[AnalysisRows, RoomRepository, object]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    state = RoomState(ROOM, "COACH1", 2, RuleSet(), RoomOptions())
    await repo.create_room(state)
    ev = stored_event(1, SEAT, seat=0, data={"name": "Ann"})
    state.apply(ev)
    await repo.commit_events(ROOM, 0, state.status, [Written(ev)])
    return AnalysisRows(repo), repo, engine


def test_an_analysis_is_queued_once_and_claimed_by_one_owner(database_url: str) -> None:
    async def check() -> None:
        rows, repo, engine = await _rows(database_url)
        key = Key(ROOM, 1, 1)
        assert await rows.enqueue(key, "1", 40, 1000)
        assert not await rows.enqueue(key, "1", 40, 2000)  # already there
        assert not await rows.enqueue(Key("d" * 32, 1, 1), "1", 40, 1000)  # no such room
        assert await rows.queued_count() == 1
        claims = await asyncio.gather(*(rows.claim(f"p{i}", 5000, 9000) for i in range(4)))
        won = [c for c in claims if c is not None]
        assert len(won) == 1 and won[0].status == RUNNING and won[0].total == 40
        owner = f"p{claims.index(won[0])}"
        other = "p9"
        assert await rows.claim(other, 6000, 9000) is None  # the lease holds
        assert not await rows.progress(key, other, 4, {"plays": []}, 12000)
        assert await rows.progress(key, owner, 4, {"plays": [{"index": 0}]}, 12000)
        taken = await rows.claim(other, 12001, 20000)  # the owner stopped renewing
        assert taken is not None and taken.done == 4 and taken.result == {"plays": [{"index": 0}]}
        assert not await rows.progress(key, owner, 8, {"plays": []}, 30000)  # it lost it
        assert not await rows.finish(key, owner, {"status": "done"})
        assert await rows.finish(key, other, {"status": "done"})
        got = await rows.get(key)
        assert got is not None and got.status == DONE and got.done == 40
        assert await rows.queued_count() == 0
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


def test_a_stopping_owner_gives_its_analyses_back(database_url: str) -> None:
    async def check() -> None:
        rows, repo, engine = await _rows(database_url)
        key = Key(ROOM, 1, 2)
        await rows.enqueue(key, "1", 10, 1000)
        assert await rows.claim("a", 2000, 99_000) is not None
        await rows.release("a")
        got = await rows.get(key)
        assert got is not None and got.status == QUEUED
        again = await rows.claim("b", 3000, 99_000)  # at once, not when the lease ends
        assert again is not None and again.key == key
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


def test_analyses_are_purged_with_their_room(database_url: str) -> None:
    async def check() -> None:
        rows, repo, engine = await _rows(database_url)
        await rows.enqueue(Key(ROOM, 1, 1), "1", 10, 1000)
        old = datetime.now(UTC) - timedelta(days=30)
        async with repo.sessions.begin() as s:
            await s.execute(
                text("UPDATE rooms SET status = 'finished', updated_at = :t WHERE id = :r"),
                {"t": old, "r": ROOM},
            )
        gone = await purge(repo, datetime.now(UTC) - timedelta(days=1), "purge")
        assert [g.room_id for g in gone] == [ROOM]
        assert await rows.get(Key(ROOM, 1, 1)) is None
        assert await rows.deal_state(Key(ROOM, 1, 1)) == "none"
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())
