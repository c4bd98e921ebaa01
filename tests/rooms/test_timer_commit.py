"""A timer's write is not cut short by a connection coming or going (issue 45).

A timer's move (here a bot's) applies its events to the room's memory, then awaits
their commit.  A connection that attaches or detaches meanwhile, once it has told the
other processes who is here, schedules the room's timers again; were it to do that
outside the room's lock, it would see the room already at the move's seq, take the
timer for a stale one, and cancel it in the middle of its commit: the room would be
marked stale, reloaded by a recovery, and the log would say ``room back in step with
the database`` with nothing wrong.  Two processes sharing a room showed it right after
one took the room's lease: its bot played while a page connected.

Two test seams hold each side at the right moment: the store's commit of the server's
move waits at a gate (the store itself is real), and so does the connection's presence
report to the broker (after it attached or detached, before it schedules the room).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Literal

import pytest

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain.commands import NewRoom, PlayCard
from app.rooms.domain.correspondence import DeadlineSpec
from app.rooms.domain.events import Played
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from app.rooms.store import RoomStore, Written
from tests.conftest import open_store, run_async
from tests.rooms.test_promises import Viewer
from tests.waiting import wait_until_async

RECOVERED = "room back in step with the database"


class HeldCommits:
    """The store's commits, as they are, except that once armed (``hold_next``) the
    next commit of a server move (an id ``srv:...``) waits for ``gate``."""

    def __init__(self, store: RoomStore) -> None:
        self.real = store.commit_events
        setattr(store, "commit_events", self.commit_events)  # noqa: B010 - the seam
        self.armed = False
        self.reached = asyncio.Event()
        self.gate = asyncio.Event()
        self.stored_by: list[asyncio.Task[object] | None] = []
        """The tasks whose server moves were stored."""

    def hold_next(self) -> None:
        self.armed = True

    async def commit_events(
        self,
        room_id: str,
        expected_seq: int,
        status: str,
        written: Sequence[Written],
        stored_status: str | None = None,
        deadlines: Sequence[DeadlineSpec] | None = None,
    ) -> None:
        server = any(
            isinstance(w.event.body, Played) and (w.event.body.client_id or "").startswith("srv:")
            for w in written
        )
        if server and self.armed:
            self.armed = False
            self.reached.set()
            await self.gate.wait()
        await self.real(room_id, expected_seq, status, written, stored_status, deadlines)
        if server:
            self.stored_by.append(asyncio.current_task())


class HeldPresence(MemoryBroker):
    """The in-process broker, except that once armed (``hold_next``) the next presence
    report waits for ``gate``."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.reached = asyncio.Event()
        self.gate = asyncio.Event()

    def hold_next(self) -> None:
        self.armed = True

    async def set_presence(self, room_id: str, counts: list[int]) -> None:
        if self.armed:
            self.armed = False
            self.reached.set()
            await self.gate.wait()
        await super().set_presence(room_id, counts)


class WatchedLock(asyncio.Lock):
    """A room's lock that tells which tasks are waiting for it."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting: set[asyncio.Task[object] | None] = set()

    async def acquire(self) -> Literal[True]:
        task = asyncio.current_task()
        self.waiting.add(task)
        try:
            return await super().acquire()
        finally:
            self.waiting.discard(task)


async def connection_during_a_timer_commit(url: str, how: str) -> dict[str, object]:
    async with open_store(url) as store:
        commits = HeldCommits(store)
        broker = HeldPresence()
        timing = ServiceSettings(default_bot_delay=0, retry_first=0.05, retry_max=0.2)
        service = RoomService(store, broker, timing)
        try:
            return await _race(service, store, commits, broker, how)
        finally:
            commits.gate.set()
            broker.gate.set()
            await service.stop()


async def _race(
    service: RoomService, store: RoomStore, commits: HeldCommits, broker: HeldPresence, how: str
) -> dict[str, object]:
    room = await service.execute(NewRoom(2, "Ann", RuleSet(), 1, RoomOptions(bot_delay=0)))
    rid = room.room_id
    rt = await service.runtime(rid)
    lock = rt.lock = WatchedLock()
    await service.connect(rid, 0, Viewer(), None)  # someone is there: the bot plays
    await wait_until_async(
        lambda: rt.state.to_move == 0 and not rt.lock.locked(), message="Ann's turn"
    )
    watcher = Viewer()
    if how == "disconnect":
        await service.connect(rid, None, watcher, None)

    broker.hold_next()
    if how == "connect":
        coming = asyncio.create_task(service.connect(rid, None, watcher, None))
    else:
        coming = asyncio.create_task(service.disconnect(rid, None, watcher))
    await broker.reached.wait()  # attached (or detached), telling who is here

    commits.hold_next()
    move = rt.state.view(0)["legal"][0]
    # now the bot's turn
    await service.execute(PlayCard(rid, 0, move["card"], move["take"], play_id="m1"))
    await commits.reached.wait()  # the bot's move is applied here, its commit under way
    bot = rt.turn_task
    assert bot is not None and not bot.done()
    seq = rt.state.seq

    broker.gate.set()  # the connection goes on: it schedules the room's timers
    await wait_until_async(
        lambda: coming.done() or coming in lock.waiting,
        message="the connection to finish or to wait for the room's lock",
    )
    commits.gate.set()
    await wait_until_async(lambda: coming.done() and bot.done(), message="both to end")
    await coming
    recovery = rt.recovery
    if recovery is not None:  # (only were the room marked stale)
        await recovery
    stored = await store.load_state(rid)
    assert stored is not None
    return {
        "bot's write cut short": bot.cancelled(),
        "stale": rt.stale,
        "recoveries": service.stats.recoveries,
        "bot's move stored by its own write": bot in commits.stored_by and stored.seq >= seq,
        "in step with the store": stored.seq == rt.state.seq,
    }


@pytest.mark.parametrize("how", ["connect", "disconnect"])
def test_a_connection_coming_or_going_does_not_cut_a_timer_write_short(
    store_url: str, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="krypkasino.rooms")
    seen = run_async(connection_during_a_timer_commit(store_url, how))
    assert seen == {
        "bot's write cut short": False,
        "stale": False,
        "recoveries": 0,
        "bot's move stored by its own write": True,
        "in step with the store": True,
    }
    assert [r.getMessage() for r in caplog.records if r.getMessage() == RECOVERED] == []
