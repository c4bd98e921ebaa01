"""The outbox's dispatcher (app/outbox/dispatcher.py) on each store (memory, SQLite,
PostgreSQL): every stored event reaches every subscriber of its kind; a subscriber
that fails is tried again later without the others running twice; an event a dead
process had claimed is handed on once its claim ran out; two processes handing on
at once hand each event on once."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import replace
from typing import Any

from app.core.outbox import (
    DEAL_ENDED,
    MATCH_ENDED,
    SEAT_CHANGED,
    TURN_CHANGED,
    NewEvent,
    StoredEvent,
    Subscriptions,
)
from app.db.outbox import write_events
from app.outbox.dispatcher import Dispatcher, DispatchSettings
from app.rooms.memory import MemoryStore
from tests.conftest import open_store, run_async

NOW = 1_000_000


class Clock:
    def __init__(self) -> None:
        self.ms = NOW

    def __call__(self) -> int:
        return self.ms


async def store_events(store: Any, events: list[NewEvent]) -> None:
    """Events as a room's commit stores them (in its transaction, on a database)."""
    if isinstance(store, MemoryStore):
        store.add(events, NOW)
    else:
        await store._run_write(write_events, events, NOW)


def deals(n: int, room: str = "r" * 32) -> list[NewEvent]:
    return [NewEvent(room, DEAL_ENDED, {"match_no": 1, "deal_no": d}) for d in range(1, n + 1)]


class Recorder:
    """A subscriber that notes what it was handed, and fails when told to."""

    def __init__(self) -> None:
        self.seen: list[StoredEvent] = []
        self.fail_on: set[int] = set()

    async def __call__(self, event: StoredEvent) -> None:
        if event.body.get("deal_no") in self.fail_on:
            raise RuntimeError("planned failure")
        self.seen.append(event)


def test_each_event_reaches_each_subscriber_of_its_kind_once(store_url: str) -> None:
    async def check() -> None:
        async with open_store(store_url) as store:
            coach, ratings, seats = Recorder(), Recorder(), Recorder()
            subs = Subscriptions()
            subs.subscribe("coach", [DEAL_ENDED], coach)
            subs.subscribe("ratings", [MATCH_ENDED], ratings)
            subs.subscribe("seats", [SEAT_CHANGED, DEAL_ENDED], seats)
            room = "a" * 32
            await store_events(
                store,
                [
                    *deals(3),
                    NewEvent(room, MATCH_ENDED, {"match_no": 1}),
                    NewEvent(room, SEAT_CHANGED, {"seat": 1, "change": "taken"}),
                ],
            )
            clock = Clock()
            one = Dispatcher(store, subs, "one", settings=DispatchSettings(batch=2), clock=clock)
            while await one.run_once():
                pass
            assert [e.body["deal_no"] for e in coach.seen] == [1, 2, 3], "in order"
            assert [e.body for e in ratings.seen] == [{"match_no": 1}]
            assert [e.kind for e in seats.seen] == [DEAL_ENDED] * 3 + [SEAT_CHANGED]
            assert one.stats.handed == 5
            clock.ms += 10**9  # long after: nothing is handed on again
            assert await one.run_once() == 0
            assert len(coach.seen) == 3

    run_async(check())


def test_a_failing_subscriber_is_retried_later_and_the_others_not_again(
    store_url: str,
) -> None:
    async def check() -> None:
        async with open_store(store_url) as store:
            steady, flaky = Recorder(), Recorder()
            flaky.fail_on = {2}
            subs = Subscriptions()
            subs.subscribe("steady", [DEAL_ENDED], steady)
            subs.subscribe("flaky", [DEAL_ENDED], flaky)
            await store_events(store, deals(3))
            clock = Clock()
            d = Dispatcher(store, subs, "one", clock=clock)
            assert await d.run_once() == 3
            assert d.stats.failures == 1 and d.stats.handed == 2
            assert [e.body["deal_no"] for e in flaky.seen] == [1, 3]
            assert await d.run_once() == 0, "backing off: not before a second"
            flaky.fail_on = set()
            clock.ms += 1_001
            assert await d.run_once() == 1
            assert [e.body["deal_no"] for e in flaky.seen] == [1, 3, 2]
            assert [e.body["deal_no"] for e in steady.seen] == [1, 2, 3], "not run twice"
            assert await store.purge_events(clock.ms + 1) == 3, "all done, then purged"

    run_async(check())


