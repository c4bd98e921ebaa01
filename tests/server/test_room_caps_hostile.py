"""Issue 46, parts 2 and 7, replayed against a real server: every room a request makes
counts against its address (and its account when signed in), whatever made it ("Find
a game", the deal of the day, "Play now", "Play this deal yourself"); rooms in play
that nobody plays any more end, so that nobody is locked out for long by their own
leftovers or another's; and with ACCESS=accounts a guest makes no room by any route.

Clients come from 127.0.0.1, which the server trusts as a proxy by default, so
``X-Forwarded-For`` makes a client another address (as tests/server/test_room_limits.py
does): the abuser has one, everyone else others.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from tests import fetch
from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import Client, ServerProcess, play_random, settle, sql, two_players
from .test_accounts import Browser

ABUSER = "203.0.113.66"
LIMITS = {
    "MAX_ROOMS_PER_IP": "3",
    "MAX_ROOMS": "40",
    "ROOM_CREATE_PER_MINUTE": "0",
    "JOIN_PER_MINUTE": "0",
    "BOTS_ONLY_DELAY": "1",
}
MISSING = "0" * 32


def limited(tmp_path: Any, **env: str) -> ServerProcess:
    return ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/caps.db",
        env={**LIMITS, **env},
        log_path=tmp_path / "server.log",
    ).start()


@pytest.fixture
def caps_server(tmp_path: Any, request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    env: dict[str, str] = getattr(request, "param", {})
    server = limited(tmp_path, **env)
    try:
        yield server
    finally:
        server.stop()


def key() -> str:
    return secrets.token_urlsafe(32)


def post(
    server: ServerProcess, path: str, body: Any, address: str, **headers: str
) -> httpx.Response:
    return fetch.post(
        server.url + path,
        json=body,
        headers={"X-Forwarded-For": address, "X-Player-Key": key(), **headers},
        timeout=20,
    )


def pair(server: ServerProcess, address: str) -> httpx.Response:
    """ "Find a game" with bots at once: a room on the spot."""
    return post(server, "/api/pairing", {"players": 2, "bots_after": 0, "name": "Zed"}, address)


def play_now(server: ServerProcess, address: str, **extra: Any) -> httpx.Response:
    body = {"players": 2, "name": "Zed", "bots": 1, "bot_level": "greedy", "rules": {}, **extra}
    return post(server, "/api/rooms", body, address)


def daily(server: ServerProcess, players: int, address: str) -> httpx.Response:
    return post(server, f"/api/daily/{players}", {"name": "Zed"}, address)


def solo(server: ServerProcess, address: str) -> httpx.Response:
    return post(server, f"/api/rooms/{MISSING}/matches/1/deals/1/solo", {}, address)


def refused(r: httpx.Response, status: int, code: str) -> bool:
    return r.status_code == status and r.json()["code"] == code


def live_rooms(server: ServerProcess) -> int:
    rows = sql(
        server.database_url, "SELECT count(*) FROM rooms WHERE status IN ('waiting', 'playing')"
    )
    return int(rows[0][0])


# ------------------------------------------------------------- one address's caps


def test_every_room_an_address_makes_counts_against_its_cap(caps_server: ServerProcess) -> None:
    server = caps_server
    made = [daily(server, 3, ABUSER), play_now(server, ABUSER), pair(server, ABUSER)]
    assert [r.status_code for r in made] == [201, 201, 202], [r.text for r in made]
    assert made[2].json()["status"] == "matched", "bots at once: a room on the spot"

    # the pairing flood of the issue: 30 tickets with bots at once, from one address
    flood = [pair(server, ABUSER) for _ in range(30)]
    assert all(refused(r, 429, "too_many_rooms") for r in flood), [r.text for r in flood[:3]]
    message = flood[0].json()["message"]
    for says in ("your address has 3 rooms", "Find a game", "deal of the day", "shares it"):
        assert says in message, message
    assert "nobody has played for 30 minutes ends by itself" in message, message
    for r in (daily(server, 4, ABUSER), play_now(server, ABUSER), solo(server, ABUSER)):
        assert refused(r, 429, "too_many_rooms"), r.text
    assert live_rooms(server) == 3, "a refusal makes nothing"
    waiting = "SELECT count(*) FROM pairing_tickets WHERE status = 'waiting'"
    assert sql(server.database_url, waiting)[0][0] == 0, "no ticket waits for a later room"

    # everyone else plays on: the server is far from full
    other = "198.51.100.7"
    assert pair(server, other).json()["status"] == "matched"
    assert play_now(server, other).status_code == 201
    assert daily(server, 3, other).status_code == 201
    assert live_rooms(server) == 6


@pytest.mark.parametrize(
    "caps_server", [{"ROOM_CREATE_PER_MINUTE": "3", "MAX_ROOMS_PER_IP": "0"}], indirect=True
)
def test_pairing_tickets_and_replays_count_against_room_create_per_minute(
    caps_server: ServerProcess,
) -> None:
    server = caps_server
    tickets = [pair(server, ABUSER) for _ in range(3)]
    assert [r.status_code for r in tickets] == [202] * 3, [r.text for r in tickets]
    for r in (pair(server, ABUSER), solo(server, ABUSER), daily(server, 3, ABUSER)):
        assert refused(r, 429, "rate_limited") and int(r.headers["Retry-After"]) > 0, r.text
    assert live_rooms(server) == 3
    assert pair(server, "198.51.100.7").status_code == 202, "another address is not counted"


@pytest.mark.parametrize(
    "caps_server", [{"MAX_ROOMS_PER_IP": "5", "MAX_ROOMS_PER_ACCOUNT": "2"}], indirect=True
)
def test_a_signed_in_account_is_capped_wherever_it_comes_from(caps_server: ServerProcess) -> None:
    server = caps_server
    ann = Browser(server)
    try:
        assert ann.register("Ann_1").status_code == 201
        r = ann.post(
            "/api/rooms",
            {"players": 2, "name": "Ann", "bots": 1},
            **{"X-Forwarded-For": "192.0.2.1"},
        )
        assert r.status_code == 201, r.text
        r = ann.post(
            "/api/pairing", {"players": 2, "bots_after": 0}, **{"X-Forwarded-For": "192.0.2.2"}
        )
        assert r.status_code == 202 and r.json()["status"] == "matched", r.text
        r = ann.post(
            "/api/rooms",
            {"players": 2, "name": "Ann", "bots": 1},
            **{"X-Forwarded-For": "192.0.2.3"},
        )
        assert refused(r, 429, "too_many_rooms"), r.text
        assert "your account has 2 rooms" in r.json()["message"]
        r = ann.post(
            "/api/daily/3", {}, **{"X-Forwarded-For": "192.0.2.4", "X-Player-Key": ann.key}
        )
        assert refused(r, 429, "too_many_rooms"), r.text
        # a guest on that address is not the account
        assert play_now(server, "192.0.2.3").status_code == 201
    finally:
        ann.close()


# ------------------------------------------------------------ abandoned rooms end


async def abandoned_rooms_end(server: ServerProcess) -> None:
    # The abuser's room: "Find a game" with bots at once, never opened.  Its place
    # is taken until the room ends.
    first = pair(server, ABUSER)
    assert first.json()["status"] == "matched", first.text
    left = first.json()["room_id"]
    assert refused(pair(server, ABUSER), 429, "too_many_rooms")

    # Meanwhile a room left to the bots and watched: they play on (a stand-in for its
    # maker, no grace), one move a second, and no person acts in it.
    bots = play_now(server, "198.51.100.9", grace=0, bot_delay=0).json()["room_id"]
    watcher = await Client(server.ws_url, bots, None).connect()
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    started = watcher.seq
    # And two people playing beside it, move after move: their room stays.
    rid, ann, bo = await two_players(server)
    ended = asyncio.Event()

    async def people_play() -> int:
        moves, rng = 0, random.Random(46)
        while not ended.is_set():
            moves += len(await play_random([ann, bo], 1, rng))
        return moves

    async def bots_room_ends() -> None:
        try:
            await watcher.wait_until(lambda: (watcher.view or {}).get("closed"), timeout=60)
        finally:
            ended.set()

    moves, _ = await asyncio.gather(people_play(), bots_room_ends())
    closed = watcher.view["closed"] if watcher.view else None
    assert closed is not None and closed["reason"] == "abandoned: nobody played for 0.1 minutes"
    assert watcher.seq > started + 2, "the bots played in it until it ended"
    assert moves > 0
    await settle([ann, bo])
    assert (ann.view or {}).get("closed") is None, "a room people play in is not abandoned"
    for c in (watcher, ann, bo):
        await c.close()

    # The abuser's unopened room has ended too, and its place is free again.
    def ended_room() -> bool:
        summary = fetch.get(f"{server.url}/api/rooms/{left}", timeout=10).json()
        return summary["closed"] is not None

    wait_until(ended_room, 30, message="the abandoned pairing room to be closed")
    summary = fetch.get(f"{server.url}/api/rooms/{left}", timeout=10).json()
    assert summary["status"] == "finished" and summary["closed"]["reason"].startswith("abandoned")
    again = pair(server, ABUSER)
    assert again.status_code == 202 and again.json()["status"] == "matched", again.text


@pytest.mark.parametrize(
    "caps_server", [{"MAX_ROOMS_PER_IP": "1", "ABANDONED_ROOM_MINUTES": "0.1"}], indirect=True
)
def test_abandoned_playing_rooms_end_and_free_their_places(caps_server: ServerProcess) -> None:
    run_async(abandoned_rooms_end(caps_server))


# --------------------------------------------------- ACCESS=accounts, every route


def path_of(route: str) -> tuple[str, str]:
    method, path = route.split(" ", 1)
    filled = path.format(
        room_id=MISSING, match_no=1, deal_no=1, players=3, ticket="A" * 22, challenge_id="c" * 24
    )
    return method, filled


@pytest.mark.parametrize("caps_server", [{"ACCESS": "accounts"}], indirect=True)
def test_a_guest_makes_no_room_by_any_route_in_accounts_mode(caps_server: ServerProcess) -> None:
    from tests.api.test_room_routes import EXPECTED, room_routes  # the route table's reading

    server = caps_server
    _, marked = room_routes(create_app(Settings()))
    assert marked == EXPECTED
    guest_key = key()
    for route in sorted(marked):
        method, path = path_of(route)
        for body in ({}, {"players": 3, "name": "Guest", "bots": 2, "bots_after": 0}):
            r = fetch.request(
                method,
                server.url + path,
                json=body if method == "POST" else None,
                headers={"X-Player-Key": guest_key},
                timeout=20,
            )
            assert refused(r, 401, "sign_in_required"), (route, r.text)
            assert "sign in to make a room" in r.json()["message"]
    assert sql(server.database_url, "SELECT count(*) FROM rooms")[0][0] == 0
    assert sql(server.database_url, "SELECT count(*) FROM pairing_tickets")[0][0] == 0

    # signed in, the same routes make rooms (the deal of the day among them)
    ann = Browser(server)
    try:
        assert ann.register("Ann_1").status_code == 201
        r = ann.post("/api/daily/3", {}, **{"X-Player-Key": ann.key})
        assert r.status_code == 201, r.text
        r = ann.post("/api/pairing", {"players": 2, "bots_after": 0})
        assert r.status_code == 202 and r.json()["status"] == "matched", r.text
        r = ann.http.get(f"/api/pairing/{r.json()['ticket']}")
        assert r.status_code == 200 and r.json()["status"] == "matched", r.text
    finally:
        ann.close()
