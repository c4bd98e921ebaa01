"""The OpenID Connect flow (app/accounts/oidc_client.py) against a real provider in its
own process (tests/accounts/oidc_provider.py), its sign-ins under way stored on
SQLite and PostgreSQL (app/db/oidc.py).

The browser's part is played by an HTTP client that follows the authorization URL
to the provider, which approves at once and redirects to the callback with a code:
the test reads that redirect's query as the callback would.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest

from app.accounts.oidc import (
    BAD_CODE,
    BAD_ID_TOKEN,
    BAD_STATE,
    PENDING_SECONDS,
    PROVIDER_ERROR,
    PROVIDER_UNREACHABLE,
    Identity,
    OidcConfig,
    OidcError,
    state_hash,
    wished_username,
)
from app.accounts.oidc_client import OidcClient
from app.db.oidc import PendingRows
from tests.accounts.provider_process import Provider
from tests.conftest import open_store, run_async
from tests.server.process import free_port

CALLBACK = "http://127.0.0.1:9/auth/oidc/callback"
"""Where the provider sends the browser back (never fetched: the test reads the redirect)."""


@asynccontextmanager
async def flow_on(
    database_url: str, provider: Provider, **config: str
) -> AsyncIterator[OidcClient]:
    settings = {
        "issuer": provider.issuer,
        "client_id": provider.client_id,
        "client_secret": provider.client_secret,
        "name": "Test ID",
        "scopes": "openid profile email",
        **config,
    }
    async with open_store(database_url) as repo:
        yield OidcClient(OidcConfig(**settings), PendingRows(repo))  # type: ignore[arg-type]


async def authorize(flow: OidcClient) -> tuple[str, dict[str, str]]:
    """Start a sign-in and let the provider approve it: (the browser's state, the
    callback's query)."""
    url, state = await flow.begin(CALLBACK)
    async with httpx.AsyncClient() as browser:
        answer = await browser.get(url)
    assert answer.status_code == 302, answer.text
    location = answer.headers["location"]
    assert location.startswith(CALLBACK + "?")
    return state, dict(parse_qsl(urlsplit(location).query))


async def refused(flow: OidcClient, state: str | None, params: dict[str, str]) -> OidcError:
    with pytest.raises(OidcError) as caught:
        await flow.finish(state, params)
    return caught.value


def test_a_sign_in_proves_the_providers_subject_and_username(
    database_url: str, fresh_provider: Provider
) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            url, _ = await flow.begin(CALLBACK)
            asked = dict(parse_qsl(urlsplit(url).query))
            assert asked["code_challenge_method"] == "S256"
            assert asked["response_type"] == "code"
            assert set(asked["scope"].split()) == {"openid", "profile", "email"}
            assert asked["nonce"] and asked["state"] and asked["code_challenge"]
            state, params = await authorize(flow)
            assert await flow.finish(state, params) == Identity(
                fresh_provider.issuer, "user-1", "ada"
            )

    run_async(go())


def test_a_state_works_once(database_url: str, fresh_provider: Provider) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            state, params = await authorize(flow)
            await flow.finish(state, params)
            assert (await refused(flow, state, params)).code == BAD_STATE

    run_async(go())


def test_a_state_that_is_not_the_browsers_is_refused_and_spent(
    database_url: str, fresh_provider: Provider
) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            state, params = await authorize(flow)
            before = fresh_provider.counts()["token"]
            tampered = {**params, "state": state[:-2] + ("AA" if state[-2:] != "AA" else "BB")}
            assert (await refused(flow, state, tampered)).code == BAD_STATE
            assert (await refused(flow, None, params)).code == BAD_STATE
            assert (await refused(flow, state, {**params, "state": "ståt"})).code == BAD_STATE
            assert fresh_provider.counts()["token"] == before, "no code was exchanged"
            # the untampered callback still works: a wrong state used nothing up
            assert (await flow.finish(state, params)).subject == "user-1"

    run_async(go())


def test_a_replayed_code_is_refused_by_the_provider_and_reported(
    database_url: str, fresh_provider: Provider
) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            state, params = await authorize(flow)
            await flow.finish(state, params)
            # the same code again, under a fresh sign-in of the same browser
            _, again = await flow.begin(CALLBACK)
            refused_before = fresh_provider.counts()["token_refused"]
            error = await refused(flow, again, {**params, "state": again})
            assert (error.code, error.status) == (BAD_CODE, 400)
            assert fresh_provider.counts()["token_refused"] == refused_before + 1

    run_async(go())


@pytest.mark.parametrize(
    ("claim", "value"),
    [("nonce", "not-the-nonce"), ("aud", "another-client"), ("iss", "http://127.0.0.1:1")],
)
def test_an_id_token_for_another_sign_in_or_client_is_refused(
    database_url: str, fresh_provider: Provider, claim: str, value: str
) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            state, params = await authorize(flow)
            fresh_provider.misbehave(**{claim: value})
            error = await refused(flow, state, params)
            assert error.code == BAD_ID_TOKEN
            assert claim in error.message

    run_async(go())


def test_a_token_signed_by_another_key_is_refused(
    database_url: str, fresh_provider: Provider
) -> None:
    """Signed under the provider's key id, but not with a key its JWKS publishes."""

    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            state, params = await authorize(flow)
            fresh_provider.misbehave(key="other")
            assert (await refused(flow, state, params)).code == BAD_ID_TOKEN

    run_async(go())


def test_the_providers_refusal_is_reported(database_url: str, fresh_provider: Provider) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            _, state = await flow.begin(CALLBACK)
            error = await refused(
                flow, state, {"state": state, "error": "access_denied", "error_description": "no"}
            )
            assert error.code == PROVIDER_ERROR

    run_async(go())


def test_an_unreachable_provider_is_reported(database_url: str, fresh_provider: Provider) -> None:
    async def go() -> None:
        async with flow_on(
            database_url, fresh_provider, issuer=f"http://127.0.0.1:{free_port()}"
        ) as flow:
            with pytest.raises(OidcError) as caught:
                await flow.begin(CALLBACK)
            assert (caught.value.code, caught.value.status) == (PROVIDER_UNREACHABLE, 502)

    run_async(go())


def test_a_provider_that_names_another_issuer_is_not_used(
    database_url: str, fresh_provider: Provider
) -> None:
    async def go() -> None:
        async with flow_on(
            database_url, fresh_provider, issuer=fresh_provider.issuer + "/"
        ) as flow:
            with pytest.raises(OidcError) as caught:
                await flow.begin(CALLBACK)
            assert caught.value.code == PROVIDER_UNREACHABLE

    run_async(go())


def test_a_username_comes_from_userinfo_when_the_token_has_none(
    database_url: str, fresh_provider: Provider
) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider, scopes="openid") as flow:
            fresh_provider.sign_in_as("user-9", email="grace@example.org")
            state, params = await authorize(flow)
            assert (await flow.finish(state, params)).preferred_username == "grace"

    run_async(go())


