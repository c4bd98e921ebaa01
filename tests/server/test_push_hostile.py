"""Web Push that cannot reach inside (issue 46), replayed against a real server.

Each attack of the issue: endpoints whose host is this machine written as a number
(``2130706433``, ``127.1``, ``0x7f000001``, ``0177.0.0.1``, ``0``), with a trailing dot
(``localhost.``, ``127.0.0.1.``), as ``localhost`` or an address inside, are refused
when subscribing; a name that resolves to this machine (the machine's own host name,
say, as /etc/hosts has it) is taken, but when its player's turn comes the server drops
it without connecting: a real TCP listener on that address sees nothing.  A key keeps
its newest PUSH_SUBSCRIPTIONS_PER_KEY subscriptions and an account its newest
PUSH_SUBSCRIPTIONS_PER_ACCOUNT, so a turn costs that many messages at most (the tests'
push service on 127.0.0.1 counts them); subscribing is limited per address
(PUSH_SUBSCRIBE_PER_MINUTE, 429 ``rate_limited``).  SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.notify.egress import is_public
from app.notify.webpush import BadSubscription, check_endpoint
from tests import fetch
from tests.notify.listener import Listener
from tests.notify.push_service import PushService

from .harness import ServerProcess, create_room, metric, sql

PUBLIC_ENV = {"PUSH_DELAY": "0", "DAY_SECONDS": "2.4", "PUSH_SUBSCRIBE_PER_MINUTE": "0"}
"""A public server (no PUSH_ALLOW_LOCAL); turns come by themselves (correspondence,
a short day) and are told at once; subscribing unlimited (its own test sets it)."""


@pytest.fixture
def listener() -> Iterator[Listener]:
    s = Listener()
    yield s
    s.close()


@pytest.fixture
def public_server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url, env=PUBLIC_ENV, log_path=tmp_path / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def subscribe(server: ServerProcess, key: str, browser: dict[str, Any]) -> httpx.Response:
    return fetch.post(
        f"{server.url}/api/push/subscriptions",
        json={"subscription": browser, "lang": "en"},
        headers={"X-Player-Key": key},
        timeout=10,
    )


def unsubscribe(server: ServerProcess, key: str, endpoint: str) -> int:
    return fetch.request(
        "DELETE",
        f"{server.url}/api/push/subscriptions",
        json={"endpoint": endpoint},
        headers={"X-Player-Key": key},
        timeout=10,
    ).status_code


def a_browser() -> dict[str, Any]:
    """A browser's subscription keys (from a push service that is closed at once)."""
    s = PushService()
    try:
        return s.subscribe()
    finally:
        s.close()


def start_game(server: ServerProcess, ann: str, bo: str) -> str:
    """A correspondence room of Ann and Bo, nobody connected: each is told of their
    turns, and the short day's clock plays for whoever does not move."""
    room = create_room(server.url, 2, player=ann, pace="correspondence", days_per_move=2)
    seat = fetch.post(
        f"{server.url}/api/rooms/{room['room_id']}/seats",
        json={"name": "Bo", "player": bo},
        timeout=10,
    )
    assert seat.status_code == 201, seat.text
    return str(room["room_id"])


INWARD_HOSTS = [
    "2130706433",
    "127.1",
    "0x7f000001",
    "0177.0.0.1",
    "0",
    "0x7f.0.0.1",
    "127.0.1",
    "localhost.",
    "127.0.0.1.",
    "localhost",
    "LocalHost",
    "push.localhost",
    "127.0.0.1",
    "0.0.0.0",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[64:ff9b::7f00:1]",
    "[2002:7f00:1::]",
    "169.254.169.254",
    "10.0.0.1",
    "[fd00::1]",
    "push.example.org@127.0.0.1",
]


def test_numeric_dotted_and_local_hosts_are_refused_when_subscribing(
    public_server: ServerProcess, listener: Listener
) -> None:
    key = secrets.token_urlsafe(24)
    browser = a_browser()
    taken = []
    for host in INWARD_HOSTS:
        endpoint = f"https://{host}:{listener.port}/push/x"
        r = subscribe(public_server, key, dict(browser, endpoint=endpoint))
        if r.status_code != 422 or r.json().get("code") != "bad_subscription":
            taken.append((host, r.status_code))
        else:
            assert r.json()["message"]
    assert taken == [], "every one refused with 422 bad_subscription"
    # nothing was kept, so nothing is ever sent: the key has nothing to drop
    assert unsubscribe(public_server, key, f"https://2130706433:{listener.port}/push/x") == 404
    assert listener.seen() == []


@pytest.fixture
def inward_name() -> Iterator[tuple[str, Listener]]:
    """A name that resolves to this machine only (its host name, as /etc/hosts has
    it), and a listener on each of its addresses, on one port."""
    names = [socket.gethostname(), socket.getfqdn(), "localhost.localdomain", "ip6-localhost"]
    for name in dict.fromkeys(n.lower() for n in names if n):
        try:
            check_endpoint(f"https://{name}/x")  # a name the server takes when subscribing
            infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
        except (BadSubscription, OSError):
            continue
        addresses = tuple(dict.fromkeys(str(i[4][0]) for i in infos))
        if not addresses or any(is_public(a) for a in addresses):
            continue
        try:
            found = Listener(addresses)
        except OSError:  # not an address of this machine
            continue
        try:
            yield name, found
        finally:
            found.close()
        return
    pytest.skip("no name resolves to this machine only")


