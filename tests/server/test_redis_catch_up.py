"""A move made while Redis was away reaches the other process's clients as soon as
Redis is back, with no later move to carry it and no heartbeat to catch it up.

Redis pub/sub delivers at most once: the announcement of a move made during an
outage is lost, and a process that returns must read what it missed from the
database (the broker's return calls the rooms' ``reconcile``).  Two processes
share PostgreSQL and reach Redis through a TCP proxy the test stops and starts;
their housekeeping heartbeat, the other way a process catches up, is set far
longer than the test, so that only the catch-up on return can deliver the move.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.conftest import require_service, run_async

from .harness import (
    ServerProcess,
    metric,
    settle_turn,
    through,
    wait_metric,
    wait_ready,
)
from .proxy import TcpProxy
from .test_multiprocess import REDIS_URL, _redis_available
from .test_redis_outage import _room_across

HEARTBEAT = 100.0
"""Seconds between housekeeping rounds (the longest HEARTBEAT_MAX allows, with a lease
three times as long so that leases are still renewed in time)."""
SLOW_HOUSEKEEPING = {"HEARTBEAT_MAX": f"{HEARTBEAT:g}", "LEASE_SECONDS": f"{3 * HEARTBEAT:g}"}
CATCH_UP = 3.0
"""Seconds the other process's clients may take to get the missed move once its
subscriber is back: the catch-up takes one database read, well under a second;
this is generous for a loaded machine and far under the heartbeat."""


async def missed_move_after_return(postgres_url: str, tmp_path: Path) -> None:
    redis_port = int(REDIS_URL.split(":")[2].split("/")[0])
    proxy = TcpProxy("127.0.0.1", redis_port).start()
    env = {"REDIS_URL": through(REDIS_URL, proxy.port), **SLOW_HOUSEKEEPING}
    started = time.monotonic()
    a = ServerProcess(postgres_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        for server in (a, b):
            await wait_ready(server)
        # Ann and a spectator on A, Bo and a spectator on B.
        _, clients = await _room_across(a, b)
        by_home = {a: clients[0::2], b: clients[1::2]}
        v = await settle_turn(clients)
        mover = clients[v["to_move"]]
        here, there = (a, b) if mover in by_home[a] else (b, a)

        proxy.stop()
        for server in (a, b):
            await wait_metric(server, "krypkasino_broker_up", 0)
        move = mover.view["legal"][0]
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
        for c in by_home[here]:
            await c.wait_seq(ack["seq"])  # its own process's clients have it at once
        far = by_home[there]
        for c in far:
            await c.drain(0.05)
            assert c.seq < ack["seq"], "the other process has not heard of the move yet"

        proxy.start()  # nobody moves from here on
        await wait_metric(there, "krypkasino_broker_up", 1, timeout=30)
        try:
            await asyncio.wait_for(asyncio.gather(*(c.wait_seq(ack["seq"]) for c in far)), CATCH_UP)
        except TimeoutError:
            pytest.fail(
                f"{CATCH_UP:g} s after Redis came back, the clients of the other process"
                f" are at seq {[c.seq for c in far]}, not {ack['seq']}: the missed move"
                f" was not caught up (the heartbeat, {HEARTBEAT:g} s, would)"
            )
        assert all(c.seq == ack["seq"] for c in far)
        assert time.monotonic() - started < HEARTBEAT, "no housekeeping round can have run"
        assert far[0].view["log"][-1]["card"] == move["card"]
        assert metric(there, "krypkasino_broker_losses_total") == 1
        assert there.log_path is not None
        assert "Redis is back; catching up every room" in there.log_path.read_text()
        for c in clients:
            assert c.errors == []
            await c.close()
    finally:
        a.stop()
        b.stop()
        proxy.stop()


@pytest.mark.redis
@pytest.mark.postgres
def test_a_move_missed_during_a_redis_outage_reaches_the_other_process_when_redis_returns(
    postgres_url: str, tmp_path: Path
) -> None:
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    run_async(missed_move_after_return(postgres_url, tmp_path))
