"""Limits that hold for a whole IPv6 network (issue 34), against real server processes.

One host with a /64 has 2^64 addresses to rotate through; here it uses a few hundred
distinct ones, each sent as ``X-Forwarded-For`` from 127.0.0.1 (a trusted proxy by
default), and is refused as one address would be, while clients of other networks go
on.  Rooms are rows in the database, so the room caps and the expiry of rooms nobody
joined are checked on SQLite and PostgreSQL, across a kill -9 and restart.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests import fetch
from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import Client, ServerProcess, backdate, received

NETWORK = "2001:db8:4b1d:7::"
"""The flooding host's /64 (documentation prefix)."""
_hosts = itertools.count(1)


def in_network() -> dict[str, str]:
    """A new address of the flooding /64 every call, as a rotating host sends them."""
    n = next(_hosts)
    return {"X-Forwarded-For": f"{NETWORK}{n % 65536:x}:{n * 7919 % 65536:x}:{n:x}"}


ELSEWHERE = {"X-Forwarded-For": "2001:db8:4b1d:8::1"}
"""The next /64: another household."""
IPV4 = {"X-Forwarded-For": "198.51.100.40"}

ROOM_LIMITS = {
    "MAX_ROOMS_PER_IP": "3",
    "MAX_ROOMS": "50",
    "ROOM_CREATE_PER_MINUTE": "5",
    "WAITING_ROOM_HOURS": "24",
    "WAITING_ROOM_MINUTES": "60",
}


def start(database_url: str, log: Path, port: int | None = None, **env: str) -> ServerProcess:
    return ServerProcess(database_url, port=port, env={**ROOM_LIMITS, **env}, log_path=log).start()


def make_room(server: ServerProcess, headers: dict[str, str], players: int = 3) -> httpx.Response:
    return fetch.post(
        server.url + "/api/rooms",
        json={"players": players, "name": "Ann", "bots": 0},
        headers=headers,
        timeout=10,
    )


def status(server: ServerProcess, room_id: str) -> dict[str, Any]:
    summary: dict[str, Any] = fetch.get(f"{server.url}/api/rooms/{room_id}", timeout=10).json()
    return summary


# ------------------------------------------------------------------ rooms


def test_a_flood_of_rooms_from_one_64_is_refused_like_one_address_through_a_restart(
    database_url: str, tmp_path: Path
) -> None:
    server = start(database_url, tmp_path / "a.log")
    try:
        made = [make_room(server, in_network()) for _ in range(3)]
        assert [r.status_code for r in made] == [201] * 3, [r.text for r in made]
        over = make_room(server, in_network())
        assert over.status_code == 429 and over.json()["code"] == "too_many_rooms", over.text
        # Another /64 and an IPv4 client are not counted with it.
        assert make_room(server, ELSEWHERE).status_code == 201
        assert make_room(server, IPV4).status_code == 201
        # Its request budget is the network's too: 4 attempts taken, 1 left, then 429.
        assert make_room(server, in_network()).json()["code"] == "too_many_rooms"
        limited = make_room(server, in_network())
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert "Retry-After" in limited.headers
        server.kill9()
        # The live rooms are in the database: a restarted server counts them again.
        server = start(database_url, tmp_path / "b.log", port=server.port)
        again = make_room(server, in_network())
        assert again.status_code == 429 and again.json()["code"] == "too_many_rooms"
        assert make_room(server, ELSEWHERE).status_code == 201
    finally:
        server.stop()


def test_the_network_size_is_a_setting(tmp_path: Path) -> None:
    server = start(f"sqlite+aiosqlite:///{tmp_path}/p.db", tmp_path / "p.log", IPV6_PREFIX="48")
    try:
        assert [make_room(server, in_network()).status_code for _ in range(3)] == [201] * 3
        # The neighbouring /64 is in the same /48 now: counted with the flood.
        assert make_room(server, ELSEWHERE).json()["code"] == "too_many_rooms"
        assert make_room(server, {"X-Forwarded-For": "2001:db8:4b1e::1"}).status_code == 201
        # An IPv4-mapped IPv6 address is its IPv4 address, whatever the prefix.
        mapped = {"X-Forwarded-For": "::ffff:" + IPV4["X-Forwarded-For"]}
        assert [make_room(server, mapped).status_code for _ in range(2)] == [201] * 2
        assert make_room(server, IPV4).status_code == 201
        assert make_room(server, mapped).json()["code"] == "too_many_rooms"
    finally:
        server.stop()