def test_a_name_that_resolves_to_this_machine_is_never_connected_to(
    public_server: ServerProcess, inward_name: tuple[str, Listener], tmp_path: Path
) -> None:
    name, listener = inward_name
    ann, bo = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    hostile = {
        key: dict(a_browser(), endpoint=f"https://{name}:{listener.port}/push/{n}")
        for n, key in enumerate((ann, bo))
    }
    for key, browser in hostile.items():  # a name: not looked up when subscribing
        r = subscribe(public_server, key, browser)
        assert r.status_code == 201, r.text
    start_game(public_server, ann, bo)
    # whoever is to move is told: the server looks the name up, finds this machine,
    # drops the subscription and connects nowhere
    db = public_server.database_url
    end = time.monotonic() + 60
    while time.monotonic() < end and not listener.seen():
        kept = sql(db, "SELECT endpoint FROM push_subscriptions")
        if len(kept) < 2:
            break
        time.sleep(0.2)
    assert listener.seen() == [], f"the server connected to {name}, this machine"
    kept = sql(db, "SELECT endpoint FROM push_subscriptions")
    assert len(kept) < 2, "a turn was told, and its subscription dropped"
    log = (tmp_path / "server.log").read_text()
    assert "not at a public address" in log


@pytest.fixture
def push_service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def test_subscriptions_are_capped_per_key_and_per_account_the_oldest_going(
    database_url: str, tmp_path: Path, push_service: PushService
) -> None:
    env = {
        "PUSH_ALLOW_LOCAL": "true",
        "PUSH_DELAY": "0",
        "DAY_SECONDS": "2.4",
        "PUSH_SUBSCRIPTIONS_PER_KEY": "3",
        "PUSH_SUBSCRIPTIONS_PER_ACCOUNT": "4",
        "PUSH_SUBSCRIBE_PER_MINUTE": "0",
    }
    server = ServerProcess(database_url, env=env, log_path=tmp_path / "server.log").start()
    try:
        ann, bo = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        ann_browsers = [push_service.subscribe() for _ in range(6)]
        bo_browser = push_service.subscribe()
        for browser in ann_browsers:
            assert subscribe(server, ann, browser).status_code == 201
        assert subscribe(server, bo, bo_browser).status_code == 201
        start_game(server, ann, bo)
        # Ann's turn (or a deadline warning) is told to her three newest browsers only
        for browser in ann_browsers[3:]:
            push_service.wait_for(browser, 1, timeout=60)
        assert [push_service.inbox(b) for b in ann_browsers[:3]] == [[], [], []]
        assert [unsubscribe(server, ann, b["endpoint"]) for b in ann_browsers] == [404] * 3 + [
            204
        ] * 3

        # an account: two browsers signed in, each with its key; four kept in all
        keys = [sign_in(server, n) for n in range(2)]
        mine = [push_service.subscribe() for _ in range(5)]
        owners = [keys[0], keys[0], keys[0], keys[1], keys[1]]
        for key, browser in zip(owners, mine, strict=True):
            assert subscribe(server, key, browser).status_code == 201
        gone = [unsubscribe(server, key, b["endpoint"]) for key, b in zip(owners, mine)]
        assert gone == [404, 204, 204, 204, 204]
    finally:
        server.stop()


def sign_in(server: ServerProcess, n: int, name: str = "capped") -> str:
    """A browser signed in to the account ``name`` (made by the first): its player key,
    now linked to the account."""
    key = secrets.token_urlsafe(24)
    with httpx.Client(base_url=server.url, timeout=20) as http:
        path = "/api/auth/register" if n == 0 else "/api/auth/login"
        r = http.post(
            path,
            json={"username": name, "password": "correct horse"},
            headers={"X-Player-Key": key},
        )
        assert r.status_code in (200, 201), r.text
    return key


def test_subscribing_is_rate_limited_per_address(database_url: str, tmp_path: Path) -> None:
    server = ServerProcess(database_url, log_path=tmp_path / "server.log").start()
    try:  # the default: ten a minute from one address
        key = secrets.token_urlsafe(24)
        browser = a_browser()
        codes = [
            subscribe(server, key, dict(browser, endpoint=f"https://push.example.org/{n}"))
            for n in range(11)
        ]
        assert [r.status_code for r in codes[:10]] == [201] * 10
        refused = codes[10]
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited" and refused.json()["message"]
        assert int(refused.headers["Retry-After"]) >= 1
        assert metric(server, "krypkasino_rate_limited_total", kind="push_subscribe") == 1
        # another key from the same address is refused as well; a DELETE is not limited
        other = subscribe(server, secrets.token_urlsafe(24), browser)
        assert other.status_code == 429
        assert unsubscribe(server, key, "https://push.example.org/0") == 204
    finally:
        server.stop()
