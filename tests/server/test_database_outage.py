"""The database goes away for a few seconds in the middle of a deal (PostgreSQL
reached through a TCP proxy that the test stops and starts).

What must hold (issue "Faults and many processes"): a play made during the
outage gets an ``unavailable`` error on a socket that stays open, nothing moves
in anyone's view, the same play id sent again afterwards is played once, a bot
whose move failed plays it when the database is back, readiness says not ready
meanwhile, and at the end the stored moves are exactly the moves every client
saw and acknowledged.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests import fetch
from tests.conftest import run_async

from .harness import (
    Client,
    ServerProcess,
    create_room,
    fresh_snapshot,
    metric,
    play_random,
    ready,
    through,
    two_players,
    wait_ready,
)
from .proxy import TcpProxy

OUTAGE_SECONDS = 3.0


def _deal_moves(server: ServerProcess, room_id: str) -> list[tuple[str, list[str]]]:
    record = fetch.get(f"{server.url}/api/rooms/{room_id}/deals/1", timeout=10)
    assert record.status_code == 200, record.text
    return [(m["card"], sorted(m["take"])) for m in record.json()["moves"]]


def _seen(client: Client) -> list[tuple[str, list[str]]]:
    return [(e["card"], sorted(e["taken"])) for e in client.view["log"]]


async def _ping(client: Client) -> None:
    await client.ws.send(json.dumps({"type": "ping"}))
    await client.wait_for(lambda m: m["type"] == "pong", timeout=10)


async def human_to_move(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    proxy = TcpProxy("127.0.0.1", _port(postgres_url)).start()
    server = ServerProcess(
        through(postgres_url, proxy.port), log_path=tmp_path / "server.log"
    ).start()
    try:
        rid, ann, bo = await two_players(server, rules={"match_deals": 1})
        clients = [ann, bo]
        rng = random.Random(4)
        acked = await play_random(clients, 7, rng)
        mover = clients[ann.view["to_move"]]
        other = clients[1 - ann.view["to_move"]]
        move = rng.choice(mover.view["legal"])
        seq = mover.seq

        proxy.stop()
        answer = await mover.play(move["card"], move["take"], msg_id="during-outage")
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        await _ping(mover)  # the socket stays open
        await _ping(other)
        assert not ready(server), "/readyz says not ready while the database is away"
        again = await mover.play(move["card"], move["take"], msg_id="during-outage")
        assert again["code"] == "unavailable", "a resend during the outage is refused too"
        await asyncio.sleep(OUTAGE_SECONDS)
        await other.drain(0.2)
        assert (mover.seq, other.seq) == (seq, seq), "nobody saw a move that was not stored"

        proxy.start()
        await wait_ready(server)
        ack = await mover.play(move["card"], move["take"], msg_id="during-outage")
        assert ack == {"type": "ack", "id": "during-outage", "seq": seq + 1, "duplicate": False}, (
            "the resend after the outage is played, once"
        )
        resent = await mover.play(move["card"], move["take"], msg_id="during-outage")
        assert resent["type"] == "ack" and resent["duplicate"] is True
        acked.append({"seq": ack["seq"], **move})
        acked += await play_random(clients, 10_000, rng)

        assert ann.view["status"] == "finished", "the deal plays on to its end"
        stored = _deal_moves(server, rid)
        assert [(m["card"], sorted(m["take"])) for m in acked] == stored, (
            "every acknowledged move is stored, and nothing else"
        )
        for c in clients:
            assert _seen(c) == stored, "every client saw exactly the stored moves"
            assert await fresh_snapshot(server, rid, c.token) == (c.seq, c.view)
        assert metric(server, "krypkasino_write_failures_total") >= 1
        for c in clients:
            await c.close()
    finally:
        server.stop()
        proxy.stop()


async def bot_to_move(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    proxy = TcpProxy("127.0.0.1", _port(postgres_url)).start()
    server = ServerProcess(
        through(postgres_url, proxy.port), log_path=tmp_path / "server.log"
    ).start()
    try:
        room = create_room(server.url, 2, bots=1, bot_delay=0.3, rules={"match_deals": 1})
        rid = room["room_id"]
        me = await Client(server.ws_url, rid, room["token"]).connect()
        await me.wait_for(lambda m: m["type"] == "snapshot")
        rng = random.Random(8)
        mine: list[tuple[str, list[str]]] = []
        outage_hit_bot = False
        while me.view["status"] == "playing":
            if me.view["to_move"] != 0 or not me.view["legal"]:
                await me.recv(20)
                continue
            move = rng.choice(me.view["legal"])
            ack = await me.play(move["card"], move["take"])
            assert ack["type"] == "ack", ack
            mine.append((move["card"], sorted(move["take"])))
            if outage_hit_bot or len(mine) < 4 or me.view["status"] != "playing":
                continue
            proxy.stop()  # the bot is due 0.3 s after the move just acknowledged
            await me.drain(0.05)
            if me.seq != ack["seq"]:
                proxy.start()  # the bot was quicker than the test: try on a later move
                await wait_ready(server)
                continue
            await asyncio.sleep(OUTAGE_SECONDS)
            await me.drain(0.1)
            assert me.seq == ack["seq"], "the bot's move is not seen while it is not stored"
            assert me.errors == []
            proxy.start()
            await me.wait_for(lambda m: m["type"] == "patch", timeout=30)
            assert me.view["last_move"]["seat"] == 1, "the bot plays once the database is back"
            outage_hit_bot = True
        assert outage_hit_bot, "an outage fell on the bot's turn"
        assert me.view["status"] == "finished", "the deal plays on to its end"
        stored = _deal_moves(server, rid)
        assert _seen(me) == stored
        assert [m for i, m in enumerate(stored) if me.view["log"][i]["seat"] == 0] == mine
        assert await fresh_snapshot(server, rid, room["token"]) == (me.seq, me.view)
        assert metric(server, "krypkasino_write_failures_total") >= 1, (
            "the bot's move did fail during the outage"
        )
        await me.close()
    finally:
        server.stop()
        proxy.stop()


def _port(url: str) -> int:
    from sqlalchemy.engine import make_url

    return make_url(url).port or 5432


@pytest.mark.postgres
def test_database_outage_with_a_player_to_move(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_async(human_to_move(postgres_url, tmp_path))


@pytest.mark.postgres
def test_database_outage_with_a_bot_to_move(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_async(bot_to_move(postgres_url, tmp_path))
