"""The write path when the database does not take a write (app/rooms/writes.py).

A real outage, in process: the service reaches PostgreSQL through a TCP proxy
that the test stops and starts (tests/server/proxy.py).  The process tests
(tests/server/test_database_outage.py) show what the players see; this one
checks the room service's own promises: the write is refused and counted, the
room's memory is not read until it is reloaded, one recovery task reloads it
by itself once the database answers, and play goes on from what was stored.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.engine import make_url

from app.broker import MemoryBroker
from app.core.errors import ServiceError
from app.core.tokens import hash_token
from app.db.history import room_history
from app.db.repository import RoomRepository
from app.engine.rules import RuleSet
from app.rooms.domain.commands import JoinRoom, NewRoom, PlayCard
from app.rooms.domain.results import PlayAnswer
from app.rooms.domain.state import RoomOptions
from app.rooms.service import RoomService
from app.rooms.settings import ServiceSettings
from app.rooms.store import RoomStore
from tests.conftest import open_store, run_async
from tests.rooms.test_promises import Viewer
from tests.server.proxy import TcpProxy
from tests.waiting import wait_until_async


async def outage_and_recovery(postgres_url: str, wait_for_recovery: bool) -> None:
    url = make_url(postgres_url)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432).start()
    proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    try:
        async with open_store(proxied) as store:
            timing = ServiceSettings(default_bot_delay=0, retry_first=0.05, retry_max=0.2)
            service = RoomService(store, MemoryBroker(), timing)
            try:
                await _refused_then_recovered(service, timing, proxy, wait_for_recovery)
            finally:
                await service.stop()
    finally:
        proxy.stop()


async def _refused_then_recovered(
    service: RoomService, timing: ServiceSettings, proxy: TcpProxy, wait_for_recovery: bool
) -> None:
    room = await service.execute(NewRoom(2, "Ann", RuleSet(), 0, RoomOptions(bot_delay=0)))
    rid = room.room_id
    await service.execute(JoinRoom(rid, "Bo"))
    rt = await service.runtime(rid)
    stored_seq = rt.state.seq
    seat = rt.state.to_move
    assert seat is not None
    move = rt.state.view(seat)["legal"][0]
    watcher = Viewer()
    await service.connect(rid, None, watcher, None)
    assert watcher.seq == stored_seq

    proxy.stop()
    with pytest.raises(ServiceError) as refused:
        await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="m1"))
    assert refused.value.code == "unavailable"
    assert service.stats.write_failures == 1 and service.stats.conflicts == 0
    assert rt.stale, "its memory may be ahead of the database: not to be read"
    recovery = rt.recovery
    assert recovery is not None and not recovery.done(), "a recovery task reloads it"
    with pytest.raises(ServiceError) as again:  # the next command tries a reload first
        await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="m1"))
    assert again.value.code == "unavailable"
    assert rt.recovery is recovery, "one recovery task per room, not one per attempt"
    assert service.stats.write_failures == 1, "a refused reload writes nothing"
    # however long the database stays away, the recovery keeps trying, backing off
    tries = service.stats.reload_tries
    await wait_until_async(
        lambda: service.stats.reload_tries >= tries + 3, 30, message="three more reload tries"
    )
    assert rt.stale and not recovery.done() and service.stats.recoveries == 0

    proxy.start()
    if wait_for_recovery:
        await wait_until_async(lambda: not rt.stale, timeout=30, message="the reload")
    else:  # the next command reloads it first; the recovery then has nothing to do
        state = await service.summary(rid)
        assert state["deal_no"] == 1 and not rt.stale
    assert service.stats.recoveries == 1
    await wait_until_async(lambda: recovery.done(), timeout=10, message="the recovery ends")
    assert service.stats.recoveries == 1, "reloaded once, by whoever came first"
    assert rt.state.seq == stored_seq, "the refused play was not stored, so it is not there"
    assert rt.state.to_move == seat
    ack = await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id="m1"))
    assert ack == PlayAnswer(stored_seq + 1, duplicate=False)
    assert service.stats.recoveries == 1, "in step again: no further reload"
    await wait_until_async(lambda: watcher.seq == stored_seq + 1, timeout=10, message="the patch")
    assert watcher.view == rt.state.view(None), "the watcher followed the reloaded room"


@pytest.mark.postgres
@pytest.mark.parametrize("wait_for_recovery", [True, False], ids=["recovery", "command"])
def test_a_write_the_database_refused_is_not_read_and_the_room_recovers_by_itself(
    postgres_url: str, wait_for_recovery: bool
) -> None:
    run_async(outage_and_recovery(postgres_url, wait_for_recovery))


async def stored_status_follows(url: str) -> None:
    async with open_store(url) as store:
        service = RoomService(store, MemoryBroker(), ServiceSettings(default_bot_delay=0))
        try:
            await _status_follows(service, store)
        finally:
            await service.stop()


async def _status_follows(service: RoomService, store: RoomStore) -> None:
    later = datetime.now(UTC) + timedelta(days=1)
    rules = RuleSet.from_dict({"match_deals": 1})
    room = await service.execute(NewRoom(2, "Ann", rules, 0, RoomOptions(bot_delay=0)))
    rid = room.room_id
    assert await store.idle_waiting_rooms(later) == [rid]
    bo = await service.execute(JoinRoom(rid, "Bo"))
    assert await store.idle_waiting_rooms(later) == [], "stored as playing once it started"
    # each seat is stored with the hash of its token (how a player comes back)
    assert await store.seat_for_token(rid, hash_token(room.token)) == 0
    assert await store.seat_for_token(rid, hash_token(bo.token)) == 1
    assert await store.live_rooms(None) == (0, 1)
    rt = await service.runtime(rid)
    rng = random.Random(11)
    n = 0
    while rt.state.status == "playing":
        seat = rt.state.to_move
        assert seat is not None
        move = rng.choice(rt.state.view(seat)["legal"])
        n += 1
        await service.execute(PlayCard(rid, seat, move["card"], move["take"], play_id=f"m{n}"))
    assert rt.state.status == "finished"
    assert await store.live_rooms(None) == (0, 0), "stored as finished with its last move"
    loaded = await store.load_state(rid)
    assert loaded is not None and loaded.status == "finished" and loaded.seq == rt.state.seq
    # the finished deal's scores are stored with it (the history and records serve them)
    played = rt.state.previous_deal
    stored = await store.deal_record(rid, 1, 1)
    assert played is not None and stored is not None
    assert stored["scores"] == played["scores"] and stored["totals"] == played["totals"]
    assert len(stored["moves"]) == n
    if isinstance(store, RoomRepository):  # the match's standing, as the history reads it
        history = await room_history(store, rid)
        match = rt.state.match
        assert history is not None and match is not None
        assert history.status == "finished"
        assert history.matches == [
            {
                "match_no": 1,
                "first_dealer": match.first_dealer,
                "cumulative": match.cumulative,
                "deals_played": 1,
                "finished": True,
                "winners": match.winners(),
            }
        ]


def test_the_stored_status_follows_the_room_from_waiting_to_finished(store_url: str) -> None:
    run_async(stored_status_follows(store_url))
