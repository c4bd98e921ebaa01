"""Abuse limits on rooms and WebSockets, each against a real server, each while a
normal game goes on beside it (issue "A public instance that stays up").

Clients here come from 127.0.0.1, which the server trusts as a proxy by default,
so ``X-Forwarded-For`` makes a client another address: the abuser has one, the
normal players another.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from typing import Any

import httpx
import websockets

from tests import fetch
from tests.conftest import run_async

from .harness import (
    Client,
    ServerProcess,
    create_room,
    metric,
    play_random,
    received,
    two_players,
    wait_metric,
)

ABUSER = {"X-Forwarded-For": "203.0.113.66"}
LIMITED = {
    "MAX_ROOMS_PER_IP": "20",
    "MAX_ROOMS": "5000",
    "WS_PER_IP": "20",
    "WS_PER_ROOM": "50",
    "BAD_TOKEN_PER_MINUTE": "10",
    "BOTS_ONLY_DELAY": "1",
}
"""The documented defaults (the harness turns them off for the other tests)."""


def limited(tmp_path, **env: str) -> ServerProcess:  # type: ignore[no-untyped-def]
    return ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/limits.db",
        env={**LIMITED, **env},
        log_path=tmp_path / "server.log",
    ).start()


async def normal_game(server: ServerProcess, moves: int = 12) -> None:
    """Two people play ``moves`` moves; every one is acknowledged."""
    rid, ann, bo = await two_players(server)
    acked = await play_random([ann, bo], moves, random.Random(moves))
    assert len(acked) == moves and ann.errors == [] and bo.errors == []
    for c in (ann, bo):
        await c.close()


async def _refused(ws: Any) -> dict[str, Any]:
    """The error a refused socket gets before it is closed (1008)."""
    msg = await received(ws)
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1008
    else:
        raise AssertionError("the socket stays open")
    return msg


# --------------------------------------------------------------- WebSockets


async def sockets_per_address(server: ServerProcess) -> None:
    room = create_room(server.url, 3)
    url = f"{server.ws_url}/ws/rooms/{room['room_id']}"
    held = [await websockets.connect(url, additional_headers=ABUSER) for _ in range(3)]

    async def flood() -> dict[str, Any]:
        extra = await websockets.connect(url, additional_headers=ABUSER)
        return await _refused(extra)

    refusal, _ = await asyncio.gather(flood(), normal_game(server))
    assert refusal["type"] == "error" and refusal["code"] == "too_many_connections"
    await held[0].close()
    await wait_metric(server, "krypkasino_connections", 2)  # the server let it go
    again = await websockets.connect(url, additional_headers=ABUSER)
    await again.send(json.dumps({"type": "hello", "token": None}))
    assert (await received(again))["type"] == "welcome", "a closed connection frees its place"
    for ws in held[1:] + [again]:
        await ws.close()
    assert metric(server, "krypkasino_rate_limited_total", kind="ws_per_ip") == 1


def test_an_address_holds_at_most_ws_per_ip_sockets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, WS_PER_IP="3")
    try:
        run_async(sockets_per_address(server))
    finally:
        server.stop()


async def sockets_per_room(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server)
    watchers = [
        await Client(server.ws_url, rid, None, {"X-Forwarded-For": f"198.51.100.{i}"}).connect()
        for i in range(2)
    ]
    for w in watchers:
        await w.wait_for(lambda m: m["type"] == "snapshot")
    one_more = await websockets.connect(
        f"{server.ws_url}/ws/rooms/{rid}", additional_headers={"X-Forwarded-For": "198.51.100.9"}
    )
    refusal = await _refused(one_more)
    assert refusal["code"] == "too_many_connections"
    await play_random([ann, bo] + watchers, 6, random.Random(1))  # the room plays on
    for c in [ann, bo] + watchers:
        await c.close()
    await normal_game(server)  # other rooms are not counted against it


def test_a_room_holds_at_most_ws_per_room_sockets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, WS_PER_ROOM="4")
    try:
        run_async(sockets_per_room(server))
    finally:
        server.stop()


async def hello_deadline(server: ServerProcess) -> None:
    room = create_room(server.url, 2)
    url = f"{server.ws_url}/ws/rooms/{room['room_id']}"

    async def junk_every(seconds: float) -> tuple[float, int, list[str]]:
        """Send junk every ``seconds`` until the server closes; (lasted, sent, the
        errors it answered with).  A fast sender may send one more message after
        the one that used up the budget, before the close reaches it: the errors
        say what the server counted."""
        ws = await websockets.connect(url, additional_headers=ABUSER)
        started, sent, errors = time.monotonic(), 0, []
        try:
            while True:
                await ws.send("junk")
                sent += 1
                try:
                    while True:
                        msg = await received(ws, seconds)
                        errors.append(msg.get("message", ""))
                except TimeoutError:
                    pass
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1008
        return time.monotonic() - started, sent, errors

    (lasted, sent, errors), _ = await asyncio.gather(junk_every(0.5), normal_game(server))
    assert sent <= 5 and "say hello within" in errors[-1], (lasted, sent, errors)
    (lasted, sent, errors) = await junk_every(0.01)
    assert len(errors) == 6 and errors[-1] == "too many messages before hello", (sent, errors)
    assert "too many messages before hello" not in errors[:-1], "five are answered, then it ends"


def test_the_hello_has_a_fixed_deadline_and_a_message_budget(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, HELLO_TIMEOUT="2")
    try:
        run_async(hello_deadline(server))
    finally:
        server.stop()


async def bad_tokens(server: ServerProcess) -> None:
    room = create_room(server.url, 2)
    url = f"{server.ws_url}/ws/rooms/{room['room_id']}"

    async def guess() -> list[str]:
        codes: list[str] = []
        for attempt in range(3):
            ws = await websockets.connect(url, additional_headers=ABUSER)
            try:
                for _ in range(5):
                    await ws.send(json.dumps({"type": "hello", "token": f"guess-{attempt}-{_}"}))
                    codes.append((await received(ws))["code"])
            except websockets.ConnectionClosed:
                pass
            finally:
                await ws.close()
        return codes

    codes, _ = await asyncio.gather(guess(), normal_game(server))
    assert codes[:3] == ["unauthorized"] * 3, codes
    assert codes[3] == "rate_limited" and set(codes[3:]) == {"rate_limited"}, codes
    assert codes.count("unauthorized") == 3, "no more tokens looked up for that address"
    # the seat's rightful player, from another address, is not affected
    me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    await me.wait_for(lambda m: m["type"] == "welcome")
    await me.close()


def test_unknown_tokens_are_rate_limited_per_address(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, BAD_TOKEN_PER_MINUTE="3")
    try:
        run_async(bad_tokens(server))
    finally:
        server.stop()


# -------------------------------------------------------------------- rooms


async def room_caps(server: ServerProcess) -> None:
    def make(address: str) -> httpx.Response:
        return fetch.post(
            server.url + "/api/rooms",
            timeout=10,
            headers={"X-Forwarded-For": address},
            json={"players": 2, "name": "Zed", "bots": 0},
        )

    mine = [make("203.0.113.66") for _ in range(3)]
    assert [r.status_code for r in mine] == [201] * 3
    over = make("203.0.113.66")
    assert over.status_code == 429 and over.json()["code"] == "too_many_rooms"
    await normal_game(server, 4)  # another address: its room is the 4th live one
    assert make("192.0.2.1").status_code == 201  # the 5th
    full = make("192.0.2.2")
    assert full.status_code == 503 and full.json()["code"] == "too_many_rooms"
    assert make("203.0.113.66").json()["code"] == "too_many_rooms"


def test_live_rooms_are_capped_per_address_and_in_all(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, MAX_ROOMS_PER_IP="3", MAX_ROOMS="5")
    try:
        run_async(room_caps(server))
    finally:
        server.stop()


async def waiting_rooms_expire(server: ServerProcess) -> None:
    lonely = create_room(server.url, 3)
    watcher = await Client(server.ws_url, lonely["room_id"], lonely["token"]).connect()
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    await normal_game(server, 6)  # a game in play meanwhile is not touched
    await watcher.wait_for(
        lambda m: m["type"] == "patch" and watcher.view.get("closed"), timeout=30
    )
    assert "nobody joined" in watcher.view["closed"]["reason"]
    summary = fetch.get(f"{server.url}/api/rooms/{lonely['room_id']}").json()
    assert summary["status"] == "finished"
    r = fetch.post(f"{server.url}/api/rooms/{lonely['room_id']}/seats", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["code"] == "closed"
    await watcher.close()


def test_a_waiting_room_nobody_joins_expires(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, WAITING_ROOM_HOURS="0.0005")  # 1.8 s
    try:
        run_async(waiting_rooms_expire(server))
    finally:
        server.stop()


# -------------------------------------------------------------------- bots


def _bots_alone(server: ServerProcess) -> str:
    """A room whose maker never comes: with no grace a bot stands in for her, so bots
    alone play it (once someone is there); its id."""
    return create_room(server.url, 2, bots=1, bot_delay=0, grace=0)["room_id"]


async def _watched_bots_play(server: ServerProcess, db: str, moves: int) -> None:
    """Meanwhile: a room of bots alone, made now and watched, plays ``moves`` moves.
    Its bots are timed as those of any such room made before it, and timers fire in
    the order they are due, so a room made before it whose bots played would have
    moved by then too: time measured in the server's own moves, not guessed."""
    rid = _bots_alone(server)
    watcher = await Client(server.ws_url, rid, None).connect()
    await watcher.wait_until(lambda: len(_plays(db, rid)) >= moves, timeout=30)
    await watcher.close()


