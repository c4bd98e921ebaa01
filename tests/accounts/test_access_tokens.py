"""The personal access tokens' service on a real database (SQLite and PostgreSQL,
issue 51): what a token looks like and whom it signs in, names and scopes checked,
``bot:play`` for bot accounts only, the cap, revocation, and the bot list.

The HTTP side (Bearer, the gate's refusals, rooms) is in tests/server/test_tokens.py
and tests/server/test_tokens_hostile.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

import pytest

from app.accounts.access_tokens import MAX_TOKENS, TOKEN_SHAPE, AccessTokens
from app.accounts.service import Account, AccountError
from app.core.tokens import hash_token
from app.db.access_tokens import AccessTokenRows
from app.db.accounts import AccountRows
from tests.conftest import open_store

T = TypeVar("T")


@asynccontextmanager
async def tokens_on(url: str) -> AsyncIterator[tuple[AccessTokens, AccountRows]]:
    async with open_store(url) as repo:
        yield AccessTokens(AccessTokenRows(repo)), AccountRows(repo)


def run(url: str, body: Callable[[AccessTokens, AccountRows], Awaitable[T]]) -> T:
    async def main() -> T:
        async with tokens_on(url) as (tokens, rows):
            return await body(tokens, rows)

    return asyncio.run(main())


async def person(rows: AccountRows, name: str) -> Account:
    account_id = f"{name:0<32}"[:32]
    await rows.create_account(account_id, name, name.lower(), None, 1_000)
    return Account(account_id, name, 1_000)


async def refusal(call: Awaitable[object]) -> tuple[int, str]:
    with pytest.raises(AccountError) as caught:
        await call
    return caught.value.status, caught.value.code


def test_a_token_signs_in_its_account_until_revoked(database_url: str) -> None:
    async def body(tokens: AccessTokens, rows: AccountRows) -> None:
        ann = await person(rows, "Ann_1")
        made = await tokens.create(ann, "  my script  ", ["read"])
        assert TOKEN_SHAPE.fullmatch(made.token) and made.token.startswith("kkp_")
        assert made.row.name == "my script" and made.row.scopes == ("read",)
        signed = await tokens.authenticate(made.token)
        assert signed is not None and signed.account.id == ann.id and not signed.may("bot:play")
        assert signed.account.username == "Ann_1"
        listed = await tokens.tokens(ann)
        assert [t.id for t in listed] == [made.row.id] and listed[0].last_used_ms is not None
        assert made.token not in repr(listed)

        for wrong in ("", "kkp_", made.token + "x", made.token[:-1], hash_token(made.token)):
            assert await tokens.authenticate(wrong) is None
        bo = await person(rows, "Bo_22")
        assert await refusal(tokens.revoke(bo, made.row.id)) == (404, "token_not_found")
        assert await tokens.authenticate(made.token) is not None, "Bo revoked nothing"
        await tokens.revoke(ann, made.row.id)
        assert await tokens.authenticate(made.token) is None
        assert await refusal(tokens.revoke(ann, made.row.id)) == (404, "token_not_found")
        assert await refusal(tokens.revoke(ann, "x" * 65)) == (404, "token_not_found")
        assert await tokens.tokens(ann) == []

    run(database_url, body)


def test_names_and_scopes_are_checked(database_url: str) -> None:
    async def body(tokens: AccessTokens, rows: AccountRows) -> None:
        ann = await person(rows, "Ann_1")
        for name in ("", "   ", "x" * 61, "tab\there", "zero\u200bwidth", "nul\x00"):
            assert await refusal(tokens.create(ann, name, ["read"])) == (422, "bad_token_name")
        for scopes in ([], ["write"], ["read", "admin"], ["READ"], ["bot:play "]):
            assert await refusal(tokens.create(ann, "ok", scopes)) == (422, "bad_scopes")
        made = await tokens.create(ann, "x" * 60, ["read", "read"])
        assert made.row.scopes == ("read",)
        assert (await tokens.create(ann, "Ålesund ♠", ["read"])).row.name == "Ålesund ♠"
        assert len(await tokens.tokens(ann)) == 2, "nothing refused was stored"

    run(database_url, body)


def test_bot_play_is_for_bot_accounts_and_a_bot_is_for_good(database_url: str) -> None:
    async def body(tokens: AccessTokens, rows: AccountRows) -> None:
        ann = await person(rows, "Ann_1")
        assert await refusal(tokens.create(ann, "bot", ["bot:play"])) == (403, "not_a_bot_account")
        since = await tokens.make_bot(ann)
        assert await tokens.make_bot(ann) == since, "idempotent"
        row = await rows.account_by_name("ann_1")
        assert row is not None
        bot = Account(row.id, "Ann_1", row.created_ms, row.bot_since_ms)
        assert bot.bot and bot.bot_since_ms == since
        assert await tokens.make_bot(bot) == since
        made = await tokens.create(bot, "bot", ["read", "bot:play"])
        assert made.row.scopes == ("bot:play", "read")
        signed = await tokens.authenticate(made.token)
        assert signed is not None and signed.may("bot:play") and signed.account.bot

        listed = await tokens.bots()
        assert [(b.name, b.online) for b in listed] == [("Ann_1", True)]

    run(database_url, body)


def test_an_account_holds_at_most_twenty_live_tokens(database_url: str) -> None:
    async def body(tokens: AccessTokens, rows: AccountRows) -> None:
        ann = await person(rows, "Ann_1")
        made = [await tokens.create(ann, f"t{n}", ["read"]) for n in range(MAX_TOKENS)]
        assert await refusal(tokens.create(ann, "one more", ["read"])) == (409, "too_many_tokens")
        await tokens.revoke(ann, made[0].row.id)
        await tokens.create(ann, "one more", ["read"])
        assert len(await tokens.tokens(ann)) == MAX_TOKENS

    run(database_url, body)


def test_last_use_is_written_once_per_interval(database_url: str) -> None:
    async def body(tokens: AccessTokens, rows: AccountRows) -> None:
        ann = await person(rows, "Ann_1")
        made = await tokens.create(ann, "t", ["read"])
        assert (await tokens.tokens(ann))[0].last_used_ms is None
        await tokens.authenticate(made.token)
        first = (await tokens.tokens(ann))[0].last_used_ms
        assert first is not None
        writes = 0
        touch = tokens.store.touch

        async def counted(*args: int | str) -> None:
            nonlocal writes
            writes += 1
            await touch(*args)  # type: ignore[arg-type]

        tokens.store.touch = counted  # type: ignore[method-assign]
        for _ in range(20):
            assert await tokens.authenticate(made.token) is not None
        assert writes == 0, "within 30 s of the last write nothing is written"
        assert (await tokens.tokens(ann))[0].last_used_ms == first

    run(database_url, body)
