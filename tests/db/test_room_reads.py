"""The reading half of the room store on real SQLite and PostgreSQL: what the service
asks of it besides a replay (a purged room, the seqs it is behind on, the rooms to
resume at start, a seat's token, an event's time). Found by mutation testing: only
the server process tests read these back before."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert

from app.db.migrate import upgrade
from app.db.models import PurgedRoom, table_of
from app.db.repository import RoomRepository, Written
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.rooms.domain.errors import RoomPurged
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import PLAY, SEAT, RoomEvent
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import run_async


async def _repo(url: str) -> tuple[RoomRepository, object]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    return RoomRepository(make_sessionmaker(engine), make_writer(url)), engine


async def _room(repo: RoomRepository, letter: str, status: str, events: int = 1) -> RoomState:
    """A 2-player room whose first seat is taken, then stored with ``status`` after
    ``events`` seat events (seq = events)."""
    state = RoomState(letter * 32, (letter * 6).upper(), 2, RuleSet(), RoomOptions())
    await repo.create_room(state)
    written = [
        Written(stored_event(seq, SEAT, seat=0, data={"name": f"P{seq}"}, at=1_000 + seq))
        for seq in range(1, events + 1)
    ]
    for w in written:
        state.apply(w.event)
    await repo.commit_events(state.room_id, 0, status, written)
    return state


def test_a_purged_room_says_when_and_an_unknown_room_is_none(database_url: str) -> None:
    async def check() -> None:
        repo, engine = await _repo(database_url)
        finished = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
        purged = finished + timedelta(days=40)
        async with engine.begin() as conn:  # type: ignore[attr-defined]
            await conn.execute(
                insert(table_of(PurgedRoom)).values(
                    id="p" * 32,
                    code="PPPPPP",
                    finished_at=finished,
                    purged_at=purged,
                    reason="retention",
                )
            )
        with pytest.raises(RoomPurged) as gone:
            await repo.load_state("p" * 32)
        assert (gone.value.room_id, gone.value.finished_at, gone.value.purged_at) == (
            "p" * 32,
            finished,
            purged,
        )
        assert gone.value.days == 40
        assert await repo.load_state("q" * 32) is None
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


def test_the_stored_seqs_of_the_rooms_asked_for(database_url: str) -> None:
    async def check() -> None:
        repo, engine = await _repo(database_url)
        a = await _room(repo, "a", "waiting", events=1)
        b = await _room(repo, "b", "waiting", events=2)
        await _room(repo, "c", "waiting", events=1)
        assert await repo.room_seqs([]) == {}
        assert await repo.room_seqs([a.room_id, b.room_id, "z" * 32]) == {
            a.room_id: 1,
            b.room_id: 2,
        }
        assert await repo.room_seqs((b.room_id,)) == {b.room_id: 2}
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


def test_the_unfinished_rooms_are_all_but_the_finished(database_url: str) -> None:
    """What a process resumes at start: a waiting and a playing room, not a finished one."""

    async def check() -> None:
        repo, engine = await _repo(database_url)
        waiting = await _room(repo, "a", "waiting")
        playing = await _room(repo, "b", "playing")
        await _room(repo, "c", "finished")
        assert sorted(await repo.unfinished_room_ids()) == [waiting.room_id, playing.room_id]
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


def test_a_token_finds_its_seat_in_its_room_only(database_url: str) -> None:
    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = RoomState("a" * 32, "AAAAAA", 2, RuleSet(), RoomOptions())
        await repo.create_room(state)
        other = RoomState("b" * 32, "BBBBBB", 2, RuleSet(), RoomOptions())
        await repo.create_room(other)
        seats = [
            Written(stored_event(1, SEAT, seat=0, data={"name": "Ann"}), token_hash="h0"),
            Written(stored_event(2, SEAT, seat=1, data={"name": "Bo"}), token_hash="h1"),
        ]
        await repo.commit_events(state.room_id, 0, "waiting", seats)
        assert await repo.seat_for_token(state.room_id, "h0") == 0
        assert await repo.seat_for_token(state.room_id, "h1") == 1
        assert await repo.seat_for_token(state.room_id, "h2") is None
        assert await repo.seat_for_token(other.room_id, "h1") is None
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())


@pytest.fixture
def far_from_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process's local zone five hours behind UTC (SQLite gives a stored time back
    without its zone: read as local time it would be five hours off)."""
    monkeypatch.setenv("TZ", "EST+05")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_events_after_a_seq_in_order_and_their_times(database_url: str, far_from_utc: None) -> None:
    """Strictly after the seq, in seq order; an event written without its time (``at``
    0, as before it was recorded) reads back with the time its row was written, in UTC
    whatever the server's zone."""
    assert time.timezone == 5 * 3600, os.environ["TZ"]

    async def check() -> None:
        repo, engine = await _repo(database_url)
        state = await _room(repo, "a", "waiting", events=2)
        before = int(time.time() * 1000) - 1_000
        later: list[RoomEvent] = [
            stored_event(3, PLAY, seat=0, card="AS", client_id="0:x", at=7_000),
            stored_event(4, PLAY, seat=1, card="2H", client_id="1:y"),
        ]
        await repo.commit_events(state.room_id, 2, "waiting", [Written(e) for e in later])
        after = int(time.time() * 1000) + 1_000
        got = await repo.events_after(state.room_id, 2)
        assert [e.seq for e in got] == [3, 4]
        assert [e.body for e in got] == [e.body for e in later]
        assert got[0].at == 7_000
        assert before <= got[1].at <= after, "the row's own time, read as UTC"
        assert [e.at for e in await repo.events_after(state.room_id, 0)][:2] == [1_001, 1_002]
        assert await repo.events_after(state.room_id, 4) == []
        await engine.dispose()  # type: ignore[attr-defined]

    run_async(check())
