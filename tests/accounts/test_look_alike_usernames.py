"""Usernames that look like another account's (issue 46), on a real database: "b0b"
beside "bob", and a player or spectator name in other letters ("Аlice", Cyrillic A)
passing for an account's.  Compared by skeleton (app/names.py, app/accounts/names.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from app.accounts.attempts import AttemptLimits
from app.accounts.names import look_alike
from app.accounts.service import AccountError, Accounts, AccountSettings
from app.accounts.store import AccountRow
from app.api.errors import STATUS_OF
from app.api.rooms import _not_an_account
from app.core.errors import Conflict, ServiceError
from app.db.accounts import AccountRows
from tests.conftest import open_store

LIMITS = AttemptLimits(per_account=3, per_address=5, window_s=600)


def run(url: str, body: Callable[[Accounts], Awaitable[None]]) -> None:
    async def main() -> None:
        async with open_store(url) as repo:
            await body(Accounts(AccountRows(repo), AccountSettings(30, True, LIMITS)))

    asyncio.run(main())


@pytest.mark.parametrize(
    ("username", "seen_as"),
    [("b0b", "bob"), ("A1ex", "alex"), ("L0LA_1", "lola_l"), ("bob", None), ("Alex", None)],
)
def test_a_usernames_look_alike_is_its_skeleton(username: str, seen_as: str | None) -> None:
    assert look_alike(username) == seen_as


def test_a_look_alike_of_an_account_is_not_a_second_account(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        await accounts.register("bob_b", "correct horse", None)
        await accounts.register("alex", "correct horse", None)
        for name in ("b0b_b", "B0B_B", "a1ex", "A1EX"):
            with pytest.raises(AccountError) as taken:
                await accounts.register(name, "correct horse", None)
            assert (taken.value.status, taken.value.code) == (409, "username_taken"), name
        made = await accounts.sign_in_external("https://id.example", "sub-1", "b0b_b", None)
        assert made.account.username == "b0b_b2"

    run(database_url, body)


def test_a_name_in_other_letters_passes_for_the_account(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        alice = (await accounts.register("alice", "correct horse", None)).account
        for name in ("alice", "ALICE", "Alice\u200b", "Ali\u00adce", "\u0410lice", "A l i c e"):
            assert await accounts.imitates(name, None), name
            assert not await accounts.imitates(name, alice), "one's own name is one's own"
        assert not await accounts.imitates("Alicia", None)
        await accounts.register("b0b", "correct horse", None)
        assert await accounts.imitates("B0B\u200b", None)

    run(database_url, body)


def test_an_account_named_with_digits_is_found_by_its_look_alikes(database_url: str) -> None:
    """The stored skeletons (migration 0019) find "b0b" as "bob": the reverse of
    "b0b" refused beside "bob"."""

    async def body(accounts: Accounts) -> None:
        b0b = (await accounts.register("b0b", "correct horse", None)).account
        for name in ("bob", "BOB", "b0B"):
            with pytest.raises(AccountError) as taken:
                await accounts.register(name, "correct horse", None)
            assert (taken.value.status, taken.value.code) == (409, "username_taken"), name
        for name in ("bob", "Bob", "b o b", "b\u043eb"):  # the last with a Cyrillic o
            assert await accounts.imitates(name, None), name
            with pytest.raises(ServiceError) as reserved:  # a seat's or a chat line's name
                await _not_an_account(accounts, name, None)
            assert (STATUS_OF[reserved.value.code], reserved.value.code) == (422, "name_reserved")
            assert not await accounts.imitates(name, b0b), "one's own name is one's own"
        made = await accounts.sign_in_external("https://id.example", "sub-1", "bob", None)
        assert made.account.username == "bob2"

    run(database_url, body)


def test_a_deleted_accounts_look_alikes_are_free(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        b0b = (await accounts.register("b0b", "correct horse", None)).account
        await accounts.delete(b0b)
        assert not await accounts.imitates("bob", None)
        assert (await accounts.register("bob", "correct horse", None)).account.username == "bob"

    run(database_url, body)


class Unseen(AccountRows):
    """The accounts as a registration sees them while another one is being written:
    its look-ups find nothing yet, its insert meets the other's row."""

    async def account_by_name(self, username_key: str) -> AccountRow | None:
        return None

    async def account_by_skeleton(self, skeleton: str) -> AccountRow | None:
        return None


def test_two_look_alikes_registered_at_once_make_one_account(database_url: str) -> None:
    """Both pass the look-ups; the skeleton's unique index lets one in, and the other
    gets 409 ``username_taken`` as for the same name."""

    async def body(accounts: Accounts) -> None:
        store = accounts.store
        assert isinstance(store, AccountRows)
        await store.create_account("a" * 32, "b0b", "b0b", None, 1)
        with pytest.raises(Conflict):
            await store.create_account("b" * 32, "bob", "bob", None, 2)
        racing = Accounts(Unseen(store.repo), accounts.settings)
        for name in ("bob", "BOB", "b0b"):
            with pytest.raises(AccountError) as taken:
                await racing.register(name, "correct horse", None)
            assert (taken.value.status, taken.value.code) == (409, "username_taken"), name
        assert await store.account_by_name("bob") is None
        assert (await store.account_by_skeleton("bob")) == await store.account_by_name("b0b")

    run(database_url, body)
