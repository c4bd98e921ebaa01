"""Notice settings and deadline warnings on real SQLite and PostgreSQL (app/db/notices.py,
app/db/push.py): an owner's choice kept, a seat decided by its account before its key,
a warning claimed once by one of two processes."""

from __future__ import annotations

import asyncio

from sqlalchemy import insert, update

from app.db.models import Account, AccountKey, Seat, table_of
from app.db.notices import NoticeRows
from app.db.push import PushRows
from app.db.repository import RoomRepository
from app.notify.settings import EVERYTHING, NoticeSettings, account_owner, key_owner
from app.players.players import player_hash
from tests.conftest import open_store, run_async
from tests.db.test_push import ANN, BO, seated_room

QUIET = NoticeSettings(turn=False, deadline=False, digest=False)


async def make_account(repo: RoomRepository, account_id: str, keys: tuple[str, ...] = ()) -> None:
    async with repo.sessions.begin() as s:
        await s.execute(
            insert(table_of(Account)).values(
                id=account_id, username=account_id, username_key=account_id, created_ms=1
            )
        )
        for key in keys:
            await s.execute(
                insert(table_of(AccountKey)).values(
                    player_hash=player_hash(key), account_id=account_id, linked_ms=1
                )
            )


async def hold_seat(repo: RoomRepository, room: str, seat: int, account_id: str) -> None:
    async with repo.sessions.begin() as s:
        await s.execute(
            update(table_of(Seat))
            .where(Seat.room_id == room, Seat.seat == seat)
            .values(account_id=account_id)
        )


def test_an_owners_choice_is_kept_and_changed(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = NoticeRows(repo)
            ann = key_owner(ANN)
            assert await rows.settings_of(ann) is None
            await rows.save_settings(ann, NoticeSettings(turn=False), 1)
            assert await rows.settings_of(ann) == NoticeSettings(False, True, True)
            await rows.save_settings(ann, NoticeSettings(digest=False), 2)
            assert await rows.settings_of(ann) == NoticeSettings(True, True, False)
            assert await rows.settings_of(key_owner(BO)) is None

    run_async(check())


def test_a_seat_is_decided_by_its_account_then_the_keys_account_then_the_key(
    database_url: str,
) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            rows = NoticeRows(repo)
            room = await seated_room(repo, [ANN, BO])
            assert await rows.seat_settings(room, 0) == EVERYTHING
            assert await rows.seat_settings("nosuchroom", 0) == EVERYTHING
            await rows.save_settings(key_owner(ANN), QUIET, 1)
            assert await rows.seat_settings(room, 0) == QUIET
            assert await rows.seat_settings(room, 1) == EVERYTHING
            # Bo's key was linked to an account: the account's choice decides
            await make_account(repo, "bo" * 8, (BO,))
            await rows.save_settings(key_owner(BO), NoticeSettings(turn=False), 2)
            assert await rows.seat_settings(room, 1) == NoticeSettings(turn=False)
            await rows.save_settings(account_owner("bo" * 8), NoticeSettings(deadline=False), 3)
            assert await rows.seat_settings(room, 1) == NoticeSettings(deadline=False)
            # Ann's seat held by an account: its choice before her key's
            await make_account(repo, "an" * 8)
            await hold_seat(repo, room, 0, "an" * 8)
            assert await rows.seat_settings(room, 0) == QUIET, "the account never chose"
            await rows.save_settings(account_owner("an" * 8), EVERYTHING, 4)
            assert await rows.seat_settings(room, 0) == EVERYTHING

    run_async(check())


def test_a_deadline_warning_is_claimed_once_even_by_two_processes_at_once(
    database_url: str,
) -> None:
    async def check() -> None:
        async with open_store(database_url) as one, open_store(database_url) as two:
            a, b = PushRows(one), PushRows(two)
            claims = await asyncio.gather(
                *(r.claim_deadline("r" * 32, 7, 1, 24, 1_000) for r in (a, b) * 3)
            )
            assert sorted(claims) == [False] * 5 + [True]
            assert await a.claim_deadline("r" * 32, 7, 1, 1, 1_000), "the 1 h warning"
            assert await b.claim_deadline("r" * 32, 9, 1, 24, 1_000), "the next turn's"
            assert await b.claim_deadline("r" * 32, 7, 0, 24, 1_000), "another seat's"
            assert not await a.claim_deadline("r" * 32, 7, 1, 1, 2_000)
            # after eight days the old rows are gone (the table stays small)
            later = 1_000 + 9 * 24 * 3600 * 1000
            assert await b.claim_deadline("z" * 32, 1, 1, 24, later)
            assert await b.claim_deadline("r" * 32, 7, 1, 24, later)

    run_async(check())


def test_a_rooms_code_is_read(database_url: str) -> None:
    async def check() -> None:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            assert await PushRows(repo).room_code(room) == "RRRRRR"
            assert await PushRows(repo).room_code("nosuchroom") is None

    run_async(check())
