"""Graceful shutdown (SIGTERM): moves in flight finish, clients are told to reconnect."""

from __future__ import annotations

import asyncio
import json
import signal

import websockets

from tests.conftest import run_async
from .harness import Client, ServerProcess, two_players


async def shutdown(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(database_url, log_path=tmp_path / "s.log").start()
    rid, ann, bo = await two_players(server)
    mover = ann if ann.view["to_move"] == 0 else bo
    move = mover.view["legal"][0]
    await mover.ws.send(json.dumps({"type": "play", "id": "last", **move}))
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
