"""Timer leases between processes, over the real repository (SQLite and PostgreSQL):
one owner at a time, taken over once the owner stops renewing, and asked about
rarely (the common case is answered from memory)."""

from __future__ import annotations

import asyncio

from app.db.migrate import upgrade
from app.db.repository import RoomRepository
from app.db.session import make_engine, make_sessionmaker, make_writer
from app.engine.rules import RuleSet
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import SEAT
from app.rooms.domain.state import RoomOptions, RoomState
from app.rooms.leases import StoreLeases
from app.rooms.store import Written
from tests.conftest import run_async


class Clock:
    """Unix ms that move only when the test moves them."""

    def __init__(self) -> None:
        self.ms = 1_700_000_000_000

    def __call__(self) -> int:
        return self.ms


class CountingStore:
    """The real repository, counting how often the leases ask it."""

    def __init__(self, repo: RoomRepository) -> None:
        self.repo = repo
        self.asked = 0

    async def take_lease(self, *args):  # type: ignore[no-untyped-def]
        self.asked += 1
        return await self.repo.take_lease(*args)

    async def renew_leases(self, *args):  # type: ignore[no-untyped-def]
        self.asked += 1
        return await self.repo.renew_leases(*args)

    async def release_leases(self, *args):  # type: ignore[no-untyped-def]
        self.asked += 1
        return await self.repo.release_leases(*args)


async def _room(url: str) -> tuple[RoomRepository, str, object]:
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    repo = RoomRepository(make_sessionmaker(engine), make_writer(url))
    state = RoomState("d" * 32, "PQRSTU", 2, RuleSet(), RoomOptions())
    ev = stored_event(1, SEAT, seat=0, data={"name": "Ann"})
    state.apply(ev)
    await repo.create_room(state, [Written(ev)])
    return repo, state.room_id, engine


async def one_owner(url: str) -> None:
    repo, rid, engine = await _room(url)
    store = CountingStore(repo)
    clock = Clock()
    a = StoreLeases(store, "a" * 32, ttl=1.0, clock=clock)  # type: ignore[arg-type]
    b = StoreLeases(store, "b" * 32, ttl=1.0, clock=clock)  # type: ignore[arg-type]
    assert await a.acquire(rid)
    assert not await b.acquire(rid)
    asked = store.asked
    for _ in range(20):
        assert await a.acquire(rid) and not await b.acquire(rid)
    assert store.asked == asked, "held and foreign leases are answered from memory"
    # a renews: b still cannot take it, even after the first lease's time
    clock.ms += 400
    await a.renew()
    clock.ms += 700
    assert not await b.acquire(rid)
    # a stops renewing (it died): b takes over once the lease has run out, not before
    clock.ms += 299
    assert not await b.acquire(rid)
    clock.ms += 2
    assert await b.acquire(rid), "the lease is taken over"
    await a.renew()
    assert a.held() == set(), "a learns that it lost the room"
    assert not await a.acquire(rid)
    # b gives the room up (shutting down): another process may take it at once
    await b.release([rid])
    c = StoreLeases(store, "c" * 32, ttl=1.0, clock=clock)  # type: ignore[arg-type]
    assert await c.acquire(rid)
    await engine.dispose()  # type: ignore[attr-defined]


def test_a_lease_has_one_owner_and_moves_when_the_owner_stops_renewing(database_url: str) -> None:
    run_async(one_owner(database_url))
