"""Graceful shutdown (SIGTERM): moves in flight finish, clients are told to reconnect."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import pytest
import websockets

from tests.conftest import run_async
from tests.waiting import wait_until_async

from .harness import Client, ServerProcess, create_room, metric, two_players


async def shutdown(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(database_url, log_path=tmp_path / "s.log").start()
    rid, ann, bo = await two_players(server)
    mover = ann if ann.view["to_move"] == 0 else bo
    move = mover.view["legal"][0]
    await mover.ws.send(
        json.dumps({"type": "play", "id": "last", "card": move["card"], "take": move["take"]})
    )
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    got: list[dict] = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(mover.ws.recv(), 10)))
    except websockets.ConnectionClosed:
        pass
    kinds = [m["type"] for m in got]
    assert "reconnect" in kinds, kinds
    assert server.proc.wait(15) is not None
    # the move that was in flight was committed: a restarted server has it
    again = ServerProcess(database_url, port=server.port, log_path=tmp_path / "t.log").start()
    try:
        probe = await Client(again.ws_url, rid, None).connect()
        await probe.wait_for(lambda m: m["type"] == "snapshot")
        acked = any(m["type"] == "ack" and m["id"] == "last" for m in got)
        in_log = [e["card"] for e in probe.view["log"]] == [move["card"]]
        assert acked == in_log and in_log, "the move in flight was finished and committed"
        await probe.close()
    finally:
        again.stop()


def test_sigterm_finishes_moves_and_asks_clients_to_reconnect(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_async(shutdown(database_url, tmp_path))


def _children(pid: int) -> set[int]:
    """Every process descended from ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def no_process_left(tmp_path, how: str) -> None:  # type: ignore[no-untyped-def]
    """A strong bot has thought (so its worker process runs); after SIGTERM, or kill -9,
    of the server, nothing of it is left."""
    server = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/k.db", log_path=tmp_path / "s.log"
    ).start()
    assert server.proc is not None
    room = create_room(
        server.url, 2, bots=1, bot_level="strong", bot_delay=0, rules={"match_deals": 1}
    )
    me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    await me.wait_for(lambda m: m["type"] == "snapshot")
    while not any(e["seat"] == 1 for e in me.view["log"]):
        if me.view["to_move"] == 0:
            move = me.view["legal"][0]
            assert (await me.play(move["card"], move["take"]))["type"] == "ack"
        else:
            await me.recv(30)
    workers = _children(server.proc.pid)
    assert workers, "the strong bot thinks in a process of its own"
    assert metric(server, "krypkasino_bot_move_seconds_count") >= 1
    await me.close()
    if how == "term":
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(20)
    else:
        server.kill9()
    await wait_until_async(
        lambda: not any(_alive(w) for w in workers),
        10,
        message=lambda: f"the workers to end: left behind {[w for w in workers if _alive(w)]}",
    )


@pytest.mark.parametrize("how", ["term", "kill"])
def test_no_process_of_the_server_outlives_it(tmp_path, how: str) -> None:  # type: ignore[no-untyped-def]
    run_async(no_process_left(tmp_path, how))