def test_two_callbacks_with_one_state_sign_in_once(
    database_url: str, fresh_provider: Provider
) -> None:
    """Two processes receiving the same callback at once: the state's row is taken by
    exactly one of them."""

    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            state, params = await authorize(flow)
            results = await asyncio.gather(
                flow.finish(state, params), flow.finish(state, params), return_exceptions=True
            )
            assert sum(isinstance(r, Identity) for r in results) == 1
            assert [r.code for r in results if isinstance(r, OidcError)] == [BAD_STATE]

    run_async(go())


def test_the_state_is_stored_only_as_its_hash(database_url: str, fresh_provider: Provider) -> None:
    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            _, state = await flow.begin(CALLBACK)
            store = flow.store
            assert await store.take(state) is None
            assert await store.take(state_hash(state)) is not None

    run_async(go())


@pytest.mark.parametrize(
    ("claims", "wished"),
    [
        ({"preferred_username": "ada.l"}, "ada.l"),
        ({"preferred_username": "  Ada Lovelace "}, "Ada Lovelace"),
        ({"email": "grace@example.org"}, "grace"),
        ({"preferred_username": "", "name": "Åsa Ödegård"}, "Åsa Ödegård"),
        ({"preferred_username": 7}, "player"),
        ({}, "player"),
    ],
)
def test_the_wished_username(claims: dict[str, object], wished: str) -> None:
    assert wished_username(claims) == wished


def test_a_sign_in_that_took_too_long_is_refused(
    database_url: str, fresh_provider: Provider
) -> None:
    """Ten minutes at the provider at most (PENDING_SECONDS): the state is then refused
    and its row gone, and the code is never exchanged."""
    now = [1_000_000.0]

    async def go() -> None:
        async with flow_on(database_url, fresh_provider) as flow:
            flow.clock = lambda: now[0]
            state, params = await authorize(flow)
            now[0] += PENDING_SECONDS + 1
            asked = fresh_provider.counts()["token"]
            assert (await refused(flow, state, params)).code == BAD_STATE
            assert fresh_provider.counts()["token"] == asked
            assert await flow.store.take(state_hash(state)) is None

    run_async(go())
