"""Two server processes, one PostgreSQL, one Redis (ARCHITECTURE.md, "More than one machine").

The players of one room are connected to different processes and play; then
one process is killed -9 in the middle of the deal, its players reconnect to
the other one and finish the deal: nothing lost, seq gap-free (the client
checks every patch), views identical to a fresh snapshot.
"""

from __future__ import annotations

import os
import random

import pytest

from tests import fetch
from tests.conftest import require_service, run_async

from .harness import (
    Client,
    ServerProcess,
    converge,
    create_room,
    fresh_snapshot,
    join,
    play_random,
    settle,
)

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def _redis_available() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


async def two_processes(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {"REDIS_URL": REDIS_URL}
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        room = create_room(a.url, 4, rules={"match_deals": 1})
        rid = room["room_id"]
        tokens: list[str | None] = [
            room["token"],
            join(b.url, rid, "Bo")["token"],
            join(a.url, rid, "Cy")["token"],
            join(b.url, rid, "Di")["token"],
        ]
        homes = [a, b, a, b, b]  # seats 0 and 2 on A; 1, 3 and a spectator on B
        clients = []
        for t, home in zip(tokens + [None], homes):
            c = await Client(home.ws_url, rid, t).connect()
            await c.wait_for(lambda m: m["type"] == "snapshot")
            clients.append(c)
        await settle(clients)
        summary = fetch.get(f"{b.url}/api/rooms/{rid}").json()
        assert [s["connected"] for s in summary["seats"]] == [True] * 4, (
            "presence spans both processes"
        )
        rng = random.Random(9)
        acked = await play_random(clients, 30, rng)
        for server in (a, b):
            for c, t in zip(clients, tokens + [None]):
                assert await fresh_snapshot(server, rid, t) == (c.seq, c.view)
        a.kill9()
        for i in (0, 2):  # A's players move over to B
            await clients[i].close()
            clients[i].url = f"{b.ws_url}/ws/rooms/{rid}"
            await clients[i].connect(clients[i].seq)
            await clients[i].wait_for(lambda m: m["type"] == "welcome")
        acked += await play_random(clients, 10_000, rng)
        assert clients[4].view["status"] == "finished"
        for c, t in zip(clients, tokens + [None]):
            assert await fresh_snapshot(b, rid, t) == (c.seq, c.view)
            assert c.errors == []
        record = fetch.get(f"{b.url}/api/rooms/{rid}/deals/1").json()
        assert len(record["moves"]) == 100, "no committed move is lost"
        assert [m["card"] for m in record["moves"]] == [m["card"] for m in acked]
        seqs = [m["seq"] for m in acked]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    finally:
        for server in (a, b):
            if server.proc and server.proc.poll() is None:
                server.stop()


@pytest.mark.redis
@pytest.mark.postgres
def test_two_processes_share_a_room_and_survive_a_kill(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    run_async(two_processes(postgres_url, tmp_path))


async def bot_heavy_kills(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """One person and three bots, the room made on A (whose timers then run there),
    the person and a spectator on B, another spectator on A.  A is killed -9 in the
    middle of the deal: once A's lease on the room runs out, B runs the bots and the
    game goes on.  Then both are killed and started again: the room resumes at the
    stored seq and plays to its end, with every acknowledged move in its record."""
    env = {"REDIS_URL": REDIS_URL, "LEASE_SECONDS": "2"}
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    servers = [a, b]
    try:
        room = create_room(a.url, 4, bots=3, bot_delay=0.05, rules={"match_deals": 1})
        rid, token = room["room_id"], room["token"]
        me = await Client(b.ws_url, rid, token).connect()
        watch_b = await Client(b.ws_url, rid, None).connect()
        watch_a = await Client(a.ws_url, rid, None).connect()
        clients = [me, watch_b, watch_a]
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "snapshot")
        rng = random.Random(17)
        acked: list[tuple[str, list[str]]] = []

        async def my_turns(n: int) -> None:
            while n > 0 and me.view["status"] == "playing":
                if me.view["to_move"] != 0 or not me.view["legal"]:
                    await me.recv(30)
                    continue
                move = rng.choice(me.view["legal"])
                ack = await me.play(move["card"], move["take"])
                assert ack["type"] == "ack", ack
                acked.append((move["card"], sorted(move["take"])))
                n -= 1

        async def my_turn() -> None:
            """Until the bots wait for me (or the deal is over) and every client has it."""
            while True:
                await converge(clients)
                if me.view["to_move"] == 0 or me.view["status"] != "playing":
                    return
                await me.recv(30)

        await my_turns(4)
        a.kill9()  # in the middle of the bots' moves
        await watch_a.close()
        watch_a.url = f"{b.ws_url}/ws/rooms/{rid}"
        await watch_a.connect(watch_a.seq)
        await my_turns(4)  # the bots play on from B
        await my_turn()
        for c, t in zip(clients, (token, None, None)):
            assert await fresh_snapshot(b, rid, t) == (c.seq, c.view)

        b.kill9()
        for c in clients:
            await c.close()
        a.start()
        b.start()
        for c, home in zip(clients, (a, b, a)):
            c.url = f"{home.ws_url}/ws/rooms/{rid}"
            await c.connect(c.seq)
            await c.wait_for(lambda m: m["type"] == "welcome")
        await my_turn()
        for c, t in zip(clients, (token, None, None)):
            assert await fresh_snapshot(a, rid, t) == (c.seq, c.view), (
                "the room resumes exactly at what is stored"
            )
        await my_turns(10_000)
        await settle(clients)
        assert me.view["status"] == "finished", "the deal plays to its end"
        record = fetch.get(f"{a.url}/api/rooms/{rid}/deals/1").json()
        stored = [(m["card"], sorted(m["take"])) for m in record["moves"]]
        assert [(e["card"], sorted(e["taken"])) for e in me.view["log"]] == stored
        assert [m for m, e in zip(stored, me.view["log"]) if e["seat"] == 0] == acked, (
            "every acknowledged move of the person is stored, in order"
        )
        for c in clients:
            assert c.errors == []
            await c.close()
    finally:
        for server in servers:
            if server.proc and server.proc.poll() is None:
                server.stop()


@pytest.mark.redis
@pytest.mark.postgres
def test_bot_game_survives_kill9_of_one_process_and_then_of_both(
    postgres_url: str, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    run_async(bot_heavy_kills(postgres_url, tmp_path))
