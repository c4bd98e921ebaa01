"""A backup taken while games are played: every acknowledged move is in it, and every
room resumes from it (issue 35).

Three rooms of two people play on a real server while ``krypkasino backup``
runs beside it.  The backup is restored into a new database by ``krypkasino
restore`` and a new server starts on it: every move acknowledged before the
backup began is there with its seat, card and take, every room is at the seq
the backup holds, and in every room the person to move plays on.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from tests.conftest import run_async
from tests.server.harness import (
    Client,
    ServerProcess,
    create_room,
    join,
    krypkasino,
    krypkasino_beside,
    play_random,
    settle_turn,
    sql,
)

ROOMS = 3


async def seated_pair(server: ServerProcess) -> tuple[str, list[Client], dict[int, str]]:
    room = create_room(server.url, 2)
    bo = join(server.url, room["room_id"], "Bo")
    tokens = {room["seat"]: room["token"], bo["seat"]: bo["token"]}
    clients = [await Client(server.ws_url, room["room_id"], tokens[s]).connect() for s in (0, 1)]
    for c in clients:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    return room["room_id"], clients, tokens


async def play_during_backup(
    server: ServerProcess, url: str, target: Path
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, dict[int, str]]]:
    """Rooms playing before, during and after the backup; the moves acknowledged before
    it started, per room, and each room's seat tokens."""
    rooms = [await seated_pair(server) for _ in range(ROOMS)]
    acked: dict[str, list[dict[str, Any]]] = {rid: [] for rid, _, _ in rooms}
    stop = asyncio.Event()

    async def keep_playing(rid: str, clients: list[Client], rng: random.Random) -> None:
        while not stop.is_set():
            acked[rid] += await play_random(clients, 1, rng)

    players = [
        asyncio.create_task(keep_playing(rid, clients, random.Random(i)))
        for i, (rid, clients, _) in enumerate(rooms)
    ]
    while min(len(moves) for moves in acked.values()) < 10:
        await asyncio.sleep(0.05)
    before = {rid: list(moves) for rid, moves in acked.items()}
    done = await krypkasino_beside(url, "backup", str(target))
    assert done.returncode == 0, done.stderr
    stop.set()
    await asyncio.gather(*players)
    for _, clients, _ in rooms:
        for c in clients:
            await c.close()
    return before, {rid: tokens for rid, _, tokens in rooms}


async def resume(server: ServerProcess, rid: str, tokens: dict[int, str], seq: int) -> None:
    """Both seats reconnect at the room's stored seq, and the person to move plays."""
    clients = [await Client(server.ws_url, rid, tokens[s]).connect() for s in (0, 1)]
    try:
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "snapshot")
            assert c.seq == seq
        view = await settle_turn(clients)
        mover = clients[view["to_move"]]
        move = mover.view["legal"][0]
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
    finally:
        for c in clients:
            await c.close()


def test_a_backup_taken_during_play_restores_every_acknowledged_move(
    database_url: str, second_database_url: str, tmp_path: Path
) -> None:
    copy = tmp_path / ("backup.db" if database_url.startswith("sqlite") else "backup.tar.gz")
    server = ServerProcess(database_url, log_path=tmp_path / "server.log").start()
    try:
        before, tokens = run_async(play_during_backup(server, database_url, copy))
    finally:
        server.stop()

    done = krypkasino(second_database_url, "restore", str(copy))
    assert done.returncode == 0, done.stderr
    for rid, moves in before.items():
        stored = {
            seq: (seat, card, json.loads(take) if isinstance(take, str) else take or [])
            for seq, seat, card, take in sql(
                second_database_url,
                "SELECT seq, seat, card, take FROM events WHERE room_id = :r AND kind = 'play'",
                r=rid,
            )
        }
        for move in moves:
            assert stored.get(move["seq"], (None,))[1:] == (move["card"], move["take"]), (
                f"acknowledged move {move} of room {rid} is not in the backup"
            )

    restored = ServerProcess(second_database_url, log_path=tmp_path / "restored.log").start()
    try:
        for rid, seats in tokens.items():
            seq = sql(second_database_url, "SELECT seq FROM rooms WHERE id = :r", r=rid)[0][0]
            run_async(resume(restored, rid, seats, seq))
    finally:
        restored.stop()
