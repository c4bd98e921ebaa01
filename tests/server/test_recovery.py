"""kill -9 mid-deal, restart on the same database: nothing committed is lost.

Every room must resume at the same seq with identical views; clients
reconnect with ``last_seq`` and play on to the end of the match.
"""

from __future__ import annotations

import random

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, fresh_snapshot, join, play_random


async def _connect_all(
    server: ServerProcess,
    room_id: str,
    tokens: list[str | None],
    kept: list[tuple[int, dict]] | None = None,
) -> list[Client]:
    """Connect every client; with ``kept`` each resumes from the view it held."""
    clients = []
    for i, t in enumerate(tokens):
        c = Client(server.ws_url, room_id, t)
        if kept:
            c.seq, c.view = kept[i][0], kept[i][1]
        await c.connect(c.seq if kept else None)
        await c.wait_for(lambda m: m["type"] == "welcome")
        await c.drain(0.05)
        clients.append(c)
    return clients


async def scenario(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(database_url, log_path=tmp_path / "a.log").start()
    try:
        room = create_room(server.url, 4, rules={"match_deals": 2})
        room_id = room["room_id"]
        # a room whose creator never connects: after the grace period a bot plays for them
        other = create_room(server.url, 3, bots=2, bot_delay=0.2, grace=0.3)
        tokens: list[str | None] = [room["token"]] + [
            join(server.url, room_id, n)["token"] for n in ("Bo", "Cy", "Di")
        ]
        clients = await _connect_all(server, room_id, tokens + [None])
        rng = random.Random(3)
        acked = await play_random(clients[:4] + [clients[4]], 37, rng)
        before = [(c.seq, c.view) for c in clients]
        other_before = fetch.get(f"{server.url}/api/rooms/{other['room_id']}").json()
    finally:
        server.kill9()
    for c in clients:
        await c.close()

    again = ServerProcess(database_url, port=server.port, log_path=tmp_path / "b.log").start()
    try:
        for token, (seq, view) in zip(tokens + [None], before):
            assert await fresh_snapshot(again, room_id, token) == (seq, view), (
                "the room resumes at the same seq with identical views"
            )
        clients = await _connect_all(again, room_id, tokens + [None], before)
        for c, (seq, view) in zip(clients, before):
            assert (c.seq, c.view) == (seq, view)
        log = clients[4].view["log"]
        plays_this_deal = [m for m in acked if m["seq"] > clients[4].seq - len(log)]
        assert [(e["card"], sorted(e["taken"])) for e in log][-len(plays_this_deal) :] == [
            (m["card"], sorted(m["take"])) for m in plays_this_deal
        ], "no committed move is lost"
        await play_random(clients[:4] + [clients[4]], 10_000, rng)
        assert clients[0].view["status"] == "finished"
        assert len(clients[0].view["deal_totals"]) == 2
        for n in (1, 2):
            rec = fetch.get(f"{again.url}/api/rooms/{room_id}/deals/{n}")
            assert rec.status_code == 200
        # the bot room goes on by itself after the restart
        other_id = other["room_id"]
        watcher = await Client(again.ws_url, other_id, None).connect()
        await watcher.wait_for(lambda m: m["type"] == "snapshot")
        assert other_before["status"] == "playing"
        # nobody watched it while the server was down: once someone does, the grace
        # period runs out and a bot plays for the absent creator, beside the bots
        await watcher.wait_for(
            lambda m: m["type"] == "patch" and watcher.view["seats"][0]["autoplay"], timeout=20
        )
        seq = watcher.seq
        await watcher.wait_for(lambda m: m["type"] == "patch" and watcher.seq > seq + 2, timeout=20)
        for c in clients + [watcher]:
            assert c.errors == []
            await c.close()
    finally:
        again.stop()


def test_kill9_mid_deal_resumes_every_room(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_async(scenario(database_url, tmp_path))
