"""Redis goes away for 3 s, and for 30 s, under two server processes sharing rooms
(Redis reached through a TCP proxy the test stops and starts).

Afterwards a move on either process reaches every client on both, in a room
that existed before and in one created after; during the outage each process
says so in /readyz and its metrics, and its log records the loss and the
return.
"""

from __future__ import annotations

import random

import pytest

from tests.conftest import require_service, run_async

from .harness import (
    Client,
    ServerProcess,
    create_room,
    join,
    metric,
    play_random,
    settle,
    through,
    wait_metric,
    wait_ready,
)
from .proxy import TcpProxy
from .test_multiprocess import REDIS_URL, _redis_available


async def _room_across(a: ServerProcess, b: ServerProcess) -> tuple[str, list[Client]]:
    """A 2-player room with Ann on A, Bo on B, and a spectator on each."""
    room = create_room(a.url, 2)
    rid = room["room_id"]
    bo = join(b.url, rid, "Bo")
    clients = []
    for home, token in ((a, room["token"]), (b, bo["token"]), (a, None), (b, None)):
        c = await Client(home.ws_url, rid, token).connect()
        await c.wait_for(lambda m: m["type"] == "snapshot")
        clients.append(c)
    await settle(clients)
    return rid, clients


async def outage(postgres_url: str, tmp_path, seconds: float) -> None:  # type: ignore[no-untyped-def]
    redis_port = int(REDIS_URL.split(":")[2].split("/")[0])
    proxy = TcpProxy("127.0.0.1", redis_port).start()
    env = {"REDIS_URL": through(REDIS_URL, proxy.port)}
    a = ServerProcess(postgres_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        await wait_ready(a)
        await wait_ready(b)
        rid, clients = await _room_across(a, b)
        rng = random.Random(11)
        await play_random(clients[:2] + clients[2:], 4, rng)

        proxy.stop()
        for server in (a, b):
            await wait_ready(server, want=False, timeout=20)
            await wait_metric(server, "krypkasino_broker_up", 0)
        # Play goes on during the outage: moves are stored, and each process catches
        # its clients up from the database (at the latest on its next heartbeat).
        await play_random(clients, 2, rng)
        if seconds > 10:
            # A long outage: the processes still learn of each other's moves.
            await play_random(clients, 2, rng)
        await _sleep_until(seconds, proxy)

        for server in (a, b):
            await wait_ready(server, timeout=30)
            await wait_metric(server, "krypkasino_broker_up", 1)
            assert metric(server, "krypkasino_broker_losses_total") >= 1
        # A move on either process reaches every client on both, without waiting for
        # a heartbeat: the broker carries it again.
        for _ in range(4):
            await play_random(clients, 1, rng)
        newer, fresh_clients = await _room_across(b, a)
        await play_random(fresh_clients, 6, rng)
        for c in clients + fresh_clients:
            assert c.errors == []
            await c.close()
        for name in ("a.log", "b.log"):
            log = (tmp_path / name).read_text()
            assert "Redis subscriber lost" in log and "Redis is back" in log
    finally:
        a.stop()
        b.stop()
        proxy.stop()


async def _sleep_until(seconds: float, proxy: TcpProxy) -> None:
    import asyncio

    await asyncio.sleep(seconds)
    proxy.start()


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.parametrize("seconds", [3, 30])
def test_redis_outage_under_two_processes(postgres_url: str, tmp_path, seconds: int) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    run_async(outage(postgres_url, tmp_path, seconds))
