"""The room service keeping rooms in memory only while they are used (on a real database).

A long-running server must not hold every room it ever served: an idle room
leaves memory and is rebuilt from its stored events when next used, exactly
as it was, even by a coroutine that fetched the room just before it left.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.results import PlayAnswer
from app.rooms.domain.state import RoomOptions
from app.rooms.runtime import RoomRuntime
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox
from tests.waiting import wait_until_async

LATER = 10_000.0
"""Seconds to add to the clock so that every room counts as idle for long enough."""


async def _service(url: str, **settings: Any) -> tuple[RoomService, AsyncExitStack]:
    """A service on the store at ``url`` (``store_url``), and what closes that store."""
    stack = AsyncExitStack()
    store = await stack.enter_async_context(open_store(url))
    timing = ServiceSettings(**{"default_bot_delay": 0, "idle_evict": 60, **settings})
    return RoomService(store, MemoryBroker(), timing), stack


async def _close(service: RoomService, stack: AsyncExitStack) -> None:
    await service.stop()
    await stack.aclose()


def _timers_idle(rt: RoomRuntime) -> bool:
    """No timer of the room (a bot's or the clock's turn, a grace period) is pending:
    nothing will move the room until someone does."""
    return (rt.turn_task is None or rt.turn_task.done()) and all(
        t.done() for t in rt.grace_tasks.values()
    )


async def evicted_room_comes_back_as_it_was(url: str) -> None:
    service, stack = await _service(url)
    try:
        # a room waiting for its third player: no timer runs for it
        room = await service.execute(NewRoom(3, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0)))
        rid = room.room_id
        await service.execute(JoinRoom(rid, "Bo"))
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
        await service.execute(JoinRoom(rid, "Cy"))
        assert again.state.status == "playing"
        seat = again.state.to_move
        move = again.state.view(seat)["legal"][0]
        seq = again.state.seq
        ack = await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="m1"))
        assert ack == PlayAnswer(seq + 1, duplicate=False)
    finally:
        await _close(service, stack)


def test_an_evicted_room_comes_back_as_it_was(store_url: str) -> None:
    run_async(evicted_room_comes_back_as_it_was(store_url))


async def connected_room_stays(url: str) -> None:
    service, stack = await _service(url)
    try:
        room = await service.execute(NewRoom(2, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0)))
        rid = room.room_id
        inbox = Inbox()
        await service.connect(rid, 0, inbox, None)
        rt = service.rooms[rid]
        assert service.evict_idle(rt.idle_since + LATER) == []
        await service.disconnect(rid, 0, inbox)
        assert service.evict_idle(rt.idle_since + 1) == []  # left just now
        assert service.evict_idle(rt.idle_since + LATER) == [rid]
    finally:
        await _close(service, stack)


def test_a_room_with_a_connection_stays_in_memory(store_url: str) -> None:
    run_async(connected_room_stays(store_url))


async def bot_turn_keeps_room(url: str) -> None:
    service, stack = await _service(url)
    try:
        # Ann is away with no grace: a bot plays for her too, but only after a long delay
        room = await service.execute(
            NewRoom(2, "Ann", RuleSet(), 1, RoomOptions(bot_delay=LATER, grace=0))
        )
        rid = room.room_id
        rt = service.rooms[rid]
        watcher = Inbox()  # timers run only while someone is there
        await service.connect(rid, None, watcher, None)
        await wait_until_async(
            lambda: rt.state.seats[0].autoplay and rt.turn_task is not None,
            10,
            0.01,
            "the grace period to run out and put Ann's seat on autoplay",
        )
        await service.disconnect(rid, None, watcher)
        assert all(t.done() for t in rt.grace_tasks.values())
        assert rt.turn_task is not None and not rt.turn_task.done()
        assert service.evict_idle(rt.idle_since + LATER) == []
        rt.turn_task.cancel()
        await asyncio.sleep(0)
        assert service.evict_idle(rt.idle_since + LATER) == [rid]
    finally:
        await _close(service, stack)


def test_a_room_waiting_for_its_bot_stays_in_memory(store_url: str) -> None:
    run_async(bot_turn_keeps_room(store_url))


async def stale_runtime_writes_to_the_reloaded_room(url: str) -> None:
    service, stack = await _service(url)
    try:
        room = await service.execute(NewRoom(3, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0)))
        rid = room.room_id
        stale = service.rooms[rid]
        await stale.lock.acquire()
        joining = asyncio.create_task(service.execute(JoinRoom(rid, "Bo")))
        # the join has the runtime and waits for its lock (asyncio.Lock keeps its
        # waiters in a deque: waited on, not slept for)
        await wait_until_async(
            lambda: bool(stale.lock._waiters), 10, 0.001, "the join waiting for the lock"
        )
        stale.lock.release()
        # before the join runs again, the room leaves memory
        assert service.evict_idle(stale.idle_since + LATER) == [rid]
        seat = await joining
        fresh = service.rooms[rid]
        assert fresh is not stale
        assert seat.seat == 1
        assert fresh.state.seats[1].name == "Bo"
        assert fresh.state.seq == stale.state.seq + 1
        assert await service.repo.load_state(rid) is not None
        stored = await service.repo.load_state(rid)
        assert stored is not None and stored.seq == fresh.state.seq
    finally:
        await _close(service, stack)


def test_a_move_that_waited_while_its_room_left_memory_lands_in_the_reloaded_room(
    store_url: str,
) -> None:
    run_async(stale_runtime_writes_to_the_reloaded_room(store_url))


async def _bots_alone(service: RoomService) -> tuple[str, RoomRuntime]:
    """A room of three whose maker never connects: with no grace a bot stands in for
    her, so bots alone play it (once someone is there)."""
    room = await service.execute(NewRoom(3, "Ann", RuleSet(), 2, RoomOptions(bot_delay=0, grace=0)))
    return room.room_id, service.rooms[room.room_id]


async def _watched_bots_play(service: RoomService, moves: int) -> None:
    """Meanwhile: a room of bots alone, made now and watched, plays ``moves`` moves.
    Its timers are the same as those of any such room made before it, and fire in
    the order they are due, so a room made before it whose timers ran would have
    moved by then too: a measure of time in the service's own moves, not a guess."""
    rid, rt = await _bots_alone(service)
    start = rt.state.seq
    watcher = Inbox()
    await service.connect(rid, None, watcher, None)
    await wait_until_async(
        lambda: rt.state.seq >= start + moves, 30, 0.005, f"{moves} moves in a watched room"
    )
    await service.disconnect(rid, None, watcher)


