"""The harness's ``Client.drain`` is bounded: a room that never falls quiet (a clock
playing on by itself, a flood) fails the test that drains it, with what kept coming,
instead of hanging it until the suite's own timeout."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace

import pytest
import websockets

from tests.conftest import run_async
from tests.server.harness import Client


async def _drain_against(talkative: bool, limit: float) -> float:
    async def handler(ws: websockets.ServerConnection) -> None:
        n = 0
        while talkative:
            n += 1
            await ws.send(json.dumps({"type": "presence", "connected": [True], "n": n}))
            await asyncio.sleep(0.005)
        await ws.wait_closed()

    async with websockets.serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = Client(f"ws://127.0.0.1:{port}", "room", None)
        client.checker = SimpleNamespace(check=lambda m: None, check_view=lambda v: None)  # type: ignore[assignment]
        client.ws = await websockets.connect(f"ws://127.0.0.1:{port}")
        start = time.monotonic()
        try:
            await client.drain(quiet=0.05, limit=limit)
        finally:
            await client.close()
        return time.monotonic() - start


def test_drain_fails_when_messages_never_stop() -> None:
    with pytest.raises(AssertionError, match="still receiving after 0.5 s"):
        run_async(_drain_against(talkative=True, limit=0.5))


def test_drain_returns_once_the_room_is_quiet() -> None:
    run_async(_drain_against(talkative=False, limit=0.5))  # raises if it does not
