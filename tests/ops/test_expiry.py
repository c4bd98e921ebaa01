"""app/ops/expiry.py on each store: a waiting room nobody joined and nobody has open is
closed after WAITING_ROOM_MINUTES, one its maker has open or someone joined waits for
WAITING_ROOM_HOURS, and a flood's rooms all go in one sweep (issue 34)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.broker import MemoryBroker
from app.engine.rules import RuleSet
from app.ops.expiry import BATCH, WaitingRoomExpiry
from app.rooms.domain.commands import JoinRoom, NewRoom
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService, ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox


async def _status(service: RoomService, room_id: str) -> str:
    return str((await service.summary(room_id))["status"])


async def expiry(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        rules, options = RuleSet(), RoomOptions(bot_delay=0)
        try:
            alone = (await service.execute(NewRoom(3, "Ann", rules, 0, options))).room_id
            with_bot = (await service.execute(NewRoom(3, "Ann", rules, 1, options))).room_id
            joined = (await service.execute(NewRoom(3, "Ann", rules, 0, options))).room_id
            await service.execute(JoinRoom(joined, "Bo"))
            watched = (await service.execute(NewRoom(3, "Ann", rules, 0, options))).room_id
            await service.connect(watched, 0, Inbox(), None)

            sweeper = WaitingRoomExpiry(service, hours=24, minutes=15)
            assert sweeper.interval == 15 * 60 / 4
            now = datetime.now(UTC)
            assert await sweeper.sweep(now) == [], "nothing is 15 minutes old yet"
            closed = await sweeper.sweep(now + timedelta(minutes=16))
            assert sorted(closed) == sorted([alone, with_bot]), "bots are not people who joined"
            summary = await service.summary(alone)
            assert summary["closed"] is not None
            assert summary["closed"]["reason"] == "nobody joined within 15 minutes"
            for kept in (joined, watched):
                assert await _status(service, kept) == "waiting"
            # A day on, every room still waiting goes, whoever has it open.
            later = await sweeper.sweep(now + timedelta(hours=25))
            assert sorted(later) == sorted([joined, watched])

            # A flood's rooms (more than one page of them) go in one sweep.
            flood = [
                (await service.execute(NewRoom(2, "Zed", rules, 0, options))).room_id
                for _ in range(BATCH + 5)
            ]
            gone = await sweeper.sweep(datetime.now(UTC) + timedelta(minutes=16))
            assert sorted(gone) == sorted(flood)
            assert await store.live_rooms(None) == (0, 0)
        finally:
            await service.stop()


def test_rooms_nobody_joined_or_opened_expire_within_minutes(store_url: str) -> None:
    run_async(expiry(store_url))


async def timing() -> None:
    async with open_store("memory") as store:
        service = RoomService(store, MemoryBroker())
        try:
            assert not WaitingRoomExpiry(service, hours=0, minutes=0).enabled
            assert WaitingRoomExpiry(service, hours=0, minutes=10).interval == 150
            assert WaitingRoomExpiry(service, hours=24, minutes=0).interval == 600
        finally:
            await service.stop()


def test_minutes_alone_or_hours_alone_may_be_turned_off() -> None:
    run_async(timing())
