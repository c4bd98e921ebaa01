"""Web Push messages (app/notify/webpush.py) to a real local push service that checks
the VAPID token and decrypts the payload independently (tests/notify/push_service.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.notify.webpush import (
    BadSubscription,
    Outcome,
    Subscription,
    VapidKeys,
    check_endpoint,
    send,
)
from tests.notify.push_service import PushService

SUBJECT = "mailto:host@example.org"


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def deliver(keys: VapidKeys, browser_json: dict[str, Any], message: dict[str, Any]) -> Outcome:
    sub = Subscription.parse(browser_json, allow_local=True)

    async def go() -> Outcome:
        async with httpx.AsyncClient(timeout=10) as client:
            return await send(client, keys, SUBJECT, sub, message)

    return asyncio.run(go())


def test_a_message_arrives_decrypted_for_its_subscriber_and_signed_by_the_servers_key(
    service: PushService,
) -> None:
    keys = VapidKeys.generate()
    browser = service.subscribe()
    message = {"title": "Your turn", "room": "abc", "text": "Dags att spela — ♠10"}
    assert deliver(keys, browser, message) is Outcome.DELIVERED
    (got,) = service.wait_for(browser, 1)
    assert got.problems == []
    assert got.payload == message
    assert got.vapid_key == keys.public_key
    assert got.claims["sub"] == SUBJECT


def test_each_message_is_encrypted_afresh_and_only_its_subscriber_reads_it(
    service: PushService,
) -> None:
    keys = VapidKeys.generate()
    one, other = service.subscribe(), service.subscribe()
    deliver(keys, one, {"n": 1})
    deliver(keys, one, {"n": 1})
    first, second = service.wait_for(one, 2)
    assert first.payload == second.payload == {"n": 1}
    assert first.body != second.body, "a fresh key and salt for every message"
    assert b'"n"' not in first.body
    # the other subscriber's key cannot read a message meant for the first
    got = service.read(service.subscriber(other), first.headers, first.body)
    assert got.payload is None and any("decrypt" in p for p in got.problems)
    assert service.inbox(other) == []


def test_a_subscription_the_service_forgot_is_reported_gone(service: PushService) -> None:
    keys = VapidKeys.generate()
    browser = service.subscribe()
    service.subscriber(browser).status = 410
    assert deliver(keys, browser, {"x": 1}) is Outcome.GONE
    unknown = dict(browser, endpoint=f"{service.origin}/push/nobody")
    assert deliver(keys, unknown, {"x": 1}) is Outcome.GONE
    service.subscriber(browser).status = 500
    assert deliver(keys, browser, {"x": 1}) is Outcome.FAILED


def test_an_unreachable_push_service_is_a_failure_not_an_exception() -> None:
    keys = VapidKeys.generate()
    with _closed_service() as browser:
        assert deliver(keys, browser, {"x": 1}) is Outcome.FAILED


class _closed_service:  # noqa: N801 (a context manager used like a function)
    """A subscription whose push service has shut down."""

    def __enter__(self) -> dict[str, Any]:
        s = PushService()
        browser = s.subscribe()
        s.close()
        return browser

    def __exit__(self, *exc: object) -> None:
        return None


def test_the_key_pair_survives_its_pem_and_signs_the_same() -> None:
    keys = VapidKeys.generate()
    again = VapidKeys(keys.private_pem)
    assert again.public_key == keys.public_key
    assert len(keys.public_key) == 87  # 65 bytes, uncompressed P-256 point, base64url
    assert VapidKeys.generate().public_key != keys.public_key


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.org/x",
        "ftp://push.example.org/x",
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest",
        "https://localhost/x",
        "https:///x",
    ],
)
def test_endpoints_the_server_must_not_post_to_are_refused(endpoint: str) -> None:
    with pytest.raises(BadSubscription):
        check_endpoint(endpoint)


def test_public_https_endpoints_are_taken() -> None:
    check_endpoint("https://push.example.org/wpush/v2/abc")
    check_endpoint("https://93.184.216.34/x")


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"endpoint": "https://push.example.org/x"},
        {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}},
        {"endpoint": 3, "keys": {"p256dh": "x", "auth": "y"}},
    ],
)
def test_malformed_subscriptions_are_refused(data: Any) -> None:
    with pytest.raises(BadSubscription):
        Subscription.parse(data)