async def _expiry(server: ServerProcess, flood: list[str], database_url: str) -> None:
    # Kept: a room whose maker has it open, and a room someone joined.
    kept_open = make_room(server, IPV4).json()
    joined = make_room(server, ELSEWHERE).json()
    r = fetch.post(f"{server.url}/api/rooms/{joined['room_id']}/seats", json={"name": "Bo"})
    assert r.status_code == 201, r.text
    maker = await Client(server.ws_url, kept_open["room_id"], kept_open["token"], IPV4).connect()
    await maker.wait_for(lambda m: m["type"] == "snapshot")
    # Both older than the flood's rooms: a sweep that reaches those has looked at these.
    for room_id in (kept_open["room_id"], joined["room_id"]):
        backdate(database_url, room_id, 0.05)
    for room_id in flood:
        backdate(database_url, room_id, 0.04)
    await asyncio.to_thread(
        wait_until,
        lambda: all(status(server, rid)["status"] == "finished" for rid in flood),
        60,
        message="the flood's waiting rooms to be closed",
    )
    closed = status(server, flood[0])["closed"]
    assert closed is not None and "nobody joined within" in closed["reason"]
    assert status(server, kept_open["room_id"])["status"] == "waiting", "its maker is there"
    assert status(server, joined["room_id"])["status"] == "waiting", "someone joined it"
    # The network may make rooms again.
    assert make_room(server, in_network()).status_code == 201
    await maker.close()


def test_waiting_rooms_nobody_joined_or_opened_expire_within_minutes_after_a_restart(
    database_url: str, tmp_path: Path
) -> None:
    server = start(database_url, tmp_path / "a.log", ROOM_CREATE_PER_MINUTE="0")
    try:
        flood = [make_room(server, in_network()).json()["room_id"] for _ in range(3)]
        assert make_room(server, in_network()).json()["code"] == "too_many_rooms"
    finally:
        server.kill9()
    # Restarted with rooms nobody joined closed after 3 s (0.05 minutes) unopened.
    server = start(
        database_url,
        tmp_path / "b.log",
        port=server.port,
        ROOM_CREATE_PER_MINUTE="0",
        WAITING_ROOM_MINUTES="0.05",
    )
    try:
        run_async(_expiry(server, flood, database_url))
    finally:
        server.stop()


# ------------------------------------------------------------- WebSockets


async def _refusal(ws: Any) -> tuple[dict[str, Any], int | None]:
    """The error a refused socket gets, and the code it is then closed with."""
    msg = await received(ws)
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except websockets.ConnectionClosed as closed:
        return msg, closed.rcvd.code if closed.rcvd is not None else None
    raise AssertionError("the socket stays open")


async def _welcome(url: str, headers: dict[str, str]) -> Any:
    ws = await websockets.connect(url, additional_headers=headers, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "token": None}))
    msg = await received(ws)
    assert msg["type"] == "welcome", msg
    return ws


async def _socket_caps(server: ServerProcess) -> None:
    room = make_room(server, IPV4).json()
    url = f"{server.ws_url}/ws/rooms/{room['room_id']}"
    flood = [await _welcome(url, in_network()) for _ in range(3)]
    # One more from the same /64, from an address not seen before: refused as the 4th.
    extra = await websockets.connect(url, additional_headers=in_network())
    msg, code = await _refusal(extra)
    assert msg["code"] == "too_many_connections" and code == 1008, (msg, code)
    # A new player elsewhere still connects: the network's cap left room (4 and 5 of 5).
    player = await _welcome(url, ELSEWHERE)
    other = await _welcome(url, IPV4)
    # The whole server is full now: refused with a reason, and asked to come back later.
    late = await websockets.connect(url, additional_headers={"X-Forwarded-For": "192.0.2.9"})
    msg, code = await _refusal(late)
    assert msg["code"] == "server_busy" and code == 1013, (msg, code)
    assert "as many connections as it can (5)" in msg["message"]
    await flood[0].close()
    await asyncio.to_thread(
        wait_until,
        lambda: _open_sockets(server) == 4,
        20,
        message="the server to let a closed socket go",
    )
    late = await _welcome(url, {"X-Forwarded-For": "192.0.2.9"})
    for ws in [*flood[1:], player, other, late]:
        await ws.close()


def _open_sockets(server: ServerProcess) -> float:
    from .harness import metric

    return metric(server, "krypkasino_connections")


def test_one_networks_socket_flood_is_capped_and_the_server_wide_cap_refuses_clearly(
    tmp_path: Path,
) -> None:
    server = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/ws.db",
        env={"WS_PER_IP": "3", "WS_MAX": "5"},
        log_path=tmp_path / "server.log",
    ).start()
    try:
        run_async(_socket_caps(server))
    finally:
        server.stop()
