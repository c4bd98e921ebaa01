"""The personal access tokens' store on real SQLite and PostgreSQL (issue 51): kept by
hash, capped per account in the database, revoked per account only, last use written
once per interval, bot accounts made only without rated games, deleted with their
account; and migration 0022 up and down again without losing an account."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from alembic import command
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.accounts.token_store import TokenRow
from app.core.tokens import hash_token
from app.db.access_tokens import AccessTokenRows
from app.db.accounts import AccountRows
from app.db.repository import RoomRepository
from app.db.revisions import alembic_config, apply
from app.engine.rules import RuleSet
from app.rooms.domain.state import RoomOptions, RoomState
from tests.conftest import open_store, run_async
from tests.server.process import sql


@asynccontextmanager
async def stores(url: str) -> AsyncIterator[tuple[RoomRepository, AccountRows, AccessTokenRows]]:
    async with open_store(url) as repo:
        yield repo, AccountRows(repo), AccessTokenRows(repo)


def run(
    url: str, body: Callable[[RoomRepository, AccountRows, AccessTokenRows], Awaitable[Any]]
) -> Any:
    async def main() -> Any:
        async with stores(url) as (repo, accounts, tokens):
            return await body(repo, accounts, tokens)

    return run_async(main())


async def account(accounts: AccountRows, name: str) -> str:
    account_id = f"{name:0<32}"[:32]
    await accounts.create_account(account_id, name, name.lower(), None, 1_000)
    return account_id


def token_row(account_id: str, n: int, scopes: tuple[str, ...] = ("read",)) -> TokenRow:
    return TokenRow(
        f"t{account_id[:8]}{n:04d}", account_id, f"token {n}", scopes, 2_000 + n, None, None
    )


def test_tokens_are_kept_by_hash_capped_and_revoked_per_account(database_url: str) -> None:
    async def body(repo: RoomRepository, accounts: AccountRows, tokens: AccessTokenRows) -> None:
        ann, bo = await account(accounts, "ann"), await account(accounts, "bo")
        for n in range(3):
            assert await tokens.add_token(token_row(ann, n), hash_token(f"secret{n}"), most=3)
        assert not await tokens.add_token(token_row(ann, 3), hash_token("secret3"), most=3)
        assert [t.id for t in await tokens.live_tokens(ann)] == [
            token_row(ann, n).id for n in range(3)
        ]
        assert await tokens.live_tokens(bo) == []

        found = await tokens.by_hash(hash_token("secret1"))
        assert found is not None and found[0].id == token_row(ann, 1).id
        assert found[1].id == ann and found[1].username == "ann"
        assert await tokens.by_hash(hash_token("secret3")) is None, "the refused one was not stored"
        assert await tokens.by_hash("secret1") is None, "the token itself is no key"

        assert not await tokens.revoke(bo, token_row(ann, 1).id, 5_000), "not Bo's"
        assert await tokens.by_hash(hash_token("secret1")) is not None
        assert await tokens.revoke(ann, token_row(ann, 1).id, 5_000)
        assert not await tokens.revoke(ann, token_row(ann, 1).id, 5_001), "revoked already"
        assert await tokens.by_hash(hash_token("secret1")) is None
        assert len(await tokens.live_tokens(ann)) == 2
        # a revoked token frees its place under the cap
        assert await tokens.add_token(token_row(ann, 4), hash_token("secret4"), most=3)

        stored = await accounts.stored_data(ann)
        assert [t["name"] for t in stored["access_tokens"]] == [f"token {n}" for n in (0, 1, 2, 4)]
        assert stored["access_tokens"][1]["revoked_ms"] == 5_000
        assert "secret" not in repr(stored) and hash_token("secret0") not in repr(stored)

    run(database_url, body)


def test_the_cap_holds_against_requests_at_once(database_url: str) -> None:
    async def body(repo: RoomRepository, accounts: AccountRows, tokens: AccessTokenRows) -> None:
        ann = await account(accounts, "ann")
        made = await asyncio.gather(
            *(tokens.add_token(token_row(ann, n), hash_token(f"s{n}"), most=5) for n in range(12))
        )
        assert sum(made) == 5
        assert len(await tokens.live_tokens(ann)) == 5

    run(database_url, body)


def test_last_use_is_written_once_per_interval(database_url: str) -> None:
    async def body(repo: RoomRepository, accounts: AccountRows, tokens: AccessTokenRows) -> None:
        ann = await account(accounts, "ann")
        row = token_row(ann, 0)
        await tokens.add_token(row, hash_token("s"), most=20)
        await tokens.touch(row.id, 100_000, 70_000)
        await tokens.touch(row.id, 110_000, 80_000)  # used 10 s later: not written
        assert (await tokens.live_tokens(ann))[0].last_used_ms == 100_000
        await tokens.touch(row.id, 131_000, 101_000)
        assert (await tokens.live_tokens(ann))[0].last_used_ms == 131_000

    run(database_url, body)


async def _room(repo: RoomRepository, room_id: str, rated: bool) -> None:
    await repo.create_room(
        RoomState(room_id, room_id[:6].upper(), 2, RuleSet(), RoomOptions(rated=rated))
    )


def test_a_bot_account_is_made_once_and_never_from_rated_games(database_url: str) -> None:
    async def body(repo: RoomRepository, accounts: AccountRows, tokens: AccessTokenRows) -> None:
        ann, bo, cy = [await account(accounts, n) for n in ("ann", "bo", "cy")]
        assert await tokens.bots(10) == []
        assert await tokens.make_bot(ann, 50_000) == 50_000
        assert await tokens.make_bot(ann, 60_000) == 50_000, "a bot since its first time"

        # Bo sits in a live rated room; Cy's rated match is over and rated
        await _room(repo, "b" * 32, rated=True)
        await _room(repo, "c" * 32, rated=True)
        await _room(repo, "d" * 32, rated=False)

        def seat_and_rate(conn: Connection) -> None:
            conn.execute(
                text("UPDATE seats SET account_id = :a WHERE room_id = :r AND seat = 0"),
                {"a": bo, "r": "b" * 32},
            )
            conn.execute(
                text("UPDATE seats SET account_id = :a WHERE room_id = :r AND seat = 1"),
                {"a": cy, "r": "d" * 32},
            )
            conn.execute(
                text("UPDATE rooms SET status = 'finished' WHERE id = :r"), {"r": "c" * 32}
            )
            conn.execute(
                text(
                    "INSERT INTO rated_matches (room_id, match_no, players, at_ms, void) "
                    "VALUES (:r, 1, 2, 1000, false)"
                ),
                {"r": "c" * 32},
            )
            conn.execute(
                text(
                    "INSERT INTO rating_results (room_id, match_no, seat, account_id, "
                    'rank, "left", total, mu_before, sigma_before, mu_after, sigma_after) '
                    "VALUES (:r, 1, 0, :a, 0, false, 50, 25.0, 8.3, 27.0, 8.0)"
                ),
                {"r": "c" * 32, "a": cy},
            )

        await repo._run_write(seat_and_rate)
        assert await tokens.make_bot(bo, 70_000) is None, "a seat of a live rated room"
        assert await tokens.make_bot(cy, 70_000) is None, "a rated match played"
        rows = {r.username: r for r in await tokens.bots(10)}
        assert set(rows) == {"ann"} and rows["ann"].bot_since_ms == 50_000
        row = await accounts.account_by_name("ann")
        assert row is not None and row.bot_since_ms == 50_000
        assert (await accounts.account_by_name("bo")).bot_since_ms is None  # type: ignore[union-attr]

    run(database_url, body)


def test_bots_are_listed_latest_used_first(database_url: str) -> None:
    async def body(repo: RoomRepository, accounts: AccountRows, tokens: AccessTokenRows) -> None:
        ids = [await account(accounts, n) for n in ("ann", "bo", "cy")]
        for n, account_id in enumerate(ids):
            await tokens.make_bot(account_id, 1_000 + n)
            await tokens.add_token(token_row(account_id, n), hash_token(f"s{n}"), most=20)
        await tokens.touch(token_row(ids[0], 0).id, 9_000, 9_000)
        await tokens.touch(token_row(ids[2], 2).id, 8_000, 8_000)
        listed = await tokens.bots(10)
        assert [(b.username, b.last_used_ms) for b in listed] == [
            ("ann", 9_000),
            ("cy", 8_000),
            ("bo", None),
        ]
        assert [b.username for b in await tokens.bots(2)] == ["ann", "cy"]

    run(database_url, body)


def test_deleting_an_account_deletes_its_tokens(database_url: str) -> None:
    async def body(repo: RoomRepository, accounts: AccountRows, tokens: AccessTokenRows) -> None:
        ann, bo = await account(accounts, "ann"), await account(accounts, "bo")
        await tokens.make_bot(ann, 1_000)
        await tokens.add_token(token_row(ann, 0), hash_token("ann's"), most=20)
        await tokens.add_token(token_row(bo, 0), hash_token("bo's"), most=20)
        await accounts.delete_account(ann, 5_000, "deleted player")
        assert await tokens.by_hash(hash_token("ann's")) is None
        assert await tokens.live_tokens(ann) == []
        assert await tokens.bots(10) == [], "a deleted bot is not listed"
        assert await tokens.by_hash(hash_token("bo's")) is not None

    run(database_url, body)
    assert sql(database_url, "SELECT count(*) FROM access_tokens") == [(1,)]


def test_migration_0022_goes_up_and_down_and_keeps_every_account(database_url: str) -> None:
    apply(database_url, "0021")
    sql(
        database_url,
        "INSERT INTO accounts (id, username, username_key, created_ms) "
        "VALUES ('a1', 'Ann', 'ann', 1)",
    )
    sql(
        database_url,
        "INSERT INTO account_sessions (token_hash, account_id, created_ms, expires_ms) "
        "VALUES ('h1', 'a1', 1, 99999999999999)",
    )
    apply(database_url, "0022")
    assert sql(database_url, "SELECT id, bot_since_ms FROM accounts") == [("a1", None)]
    sql(
        database_url,
        "INSERT INTO access_tokens (id, account_id, name, token_hash, scopes, created_ms) "
        "VALUES ('t1', 'a1', 'bot', 'h', 'read', 1)",
    )
    command.downgrade(alembic_config(database_url), "0021")
    assert sql(database_url, "SELECT id, username FROM accounts") == [("a1", "Ann")]
    assert sql(database_url, "SELECT count(*) FROM account_sessions") == [(1,)], "no cascade"
    apply(database_url, "0022")
    assert sql(database_url, "SELECT count(*) FROM access_tokens") == [(0,)]