async def unattended_room_pauses(url: str) -> None:
    service, stack = await _service(url, bots_only_delay=0.02)
    try:
        rid, rt = await _bots_alone(service)
        start = rt.state.seq
        await wait_until_async(
            lambda: _timers_idle(rt), 10, 0.005, "the unattended room's timers to give up"
        )
        await _watched_bots_play(service, 6)
        assert rt.state.seq == start, "nobody is connected: nothing moves"
        assert not rt.state.seats[0].autoplay, "not even the grace take-over"
        assert _timers_idle(rt), "and no timer waits to move it"
        watcher = Inbox()
        await service.connect(rid, None, watcher, None)
        await wait_until_async(
            lambda: rt.state.seq >= start + 6, 30, 0.005, "someone watches: the bots play"
        )
        assert rt.state.seats[0].autoplay
        await service.disconnect(rid, None, watcher)
        # A move in flight may still land; then the next turn finds nobody and stops.
        await wait_until_async(
            lambda: _timers_idle(rt), 10, 0.005, "everyone left: the room's timers to stop"
        )
        paused = rt.state.seq
        await _watched_bots_play(service, 6)
        assert rt.state.seq == paused, "everyone left: the game pauses"
        assert _timers_idle(rt)
        assert watcher.sent[-1]["type"] in ("patch", "snapshot", "presence")
    finally:
        await _close(service, stack)


def test_a_room_nobody_is_connected_to_pauses_and_goes_on_when_someone_comes(
    store_url: str,
) -> None:
    run_async(unattended_room_pauses(store_url))
