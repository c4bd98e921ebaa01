"""PushService (app/notify/service.py) on a real database and a real local push service
that checks the VAPID token and decrypts each message (tests/notify/push_service.py):
deadline warnings told once per (room, seq, seat, hours), even by two processes at
once, and each event only to owners who did not turn it off.  SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from app.db.notices import NoticeRows
from app.db.push import PushRows
from app.db.repository import RoomRepository
from app.notify.service import PushService as Push
from app.notify.settings import NoticeSettings, key_owner
from tests.conftest import open_store, run_async
from tests.db.test_push import ANN, BO, seated_room
from tests.notify.push_service import PushService

SUBJECT = "mailto:host@example.org"


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


@asynccontextmanager
async def push_on(repo: RoomRepository) -> AsyncIterator[Push]:
    async with httpx.AsyncClient(timeout=10) as client:
        yield Push(PushRows(repo), client, subject=SUBJECT, allow_local=True)


async def subscribe(push: Push, key: str, browser: dict[str, Any], lang: str) -> None:
    await push.subscribe(key, browser, lang)


def test_a_deadline_warning_reaches_the_seats_browser_once_per_warning(
    database_url: str, service: PushService
) -> None:
    ann, bo = service.subscribe(), service.subscribe()

    async def run() -> str:
        async with open_store(database_url) as one, open_store(database_url) as two:
            room = await seated_room(one, [ANN, BO])
            async with push_on(one) as a, push_on(two) as b:
                await subscribe(a, ANN, ann, "sv")
                await subscribe(a, BO, bo, "en")
                # two processes fire the same warning at once, each three times
                await asyncio.gather(*(p.deadline_near(room, 5, 1, 24) for p in (a, b) * 3))
                await a.deadline_near(room, 5, 1, 1)
                await b.deadline_near(room, 5, 1, 1)
                await a.deadline_near(room, 8, 1, 24)  # the next turn's deadline
            return room

    room = run_async(run())
    told = service.wait_for(bo, 3)
    assert [m.problems for m in told] == [[], [], []]
    assert [m.payload for m in told] == [
        {
            "kind": "deadline",
            "room": room,
            "code": "RRRRRR",
            "hours": h,
            "url": f"/r/{room}",
            "lang": "en",
        }
        for h in (24, 1, 24)
    ]
    assert all(int(m.headers["ttl"]) > 0 for m in told)
    assert service.inbox(ann) == [], "only the seat whose deadline it is"


def test_each_event_reaches_only_owners_who_left_it_on(
    database_url: str, service: PushService
) -> None:
    ann, bo = service.subscribe(), service.subscribe()

    async def run() -> str:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            settings = NoticeRows(repo)
            await settings.save_settings(key_owner(ANN), NoticeSettings(turn=False), 1)
            await settings.save_settings(key_owner(BO), NoticeSettings(deadline=False), 1)
            async with push_on(repo) as push:
                await subscribe(push, ANN, ann, "en")
                await subscribe(push, BO, bo, "fr")
                await push.turn_started(room, 3, 0)  # Ann: turn notices off
                await push.deadline_near(room, 3, 0, 24)  # but deadline warnings on
                await push.turn_started(room, 4, 1)  # Bo: turn notices on
                await push.deadline_near(room, 4, 1, 24)  # deadline warnings off
                await push.deadline_near(room, 4, 1, 1)
                # Ann turns turn notices back on: the next turn is told
                await settings.save_settings(key_owner(ANN), NoticeSettings(), 2)
                await push.turn_started(room, 5, 0)
            return room

    room = run_async(run())
    to_ann = service.wait_for(ann, 2)
    assert [(m.payload["kind"], m.problems) for m in to_ann] == [("deadline", []), ("turn", [])]
    to_bo = service.wait_for(bo, 1)
    assert to_bo[0].payload == {"kind": "turn", "room": room, "url": f"/r/{room}", "lang": "fr"}
    assert len(service.inbox(ann)) == 2 and len(service.inbox(bo)) == 1


def test_a_warning_to_a_seat_nobody_subscribed_for_claims_nothing(database_url: str) -> None:
    async def run() -> bool:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            async with push_on(repo) as push:
                await push.deadline_near(room, 5, 1, 24)
            # nothing was sent, and the warning is still unclaimed
            return await PushRows(repo).claim_deadline(room, 5, 1, 24, 1)

    assert run_async(run())
