"""Web Push rows on real SQLite and PostgreSQL (app/db/push.py): the server's kept key,
subscriptions under player keys, the seat's owner's subscriptions, a turn told once."""

from __future__ import annotations

import asyncio

from sqlalchemy import update

from app.db.models import Seat, table_of
from app.db.push import PushRows
from app.db.repository import RoomRepository, Written
from app.engine.rules import RuleSet
from app.notify.service import StoredSubscription
from app.players.players import player_hash
from app.rooms.domain.event_codec import stored_event
from app.rooms.domain.events import SEAT
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import open_store, run_async

ANN, BO = "A" * 22, "B" * 22


def sub(n: int, lang: str = "en") -> StoredSubscription:
    return {
        "endpoint": f"https://push.example.org/{n}",
        "p256dh": f"p{n}",
        "auth": f"a{n}",
        "lang": lang,
    }


async def seated_room(repo: RoomRepository, owners: list[str]) -> str:
    """A room whose seats are taken by the given player keys, in order."""
    state = RoomState("r" * 32, "RRRRRR", len(owners), RuleSet(), RoomOptions())
    await repo.create_room(state)
    written = [
        Written(stored_event(i + 1, SEAT, seat=i, data={"name": f"P{i}"}, at=1_000 + i))
        for i in range(len(owners))
    ]
    for w in written:
        state.apply(w.event)
    await repo.commit_events(state.room_id, 0, "playing", written)
    async with repo.sessions.begin() as s:
        for seat, key in enumerate(owners):
            await s.execute(
                update(table_of(Seat))
                .where(Seat.room_id == state.room_id, Seat.seat == seat)
                .values(player_hash=player_hash(key))
            )
    return state.room_id


def test_the_first_key_kept_is_the_one_every_process_reads(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = PushRows(one), PushRows(two)
            got = await asyncio.gather(
                a.server_key("vapid", "made-by-a", 1), b.server_key("vapid", "made-by-b", 2)
            )
            assert got[0] == got[1] and got[0] in ("made-by-a", "made-by-b")
            assert await a.server_key("vapid", "later", 3) == got[0]
            assert await b.server_key("other", "x", 4) == "x"

    run_async(check())


def test_a_seats_subscriptions_are_its_owners_and_a_browser_is_kept_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = PushRows(repo)
            room = await seated_room(repo, [ANN, BO])
            await rows.save_subscription(player_hash(ANN), sub(1), 10)
            await rows.save_subscription(player_hash(ANN), sub(2, "sv"), 11)
            await rows.save_subscription(player_hash(BO), sub(3), 12)
            assert await rows.seat_subscriptions(room, 0) == [sub(1), sub(2, "sv")]
            assert await rows.seat_subscriptions(room, 1) == [sub(3)]
            # the same browser subscribing again, now under Bo's key: it moves
            await rows.save_subscription(player_hash(BO), sub(2, "fr"), 13)
            assert await rows.seat_subscriptions(room, 0) == [sub(1)]
            assert await rows.seat_subscriptions(room, 1) == [sub(3), sub(2, "fr")]
            # dropped by its key only (another key cannot drop it), or by the service
            assert not await rows.drop_subscription(sub(3)["endpoint"], player_hash(ANN))
            assert await rows.drop_subscription(sub(3)["endpoint"], player_hash(BO))
            assert await rows.drop_subscription(sub(2)["endpoint"])
            assert not await rows.drop_subscription(sub(2)["endpoint"])
            assert await rows.seat_subscriptions(room, 1) == []
            assert await rows.seat_subscriptions("nosuchroom", 0) == []

    run_async(check())


def test_a_turn_is_told_once_even_when_two_processes_ask_at_once(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = PushRows(one), PushRows(two)
            claims = await asyncio.gather(
                *(r.claim_notice("r" * 32, 7, 1, 1_000) for r in (a, b) * 3)
            )
            assert sorted(claims) == [False] * 5 + [True]
            assert await a.claim_notice("r" * 32, 8, 1, 1_000)  # the next turn
            assert await a.claim_notice("r" * 32, 7, 0, 1_000)  # another seat
            # a day later the old rows are gone (the table stays small)
            later = 1_000 + 25 * 3600 * 1000
            assert await b.claim_notice("r" * 32, 9, 1, later)
            assert await b.claim_notice("r" * 32, 7, 1, later)

    run_async(check())
