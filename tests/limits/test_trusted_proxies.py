"""TRUSTED_PROXIES (and FORWARDED_ALLOW_IPS, its older name): parsing, which one wins,
and the client address uvicorn's own proxy-headers middleware then leaves in the
scope for app/limits/clients.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.config import DEFAULT_TRUSTED_PROXIES, Settings
from app.limits.clients import client_address
from tests.conftest import run_async


def seen_address(proxies: str, peer: str, forwarded_for: str | None) -> str:
    """The client address the app sees for a request from ``peer`` carrying
    ``X-Forwarded-For: forwarded_for``, behind uvicorn's middleware."""
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(client_address(scope))

    headers = [] if forwarded_for is None else [(b"x-forwarded-for", forwarded_for.encode())]
    scope = {"type": "http", "client": (peer, 50000), "headers": headers, "scheme": "http"}
    run_async(ProxyHeadersMiddleware(app, trusted_hosts=proxies)(scope, None, None))  # type: ignore[arg-type]
    return seen[0]


def test_the_default_trusts_the_loopback_proxy_only() -> None:
    proxies = Settings().proxies
    assert proxies == DEFAULT_TRUSTED_PROXIES == "127.0.0.1,::1"
    assert seen_address(proxies, "127.0.0.1", "203.0.113.7") == "203.0.113.7"
    assert seen_address(proxies, "::1", "203.0.113.7") == "203.0.113.7"
    assert seen_address(proxies, "198.51.100.1", "203.0.113.7") == "198.51.100.1"
    assert seen_address(proxies, "127.0.0.1", None) == "127.0.0.1"


def test_trusted_proxies_wins_over_the_older_name() -> None:
    both = Settings(trusted_proxies="10.0.0.1", forwarded_allow_ips="127.0.0.1")
    assert both.proxies == "10.0.0.1"
    assert seen_address(both.proxies, "127.0.0.1", "203.0.113.7") == "127.0.0.1"
    assert Settings(forwarded_allow_ips="10.0.0.1").proxies == "10.0.0.1"
    # Empty, as a compose file passes an unset variable: not set.
    assert Settings(trusted_proxies="", forwarded_allow_ips="").proxies == DEFAULT_TRUSTED_PROXIES


def test_networks_and_star() -> None:
    proxies = Settings(trusted_proxies="10.1.2.3/8, 192.0.2.1").proxies
    assert proxies == "10.0.0.0/8,192.0.2.1", "a host address inside a network is its network"
    assert seen_address(proxies, "10.200.0.1", "203.0.113.7") == "203.0.113.7"
    assert seen_address(proxies, "11.0.0.1", "203.0.113.7") == "11.0.0.1"
    assert Settings(trusted_proxies="192.0.2.1,*").proxies == "*"
    assert seen_address("*", "198.51.100.1", "203.0.113.7") == "203.0.113.7"


def test_the_client_cannot_pick_its_address_behind_a_trusted_proxy() -> None:
    """The proxy appends the address it saw: that one counts, not what the client sent."""
    assert seen_address("127.0.0.1", "127.0.0.1", "6.6.6.6, 203.0.113.7") == "203.0.113.7"


@pytest.mark.parametrize("value", ["localhost", "10.0.0.0/33", "1.2.3", " , "])
def test_a_proxy_that_is_not_an_address_is_an_error_at_start(value: str) -> None:
    with pytest.raises(ValidationError, match="trusted_proxies"):
        Settings(trusted_proxies=value)
    with pytest.raises(ValidationError, match="forwarded_allow_ips"):
        Settings(forwarded_allow_ips=value)
