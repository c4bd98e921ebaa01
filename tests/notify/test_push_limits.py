"""PushService's limits and its refusals on a real database (issue 46): a key keeps its
newest PUSH_SUBSCRIPTIONS_PER_KEY subscriptions and an account, over its linked keys,
its newest PUSH_SUBSCRIPTIONS_PER_ACCOUNT; a notice goes to at most that many whatever
is stored; a subscription whose name resolves inward is dropped unsent, as is one
kept before the checks (a number for a host), with a real listener on 127.0.0.1 that
sees no connection.  SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.db.accounts import AccountRows
from app.db.push import PushRows
from app.db.repository import RoomRepository
from app.notify.egress import PushClient
from app.notify.service import PushLimits, StoredSubscription
from app.notify.service import PushService as Push
from app.players.players import player_hash
from tests.conftest import open_store, run_async
from tests.db.test_push import ANN, BO, seated_room
from tests.notify.listener import Listener
from tests.notify.push_service import PushService
from tests.notify.test_egress import Resolver

SUBJECT = "mailto:host@example.org"
CAROL = "C" * 22


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    s = Listener()
    yield s
    s.close()


def test_the_limits_defaults_are_the_settings_defaults() -> None:
    assert PushLimits.from_settings(Settings()) == PushLimits()
    assert PushLimits() == PushLimits(per_key=10, per_account=10, subscribe_per_minute=10)
    assert PushLimits(per_key=3, per_account=4).per_notice == 4
    assert PushLimits(per_key=0, per_account=4).per_notice is None


def endpoints(subs: list[StoredSubscription]) -> list[str]:
    return [s["endpoint"] for s in subs]


def test_a_key_and_an_account_keep_their_newest_subscriptions(
    database_url: str, service: PushService
) -> None:
    browsers = [service.subscribe() for _ in range(10)]

    async def run() -> tuple[list[str], list[str], list[str]]:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO, CAROL])
            accounts = AccountRows(repo)
            await accounts.create_account("acct1", "Bo", "bo", None, 1)
            await accounts.link_key("acct1", player_hash(BO), 1)
            await accounts.link_key("acct1", player_hash(CAROL), 1)
            limits = PushLimits(per_key=3, per_account=4)
            async with httpx.AsyncClient() as client:
                push = Push(PushRows(repo), client, subject=SUBJECT, allow_local=True)
                push.configure(limits)
                for browser in browsers[:5]:  # Ann: five browsers, no account
                    await push.subscribe(ANN, browser, "en")
                # Bo and Carol, keys of one account: three browsers and two
                for key, some in ((BO, browsers[5:8]), (CAROL, browsers[8:10])):
                    for browser in some:
                        await push.subscribe(key, browser, "en")
                await push.subscribe(BO, browsers[5], "en")  # again: now the newest
                rows = PushRows(repo)
                return (
                    endpoints(await rows.seat_subscriptions(room, 0)),
                    endpoints(await rows.seat_subscriptions(room, 1)),
                    endpoints(await rows.seat_subscriptions(room, 2)),
                )

    ann, bo, carol = run_async(run())
    urls = [b["endpoint"] for b in browsers]
    assert ann == urls[2:5], "the key's three newest"
    # the account keeps its four newest (each seat of its keys is the account's, so
    # both read them all): Bo's first browser went, subscribed again, and is the newest
    assert bo == carol == [urls[7], urls[8], urls[9], urls[5]]


def test_a_notice_goes_to_at_most_the_newest_few_whatever_is_stored(
    database_url: str, service: PushService
) -> None:
    browsers = [service.subscribe() for _ in range(12)]

    async def run() -> None:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            rows = PushRows(repo)
            for n, browser in enumerate(browsers):  # kept before there were caps
                stored: StoredSubscription = {
                    "endpoint": browser["endpoint"],
                    "p256dh": browser["keys"]["p256dh"],
                    "auth": browser["keys"]["auth"],
                    "lang": "en",
                }
                await rows.save_subscription(player_hash(ANN), stored, n)
            async with httpx.AsyncClient() as client:
                push = Push(rows, client, subject=SUBJECT, allow_local=True)
                assert push.limits.per_notice == 10
                await push.turn_started(room, 3, 0)

    run_async(run())
    for browser in browsers[2:]:
        service.wait_for(browser, 1)
    assert [len(service.inbox(b)) for b in browsers] == [0, 0] + [1] * 10


async def _seat_endpoints(repo: RoomRepository, room: str) -> list[str]:
    return endpoints(await PushRows(repo).seat_subscriptions(room, 0))


def test_a_subscription_whose_name_resolves_inward_is_dropped_unsent(
    database_url: str, service: PushService, listener: Listener
) -> None:
    good = service.subscribe()
    hostile = dict(
        service.subscribe(), endpoint=f"https://rebind.example.org:{listener.port}/push/x"
    )
    resolver = Resolver({"rebind.example.org": ["127.0.0.1"]})

    async def run() -> tuple[list[str], list[str], dict[str, int]]:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            client = PushClient(resolver=resolver, timeout=5)
            push = Push(PushRows(repo), client, subject=SUBJECT)
            async with push.client:
                assert push.client is client
                await push.subscribe(ANN, hostile, "en")  # a name: taken
                before = await _seat_endpoints(repo, room)
                await push.turn_started(room, 3, 0)
                return before, await _seat_endpoints(repo, room), push.sent

    before, after, sent = run_async(run())
    assert before == [hostile["endpoint"]]
    assert after == [], "dropped: it will never be sent to"
    assert sent["refused"] == 1 and sent["delivered"] == 0
    assert resolver.lookups == ["rebind.example.org"]
    assert listener.seen() == []
    assert good  # (the push service saw nothing either)
    assert service.inbox(good) == []


def test_an_endpoint_kept_before_the_checks_is_dropped_unsent(
    database_url: str, service: PushService, listener: Listener
) -> None:
    browser: dict[str, Any] = service.subscribe()
    hosts = ["2130706433", "127.1", "0x7f000001", "localhost.", "127.0.0.1"]

    async def run() -> tuple[list[str], dict[str, int]]:
        async with open_store(database_url) as repo:
            room = await seated_room(repo, [ANN, BO])
            rows = PushRows(repo)
            for n, host in enumerate(hosts):
                stored: StoredSubscription = {
                    "endpoint": f"https://{host}:{listener.port}/push/{n}",
                    "p256dh": browser["keys"]["p256dh"],
                    "auth": browser["keys"]["auth"],
                    "lang": "en",
                }
                await rows.save_subscription(player_hash(ANN), stored, n)
            async with httpx.AsyncClient() as given:
                push = Push(rows, given, subject=SUBJECT)  # a plain client given: not used
                assert isinstance(push.client, PushClient) and push.client is not given
                async with push.client:
                    await push.turn_started(room, 3, 0)
                    return await _seat_endpoints(repo, room), push.sent

    left, sent = run_async(run())
    assert left == []
    assert sent["refused"] == len(hosts)
    assert listener.seen() == []
