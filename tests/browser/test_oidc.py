"""Signing in through the host's OpenID Connect provider, in Chromium: the lobby's
"Sign in with <provider>" button, through the test provider (its own process,
tests/accounts/oidc_provider.py), back to the lobby signed in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.accounts.conftest import Provider
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


def test_sign_in_with_the_provider_from_the_lobby(
    new_page: Any, provider: Provider, screenshots: Path
) -> None:
    provider.sign_in_as("member-7", preferred_username="greta")
    page = new_page()
    page.goto("/")
    button = page.get_by_test_id("oidc-sign-in")
    button.wait_for()
    assert button.inner_text() == "Sign in with Club ID"
    page.screenshot(path=str(screenshots / "oidc-lobby-button.png"))
    lobby = page.url
    with page.expect_navigation() as went:  # the redirects through the provider are one
        button.click()
    assert went.value.request.redirected_from is not None
    assert page.url == lobby
    page.get_by_test_id("oidc-sign-in").wait_for()
    me = page.request.get("/api/me")
    assert me.status == 200
    assert me.json()["username"] == "greta"
    page.screenshot(path=str(screenshots / "oidc-signed-in-lobby.png"))
    assert not page.errors


def test_the_button_speaks_the_browsers_language(new_page: Any) -> None:
    page = new_page(locale="sv-SE")
    page.goto("/")
    assert page.get_by_test_id("oidc-sign-in").inner_text() == "Logga in med Club ID"


def test_a_refused_sign_in_is_a_page_that_says_why(
    new_page: Any, provider: Provider, screenshots: Path
) -> None:
    provider.sign_in_as("member-8", preferred_username="nils")
    provider.misbehave(aud="another-client")
    page = new_page()
    page.goto("/")
    page.get_by_test_id("oidc-sign-in").click()
    page.locator("#error-code").wait_for()
    assert page.locator("#error-code").inner_text() == "bad_id_token"
    assert "Sign-in failed" in page.locator("h1").inner_text()
    page.screenshot(path=str(screenshots / "oidc-refused.png"))
    assert page.request.get("/api/me").status == 401
