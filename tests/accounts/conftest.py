"""Fixtures for sign-in through an OpenID Connect provider: the test provider
(tests/accounts/oidc_provider.py) in its own process, and a way to steer it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.accounts.provider_process import Provider
from tests.server.process import free_port


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Provider]:
    running = Provider(free_port(), tmp_path_factory.mktemp("oidc") / "provider.log")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def fresh_provider(provider: Provider) -> Provider:
    """The module's provider, with a default user and no misbehaviour left over."""
    provider.sign_in_as("user-1", preferred_username="ada")
    provider.misbehave()
    return provider
