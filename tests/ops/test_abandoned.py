"""app/ops/abandoned.py on SQLite and PostgreSQL: a room in play in which no person
has acted for ABANDONED_ROOM_MINUTES is closed as abandoned (issue 46), bots playing on
in it or not; a person's recent act keeps a room, a correspondence room is never
closed so, and a waiting room is the waiting-room expiry's.

Time is the sweep's own ``now`` and the rows' stamps moved back (``age``), as the
waiting-room expiry's tests drive it: no test waits half an hour."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from app.broker import MemoryBroker
from app.db.models import Event, Room
from app.engine.rules import RuleSet
from app.ops.abandoned import AbandonedRooms
from app.ops.expiry import WaitingRoomExpiry
from app.rooms.domain.commands import JoinRoom, NewRoom
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService, ServiceSettings
from tests.conftest import open_store, run_async
from tests.inbox import Inbox

MINUTES = 30.0


async def age(
    service: RoomService, room_id: str, minutes: float, upto_seq: int | None = None
) -> None:
    """Move the room's creation, and its events up to ``upto_seq`` (all: None), back
    by ``minutes``: as if they had happened that long ago."""
    then = datetime.now(UTC) - timedelta(minutes=minutes)
    events = update(Event).where(Event.room_id == room_id)
    if upto_seq is not None:
        events = events.where(Event.seq <= upto_seq)
    async with service.repo.sessions() as s:  # type: ignore[attr-defined]
        await s.execute(events.values(created_at=then))
        await s.execute(update(Room).where(Room.id == room_id).values(created_at=then))
        await s.commit()


async def seq(service: RoomService, room_id: str) -> int:
    return (await service.runtime(room_id)).state.seq


async def summary(service: RoomService, room_id: str) -> dict:  # type: ignore[type-arg]
    return dict(await service.summary(room_id))


async def abandoned(url: str) -> None:
    async with open_store(url) as store:
        settings = ServiceSettings(default_bot_delay=0, bots_only_delay=0.05)
        service = RoomService(store, MemoryBroker(), settings)
        rules = RuleSet()
        try:
            # "Play now" against a bot, left at once: nothing has moved since
            left = (
                await service.execute(NewRoom(2, "Ann", rules, 1, RoomOptions(bot_delay=0)))
            ).room_id
            await age(service, left, 40)

            # left to the bots, and watched: the bots play on (a stand-in for Ann),
            # so the room changed a moment ago, but no person has acted for 40 minutes
            made = await service.execute(
                NewRoom(2, "Bo", rules, 1, RoomOptions(bot_delay=0, grace=0))
            )
            bots = made.room_id
            made_seq = await seq(service, bots)
            watcher = Inbox()
            await service.connect(bots, None, watcher, None)
            for _ in range(400):
                if await seq(service, bots) >= made_seq + 4:
                    break
                await asyncio.sleep(0.02)
            await service.disconnect(bots, None, watcher)
            played = await seq(service, bots)
            assert played >= made_seq + 4, "the bots played while watched"
            await age(service, bots, 40, upto_seq=made_seq)

            # two people: the room waited 40 minutes, then Cy joined a moment ago
            joined = (await service.execute(NewRoom(2, "Dee", rules, 0, RoomOptions()))).room_id
            await age(service, joined, 40)
            await service.execute(JoinRoom(joined, "Cy"))

            # a correspondence room nobody moved in for 40 minutes: its days per move rule
            corr_options = RoomOptions(pace="correspondence", days_per_move=1)
            corr = (await service.execute(NewRoom(2, "Eve", rules, 0, corr_options))).room_id
            await service.execute(JoinRoom(corr, "Fay"))
            await age(service, corr, 40)

            # a waiting room: the waiting-room expiry's business
            waiting = (await service.execute(NewRoom(3, "Gus", rules, 0, RoomOptions()))).room_id
            await age(service, waiting, 40)

            sweeper = AbandonedRooms(service, MINUTES)
            assert sweeper.enabled and sweeper.interval == MINUTES * 60 / 4
            closed = await sweeper.sweep()
            assert sorted(closed) == sorted([left, bots])
            for room_id in (left, bots):
                out = await summary(service, room_id)
                assert out["status"] == "finished"
                assert out["closed"]["reason"] == "abandoned: nobody played for 30 minutes"
            for room_id, status in ((joined, "playing"), (corr, "playing"), (waiting, "waiting")):
                out = await summary(service, room_id)
                assert (out["status"], out["closed"]) == (status, None), room_id
            assert await sweeper.sweep() == [], "closed once"

            # half an hour on, Cy and Dee have not moved either: their room goes too
            later = await sweeper.sweep(datetime.now(UTC) + timedelta(minutes=MINUTES + 1))
            assert later == [joined]
            assert (await summary(service, corr))["closed"] is None
        finally:
            await service.stop()


def test_rooms_in_play_nobody_plays_in_are_closed(database_url: str) -> None:
    run_async(abandoned(database_url))


async def wiring(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker())
        try:
            off = AbandonedRooms(service, 0)
            assert not off.enabled and await off.sweep() == []
            assert AbandonedRooms(service, 0.05).interval == 1.0
            expiry = WaitingRoomExpiry(service, 24, 15, abandoned_minutes=20)
            assert expiry.abandoned.minutes == 20 and expiry.abandoned.interval == 300
            expiry.start()
            assert expiry.abandoned.sweeper.running
            await expiry.stop()
            assert not expiry.abandoned.sweeper.running
            default = WaitingRoomExpiry(service, 24, 15)
            assert default.abandoned.minutes == 30.0, "ABANDONED_ROOM_MINUTES' default"
        finally:
            await service.stop()


def test_the_waiting_room_expiry_runs_the_abandoned_room_sweep(database_url: str) -> None:
    run_async(wiring(database_url))
