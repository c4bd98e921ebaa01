"""``RoomService.stop`` while rooms leave memory under it (issue 48): a cancelled
timer or an eviction that drops a room from ``rooms`` while ``stop`` waits for
another room's lock must not end the shutdown with "dictionary changed size during
iteration" (seen once in a two-process deadline test on PostgreSQL)."""

from __future__ import annotations

import asyncio

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.rooms.domain.commands import NewRoom
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from tests.conftest import open_store, run_async
from tests.waiting import wait_until_async


async def stop_while_a_room_leaves() -> list[str]:
    async with open_store("memory") as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        ids = []
        for name in ("Ann", "Bo", "Cy"):
            made = await service.execute(NewRoom(2, name, RuleSet(), 0, RoomOptions()))
            ids.append(made.room_id)
        held = service.rooms[ids[0]]
        await held.lock.acquire()  # a move in flight in the first room
        stopping = asyncio.create_task(service.stop())
        # stop is waiting for the first room's lock: another room leaves memory now
        await wait_until_async(lambda: bool(held.lock._waiters), 10, 0.001, "stop to wait")
        service.rooms.pop(ids[2])
        held.lock.release()
        await asyncio.wait_for(stopping, 10)  # raised RuntimeError before
        return sorted(service.rooms)


def test_stop_survives_a_room_leaving_while_it_waits_for_a_lock() -> None:
    left = run_async(stop_while_a_room_leaves())
    assert len(left) == 2