async def unattended_and_bots_only(server: ServerProcess, db: str) -> None:
    # Ann never comes: with no grace a bot stands in, so bots alone play this room.
    rid = _bots_alone(server)
    await _watched_bots_play(server, db, 2)
    assert fetch.get(f"{server.url}/api/rooms/{rid}").json()["seats"][0]["name"] == "Ann"
    assert _plays(db, rid) == [], "nobody is there: nothing is played"
    watcher = await Client(server.ws_url, rid, None).connect()
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    await normal_game(server, 10)  # a person's game beside it is not slowed to the floor
    while len(_plays(db, rid)) < 4:
        await watcher.recv(10)
    await watcher.close()
    await wait_metric(server, "krypkasino_connections", 0)  # the server saw it leave
    await _watched_bots_play(server, db, 2)  # a move already in flight lands meanwhile
    paused = _plays(db, rid)
    await _watched_bots_play(server, db, 2)
    assert _plays(db, rid) == paused, "the watcher left: the bots stop"
    gaps = [b - a for a, b in zip(paused, paused[1:], strict=False)]
    assert gaps and min(gaps) >= 500, f"bots alone play at most one move per 0.5 s: {gaps}"
    assert metric(server, "krypkasino_rooms", status="playing") >= 1


def _plays(db: str, room_id: str) -> list[int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT at_ms FROM events WHERE room_id = ? AND kind = 'play' ORDER BY seq", (room_id,)
        ).fetchall()
    return [r[0] for r in rows]


def test_bots_play_only_while_someone_is_there_and_alone_no_faster_than_the_floor(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path, BOTS_ONLY_DELAY="0.5")
    try:
        run_async(unattended_and_bots_only(server, str(tmp_path / "limits.db")))
    finally:
        server.stop()


async def nothing_replayed_at_start(tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = limited(tmp_path)
    rooms = [create_room(server.url, 3, bots=2, bot_delay=0, grace=0) for _ in range(3)]
    server.kill9()
    again = ServerProcess(
        server.database_url, port=server.port, env=LIMITED, log_path=tmp_path / "again.log"
    ).start()
    try:
        for status in ("waiting", "playing", "finished"):
            assert metric(again, "krypkasino_rooms", status=status) == 0, (
                "no room is loaded before someone opens it"
            )
        watcher = await Client(again.ws_url, rooms[0]["room_id"], None).connect()
        await watcher.wait_for(lambda m: m["type"] == "snapshot")
        assert metric(again, "krypkasino_rooms", status="playing") == 1
        await watcher.close()
    finally:
        again.stop()


def test_start_up_loads_no_room_until_someone_opens_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_async(nothing_replayed_at_start(tmp_path))
