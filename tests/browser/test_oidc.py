"""Signing in through the host's OpenID Connect provider, in Chromium: the lobby's
"Sign in with <provider>" button, through the test provider (its own process,
tests/accounts/oidc_provider.py), back to the lobby signed in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.accounts.provider_process import Provider
from tests.browser.conftest import Server
from tests.server.process import free_port

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Provider]:
    running = Provider(free_port(), tmp_path_factory.mktemp("oidc") / "provider.log")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def server(
    chromium: Path, provider: Provider, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """This module's server: the lobby of a host that configured the test provider."""
    srv = Server(tmp_path_factory.mktemp("oidc-server"), env=provider.settings_env("Club ID"))
    yield srv
    srv.stop()


def back_signed_in(page: Any) -> str:
    """The account's name shown once back in the lobby; a refusal said instead fails
    with its code and the address the redirects ended on."""
    page.wait_for_selector("[data-testid=account-name], [data-testid=signin-refused]")
    refused = page.get_by_test_id("signin-refused")
    assert not refused.count(), f"refused: {refused.get_attribute('data-code')} at {page.url}"
    return str(page.get_by_test_id("account-name").inner_text())


def test_sign_in_with_the_provider_from_the_lobby(
    new_page: Any, provider: Provider, screenshots: Path
) -> None:
    """A person who played before signing in: back from the provider, signed in, the
    room they made is the account's (on another device too), and the address is the
    plain lobby again."""
    provider.sign_in_as("member-7", preferred_username="greta")
    page = new_page()
    page.goto("/")
    key = page.evaluate("() => import('/static/js/player.js').then((m) => m.playerKey())")
    made = page.request.post(
        "/api/rooms", data={"players": 2, "bots": 1, "name": "Greta", "player": key}
    )
    assert made.status == 201
    room_id = made.json()["room_id"]
    button = page.get_by_test_id("provider-login")
    button.wait_for()
    assert button.inner_text() == "Sign in with Club ID"
    page.screenshot(path=str(screenshots / "oidc-lobby-button.png"), full_page=True)
    lobby = page.url
    with page.expect_navigation() as went:  # the redirects through the provider are one
        button.click()
    assert went.value.request.redirected_from is not None
    assert "greta" in back_signed_in(page)
    page.wait_for_url(lobby)  # ?signin=provider taken away once the keys were handed over
    page.screenshot(path=str(screenshots / "oidc-signed-in-lobby.png"), full_page=True)
    assert not page.errors

    # On another device, the button clicked the moment it is there (the deal of the
    # day's panel above it no longer arrives late and pushes it from under the click).
    elsewhere = new_page()
    elsewhere.goto("/")
    elsewhere.get_by_test_id("provider-login").click()
    back_signed_in(elsewhere)
    elsewhere.locator(f"[data-testid=my-game][data-room='{room_id}']").wait_for()


def test_the_button_speaks_the_browsers_language(new_page: Any) -> None:
    page = new_page(locale="sv-SE")
    page.goto("/")
    assert page.get_by_test_id("provider-login").inner_text() == "Logga in med Club ID"


def test_a_refused_sign_in_is_said_in_the_lobby_in_the_pages_language(
    new_page: Any, provider: Provider, screenshots: Path
) -> None:
    provider.sign_in_as("member-8", preferred_username="nils")
    provider.misbehave(aud="another-client")
    page = new_page(locale="sv-SE")
    page.goto("/")
    lobby = page.url
    page.get_by_test_id("provider-login").click()
    refused = page.get_by_test_id("signin-refused")
    refused.wait_for()
    assert refused.get_attribute("data-code") == "bad_id_token"
    assert "loggades inte in" in refused.inner_text()
    assert page.url == lobby, "the address is the plain lobby again"
    page.screenshot(path=str(screenshots / "oidc-refused.png"))
    assert page.request.get("/api/me").status == 401
    assert not page.errors
