"""The accounts' service on a real database (SQLite and PostgreSQL): names taken once,
passwords checked, sessions that end, failures counted across processes, the external
identities of the OpenID Connect sign-in, deletion and what an export holds.

The HTTP side (cookies, CSRF, access modes, the player key's rooms) is in
tests/server/test_accounts.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import pytest

from app.accounts.attempts import AttemptLimits, TooManyAttempts
from app.accounts.names import BadAccountInput
from app.accounts.service import AccountError, Accounts, AccountSettings
from app.accounts.tokens import csrf_matches
from app.db.accounts import AccountRows
from tests.conftest import open_store

T = TypeVar("T")
LIMITS = AttemptLimits(
    per_account=3, per_address=5, window_s=600, per_account_total=20, total_window_s=3600
)


@asynccontextmanager
async def accounts_on(
    url: str, password_login: bool = True, session_days: float = 30
) -> AsyncIterator[Accounts]:
    async with open_store(url) as repo:
        yield Accounts(AccountRows(repo), AccountSettings(session_days, password_login, LIMITS))


def run(url: str, body: Callable[[Accounts], Awaitable[T]], **kw: Any) -> T:
    async def main() -> T:
        async with accounts_on(url, **kw) as accounts:
            return await body(accounts)

    return asyncio.run(main())


def test_a_name_is_taken_once_whatever_its_case(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        first = await accounts.register("Ann_1", "correct horse", None)
        assert first.account.username == "Ann_1"
        assert csrf_matches(await accounts.secret(), first.token, first.csrf)
        with pytest.raises(AccountError) as taken:
            await accounts.register("aNN_1", "another horse", None)
        assert (taken.value.status, taken.value.code) == (409, "username_taken")
        with pytest.raises(BadAccountInput):
            await accounts.register("Bo", "correct horse", None)  # too short a name
        assert (await accounts.current(first.token)) == first.account

    run(database_url, body)


def test_a_password_signs_in_and_a_wrong_one_does_not(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        await accounts.register("Ann_1", "correct horse", None)
        signed = await accounts.login("ANN_1", "correct horse", None, "10.0.0.1")
        assert signed.account.username == "Ann_1"
        for name, password in (("Ann_1", "wrong horse"), ("nobody", "correct horse")):
            with pytest.raises(AccountError) as refused:
                await accounts.login(name, password, None, "10.0.0.2")
            assert (refused.value.status, refused.value.code) == (401, "bad_credentials")

    run(database_url, body)


def test_failed_sign_ins_are_limited_per_account_and_per_address(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        await accounts.register("Ann_1", "correct horse", None)
        for _ in range(LIMITS.per_account):
            with pytest.raises(AccountError):
                await accounts.login("Ann_1", "wrong horse", None, "10.0.0.1")
        with pytest.raises(TooManyAttempts) as slowed:  # even with the right password
            await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")
        assert 0 < slowed.value.retry_after <= LIMITS.window_s
        # ...from that address only: Ann's own address is not locked (issue 46)
        await accounts.login("Ann_1", "correct horse", None, "10.0.0.9")
        # one address trying many names is slowed too
        for n in range(LIMITS.per_address - LIMITS.per_account):
            with pytest.raises(AccountError):
                await accounts.login(f"name{n}", "wrong horse", None, "10.0.0.1")
        with pytest.raises(TooManyAttempts):
            await accounts.login("someone_else", "whatever pw", None, "10.0.0.1")

    run(database_url, body)


def test_failures_from_other_addresses_do_not_lock_the_owner_out(database_url: str) -> None:
    """Issue 46: five addresses failing at a name leave its owner's address alone; a
    spray past the name's total limit refuses new browsers, but not one that signed in
    to the account before (its device cookie)."""

    async def body(accounts: Accounts) -> None:
        first = await accounts.register("Ann_1", "correct horse", None)
        for n in range(5):
            for _ in range(LIMITS.per_account):
                with pytest.raises(AccountError):
                    await accounts.login("Ann_1", "wrong horse", None, f"203.0.113.{n}")
        home = await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")
        for n in range(5, 10):  # the spray goes on past the total: 30 failures
            for _ in range(LIMITS.per_account):
                try:
                    await accounts.login("Ann_1", "wrong horse", None, f"203.0.113.{n}")
                except (AccountError, TooManyAttempts):
                    pass
        with pytest.raises(TooManyAttempts):  # a new browser, even at a fresh address
            await accounts.login("Ann_1", "correct horse", None, "10.0.0.2")
        for device in (first.device, home.device):  # browsers that signed in before
            again = await accounts.login("Ann_1", "correct horse", None, "10.0.0.2", device)
            assert again.account.id == first.account.id
        # a stolen or forged device cookie is worth nothing
        with pytest.raises(TooManyAttempts):
            await accounts.login("Ann_1", "correct horse", None, "10.0.0.2", "junk.a.b.c")

    run(database_url, body)


def test_a_known_browser_is_limited_on_its_own(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        laptop = await accounts.register("Ann_1", "correct horse", None)
        for _ in range(LIMITS.per_account):
            with pytest.raises(AccountError) as wrong:
                await accounts.login("Ann_1", "wrong horse", None, "10.0.0.1", laptop.device)
            assert wrong.value.code == "bad_credentials"
        with pytest.raises(TooManyAttempts):
            await accounts.login("Ann_1", "correct horse", None, "10.0.0.1", laptop.device)
        # its failures were its own: the address's pair with the name is not locked
        await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")

    run(database_url, body)


def test_the_servers_secret_is_made_once_and_shared(database_url: str, tmp_path: Any) -> None:
    async def main() -> None:
        async with accounts_on(database_url) as one, accounts_on(database_url) as two:
            assert await one.secret() == await two.secret()
            signed = await one.register("Ann_1", "correct horse", None)
            assert await two.csrf_of(signed.token) == signed.csrf
        async with accounts_on(f"sqlite+aiosqlite:///{tmp_path}/other.db") as other:
            assert await other.csrf_of(signed.token) != signed.csrf

    asyncio.run(main())


def test_two_processes_count_the_same_failures(database_url: str) -> None:
    async def main() -> None:
        async with accounts_on(database_url) as one, accounts_on(database_url) as two:
            await one.register("Ann_1", "correct horse", None)
            for accounts in (one, two, one):
                with pytest.raises(AccountError):
                    await accounts.login("Ann_1", "wrong horse", None, "10.0.0.1")
            with pytest.raises(TooManyAttempts):
                await two.login("Ann_1", "correct horse", None, "10.0.0.1")

    asyncio.run(main())


def test_a_good_sign_in_clears_the_accounts_failures(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        await accounts.register("Ann_1", "correct horse", None)
        for _ in range(LIMITS.per_account - 1):
            with pytest.raises(AccountError):
                await accounts.login("Ann_1", "wrong horse", None, f"10.0.1.{_}")
        await accounts.login("Ann_1", "correct horse", None, "10.0.2.1")
        for _ in range(LIMITS.per_account - 1):
            with pytest.raises(AccountError):
                await accounts.login("Ann_1", "wrong horse", None, f"10.0.3.{_}")
        await accounts.login("Ann_1", "correct horse", None, "10.0.2.1")

    run(database_url, body)


def test_sign_out_ends_one_session_and_sign_out_everywhere_all(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        laptop = await accounts.register("Ann_1", "correct horse", None)
        phone = await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")
        tablet = await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")
        await accounts.logout(laptop.token)
        assert await accounts.current(laptop.token) is None
        assert await accounts.current(phone.token) == phone.account
        assert await accounts.logout_all(phone.account) == 2
        assert await accounts.current(phone.token) is None
        assert await accounts.current(tablet.token) is None
        assert await accounts.current("not a token") is None
        assert await accounts.current(None) is None

    run(database_url, body)


def test_passwords_switched_off_refuse_register_and_login(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        for attempt in (
            accounts.register("Ann_1", "correct horse", None),
            accounts.login("Ann_1", "correct horse", None, "10.0.0.1"),
        ):
            with pytest.raises(AccountError) as off:
                await attempt
            assert (off.value.status, off.value.code) == (403, "password_login_disabled")
        # the provider's sign-in still works
        signed = await accounts.sign_in_external("https://id.example", "sub-1", "ann", None)
        assert signed.account.username == "ann"

    run(database_url, body, password_login=False)


def test_an_external_identity_gets_one_account_with_a_free_name(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        await accounts.register("Ann", "correct horse", None)
        first = await accounts.sign_in_external("https://id.example", "sub-1", "ann@x.org", None)
        assert first.account.username == "ann2"  # "ann" is taken (case-insensitively)
        again = await accounts.sign_in_external("https://id.example", "sub-1", "renamed", None)
        assert again.account.id == first.account.id
        other = await accounts.sign_in_external("https://other.example", "sub-1", "ann", None)
        assert other.account.username == "ann3"
        nameless = await accounts.sign_in_external("https://id.example", "sub-2", None, None)
        assert nameless.account.username == "player"
        # an account made this way has no password
        with pytest.raises(AccountError):
            await accounts.login("ann2", "any password", None, "10.0.0.1")
        stored = await accounts.stored_data(first.account)
        assert [(i["issuer"], i["subject"]) for i in stored["identities"]] == [
            ("https://id.example", "sub-1")
        ]

    run(database_url, body)


def test_a_deleted_account_signs_in_nowhere_and_frees_its_name(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        ann = await accounts.register("Ann_1", "correct horse", None)
        phone = await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")
        await accounts.delete(ann.account)
        assert await accounts.current(ann.token) is None
        assert await accounts.current(phone.token) is None
        with pytest.raises(AccountError):
            await accounts.login("Ann_1", "correct horse", None, "10.0.0.1")
        again = await accounts.register("ann_1", "correct horse", None)
        assert again.account.id != ann.account.id

    run(database_url, body)


def test_a_session_past_its_lifetime_signs_nobody_in(database_url: str) -> None:
    async def body(accounts: Accounts) -> None:
        signed = await accounts.register("Ann_1", "correct horse", None)
        assert signed.expires_ms < signed.account.created_ms
        assert await accounts.current(signed.token) is None

    run(database_url, body, session_days=-1)  # made already expired: no clock to wait for