def test_an_event_a_dead_process_claimed_is_handed_on_when_its_claim_runs_out(
    store_url: str,
) -> None:
    async def check() -> None:
        async with open_store(store_url) as store:
            got = Recorder()
            subs = Subscriptions()
            subs.subscribe("got", [DEAL_ENDED], got)
            await store_events(store, deals(1))
            # the dead process claimed it (for 60 s) and never handed it on
            (held,) = await store.claim_events("dead", NOW, NOW + 60_000, 10)
            clock = Clock()
            alive = Dispatcher(store, subs, "alive", clock=clock)
            clock.ms = NOW + 59_999
            assert await alive.run_once() == 0 and got.seen == []
            clock.ms = NOW + 60_001
            assert await alive.run_once() == 1
            assert [e.id for e in got.seen] == [held.id]
            # the dead process's late finish changes nothing: the event is another's now
            await store.finish_event(held.id, "dead")
            clock.ms += 10**9
            assert await alive.run_once() == 0

    run_async(check())


def test_an_event_is_not_handed_on_before_its_due_time(store_url: str) -> None:
    """A turn notice is stored with the move and due only after the notice delay: no
    claim takes it sooner, and the events due meanwhile go on past it.  Stored outside
    a commit too (``add_events``: a page closed mid-turn)."""

    async def check() -> None:
        async with open_store(store_url) as store:
            got = Recorder()
            subs = Subscriptions()
            subs.subscribe("got", [DEAL_ENDED, TURN_CHANGED], got)
            later = NewEvent("t" * 32, TURN_CHANGED, {"seq": 5}, due_ms=NOW + 15_000)
            await store_events(store, [later, *deals(1)])
            await store.add_events([replace(later, body={"seq": 6})], NOW)
            clock = Clock()
            d = Dispatcher(store, subs, "one", clock=clock)
            assert await d.run_once() == 1, "only the deal's event is due"
            assert [e.kind for e in got.seen] == [DEAL_ENDED]
            clock.ms = NOW + 14_999
            assert await d.run_once() == 0
            clock.ms = NOW + 15_000
            assert await d.run_once() == 2
            assert [e.body.get("seq") for e in got.seen[1:]] == [5, 6], "by id, once due"
            assert all(e.created_ms == NOW for e in got.seen)

    run_async(check())


def test_two_processes_at_once_hand_each_event_on_once(database_url: str) -> None:
    url = database_url

    async def check() -> None:
        async with contextlib.AsyncExitStack() as stack:
            a = await stack.enter_async_context(open_store(url))
            b = await stack.enter_async_context(open_store(url))
            seen: Counter[int] = Counter()

            async def count(event: StoredEvent) -> None:
                seen[event.id] += 1
                await asyncio.sleep(0)

            subs = Subscriptions()
            subs.subscribe("count", [DEAL_ENDED], count)
            await store_events(a, deals(80))
            one = Dispatcher(a, subs, "one", settings=DispatchSettings(batch=5))
            two = Dispatcher(b, subs, "two", settings=DispatchSettings(batch=5))

            async def drain(d: Dispatcher) -> None:
                while await d.run_once():
                    pass

            await asyncio.gather(drain(one), drain(two))
            assert len(seen) == 80 and set(seen.values()) == {1}
            assert one.stats.handed + two.stats.handed == 80

    run_async(check())
