"""The room service keeping rooms in memory only while they are used (on a real database).

A long-running server must not hold every room it ever served: an idle room
leaves memory and is rebuilt from its stored events when next used, exactly
as it was, even by a coroutine that fetched the room just before it left.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.broker import MemoryBroker
from app.db.migrate import upgrade
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.rooms.memory import MemoryStore
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from app.rooms.state import RoomOptions
from tests.conftest import _fresh_postgres, run_async

LATER = 10_000.0
"""Seconds to add to the clock so that every room counts as idle for long enough."""


class Inbox:
    """A connection's outgoing side, as the WebSocket endpoint gives the hub one."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int) -> None:
        pass


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Where the service keeps its rooms: in memory, or a fresh database of each kind."""
    if request.param == "memory":
        yield "memory"
    elif request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/krypkasino.db"
    else:
        yield from _fresh_postgres()


async def _service(url: str) -> tuple[RoomService, Any]:
    settings = ServiceSettings(default_bot_delay=0, idle_evict=60)
    if url == "memory":
        return RoomService(MemoryStore(), MemoryBroker(), settings), None
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    return RoomService(repo, MemoryBroker(), settings), engine


async def _close(service: RoomService, engine: Any) -> None:
    await service.stop()
    writer = getattr(service.repo, "writer", None)
    if writer is not None:
        writer.close()
    if engine is not None:
        await engine.dispose()


async def evicted_room_comes_back_as_it_was(url: str) -> None:
    service, engine = await _service(url)
    try:
        # a room waiting for its third player: no timer runs for it
        room = await service.create_room(3, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0))
        rid = room["room_id"]
        await service.join(rid, "Bo")
        before = service.rooms[rid]
        view_before = before.state.view(0)
        assert service.evict_idle() == []  # not idle for long enough yet
        assert service.evict_idle(before.idle_since + LATER) == [rid]
        assert rid not in service.rooms and before.evicted
        # the next use reloads it from the stored events, identical
        summary = await service.summary(rid)
        again = service.rooms[rid]
        assert again is not before
        assert again.state.seq == before.state.seq
        assert again.state.view(0) == view_before
        assert [s["name"] for s in summary["seats"]] == ["Ann", "Bo", None]
        # and the game goes on: the last seat starts the match, a move is played
        await service.join(rid, "Cy")
        assert again.state.status == "playing"
        seat = again.state.to_move
        move = again.state.view(seat)["legal"][0]
        seq = again.state.seq
        ack = await service.play(rid, seat, "m1", move["card"], move["take"])
        assert ack == {"seq": seq + 1, "duplicate": False}
    finally:
        await _close(service, engine)


def test_an_evicted_room_comes_back_as_it_was(store: str) -> None:
    run_async(evicted_room_comes_back_as_it_was(store))


async def connected_room_stays(url: str) -> None:
    service, engine = await _service(url)
    try:
        room = await service.create_room(2, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0))
        rid = room["room_id"]
        inbox = Inbox()
        await service.connect(rid, 0, inbox, None)
        rt = service.rooms[rid]
        assert service.evict_idle(rt.idle_since + LATER) == []
        await service.disconnect(rid, 0, inbox)
        assert service.evict_idle(rt.idle_since + 1) == []  # left just now
        assert service.evict_idle(rt.idle_since + LATER) == [rid]
    finally:
        await _close(service, engine)


def test_a_room_with_a_connection_stays_in_memory(store: str) -> None:
    run_async(connected_room_stays(store))


async def bot_turn_keeps_room(url: str) -> None:
    service, engine = await _service(url)
    try:
        # Ann is away with no grace: a bot plays for her too, but only after a long delay
        room = await service.create_room(
            2, "Ann", RuleSet(), 1, RoomOptions(bot_delay=LATER, grace=0)
        )
        rid = room["room_id"]
        rt = service.rooms[rid]
        watcher = Inbox()  # timers run only while someone is there
        await service.connect(rid, None, watcher, None)
        for _ in range(100):  # the grace period runs out: Ann's seat is on autoplay
            await asyncio.sleep(0.01)
            if rt.state.seats[0].autoplay and rt.turn_task is not None:
                break
        await service.disconnect(rid, None, watcher)
        assert all(t.done() for t in rt.grace_tasks.values())
        assert rt.turn_task is not None and not rt.turn_task.done()
        assert service.evict_idle(rt.idle_since + LATER) == []
        rt.turn_task.cancel()
        await asyncio.sleep(0)
        assert service.evict_idle(rt.idle_since + LATER) == [rid]
    finally:
        await _close(service, engine)


def test_a_room_waiting_for_its_bot_stays_in_memory(store: str) -> None:
    run_async(bot_turn_keeps_room(store))


async def stale_runtime_writes_to_the_reloaded_room(url: str) -> None:
    service, engine = await _service(url)
    try:
        room = await service.create_room(3, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0))
        rid = room["room_id"]
        stale = service.rooms[rid]
        await stale.lock.acquire()
        joining = asyncio.create_task(service.join(rid, "Bo"))
        await asyncio.sleep(0.01)  # the join has the runtime and waits for its lock
        stale.lock.release()
        # before the join runs again, the room leaves memory
        assert service.evict_idle(stale.idle_since + LATER) == [rid]
        seat = await joining
        fresh = service.rooms[rid]
        assert fresh is not stale
        assert seat["seat"] == 1
        assert fresh.state.seats[1].name == "Bo"
        assert fresh.state.seq == stale.state.seq + 1
        assert await service.repo.load_state(rid) is not None
        stored = await service.repo.load_state(rid)
        assert stored is not None and stored.seq == fresh.state.seq
    finally:
        await _close(service, engine)


def test_a_move_that_waited_while_its_room_left_memory_lands_in_the_reloaded_room(
    store: str,
) -> None:
    run_async(stale_runtime_writes_to_the_reloaded_room(store))


async def unattended_room_pauses(url: str) -> None:
    service, engine = await _service(url)
    service.settings = ServiceSettings(default_bot_delay=0, idle_evict=60, bots_only_delay=0.02)
    try:
        # Ann never connects; with no grace a bot stands in for her: bots alone
        room = await service.create_room(3, "Ann", RuleSet(), 2, RoomOptions(bot_delay=0, grace=0))
        rid = room["room_id"]
        rt = service.rooms[rid]
        start = rt.state.seq
        await asyncio.sleep(0.3)
        assert rt.state.seq == start, "nobody is connected: nothing moves"
        assert not rt.state.seats[0].autoplay, "not even the grace take-over"
        watcher = Inbox()
        await service.connect(rid, None, watcher, None)
        for _ in range(500):
            await asyncio.sleep(0.01)
            if rt.state.seq >= start + 6:
                break
        assert rt.state.seq >= start + 6, "someone watches: the bots play"
        assert rt.state.seats[0].autoplay
        await service.disconnect(rid, None, watcher)
        await asyncio.sleep(0.1)  # a move in flight may still land
        paused = rt.state.seq
        await asyncio.sleep(0.3)
        assert rt.state.seq == paused, "everyone left: the game pauses"
        assert rt.turn_task is None or rt.turn_task.done()
        assert watcher.sent[-1]["type"] in ("patch", "snapshot", "presence")
    finally:
        await _close(service, engine)


def test_a_room_nobody_is_connected_to_pauses_and_goes_on_when_someone_comes(store: str) -> None:
    run_async(unattended_room_pauses(store))
