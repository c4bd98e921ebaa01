"""Chat, reactions and the spectator count across two server processes sharing one
PostgreSQL and one Redis (issue 12): a line said on one process reaches the players
and spectators connected to the other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests import fetch
from tests.conftest import require_service, run_async

from .harness import Client, ServerProcess, create_room, join
from .test_multiprocess import REDIS_URL, _redis_available


async def across(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {"REDIS_URL": REDIS_URL}
    a = ServerProcess(postgres_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=env, log_path=tmp_path / "b.log").start()
    clients: list[Client] = []
    try:
        room = create_room(a.url, 2)
        rid = room["room_id"]
        bo_token = join(b.url, rid, "Bo")["token"]
        ann = await Client(a.ws_url, rid, room["token"]).connect()
        bo = await Client(b.ws_url, rid, bo_token).connect()
        rail = await Client(b.ws_url, rid, None).connect()
        clients = [ann, bo, rail]
        # The chat backlog comes once a connection is among its process's chat readers;
        # its snapshot comes earlier, before the presence round trips to Redis (during
        # which A may already count the spectator): a line said then reaches that reader
        # in its backlog, not as a "chat" message, and waiting for the snapshot alone
        # let a CI run say the line too soon.
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "snapshot")
            await c.wait_for(lambda m: m["type"] == "chat_history")
        await ann.wait_for(lambda m: m["type"] == "presence" and m.get("watching") == 1)
        await ann.ws.send(json.dumps({"type": "chat", "text": "hej från A"}))
        # stored and sent on A first (its own reader gets it back), or refused there
        echo = await heard(ann, lambda m: m["type"] in ("chat", "error"), a, b)
        assert echo["type"] == "chat", f"A refused the line: {echo}"
        for c in (bo, rail):
            msg = await heard(c, lambda m: m["type"] == "chat", a, b)
            assert (msg["seat"], msg["name"], msg["text"]) == (0, "Ann", "hej från A")
        await rail.ws.send(json.dumps({"type": "chat", "text": "from B's rail", "name": "Eve"}))
        msg = await heard(ann, lambda m: m["type"] == "chat" and m["seat"] is None, a, b)
        assert (msg["name"], msg["text"]) == ("Eve", "from B's rail")
        await bo.ws.send(json.dumps({"type": "react", "emote": "😂"}))
        msg = await heard(ann, lambda m: m["type"] == "reaction", a, b)
        assert (msg["seat"], msg["emote"]) == (1, "😂")
        lines = fetch.get(f"{a.url}/api/rooms/{rid}/chat").json()["messages"]
        assert [ln["text"] for ln in lines] == ["hej från A", "from B's rail"]
    finally:
        for c in clients:
            await c.close()
        a.stop()
        b.stop()


async def heard(
    client: Client, pred: Any, *servers: ServerProcess, timeout: float = 20
) -> dict[str, Any]:
    """The first message ``pred`` accepts; on a timeout, a failure that says what the
    client got meanwhile and what the two servers logged (a CI run once timed out here
    with nothing to go on)."""
    try:
        return await client.wait_for(pred, timeout)
    except TimeoutError:
        got = [json.loads(raw)["type"] for raw in client.received[-12:]]
        logs = [f"{s.log_path}:\n" + _tail(s.log_path) for s in servers]
        raise AssertionError(
            f"nothing awaited in {timeout} s; last received {got}\n" + "\n".join(logs)
        ) from None


def _tail(path: Path | None, lines: int = 20) -> str:
    if path is None or not path.exists():
        return "(no log)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def test_chat_and_reactions_reach_the_other_process(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    run_async(across(postgres_url, tmp_path))
