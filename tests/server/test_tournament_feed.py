"""An event's page pushed to its watchers over ``/ws/tournaments/{id}`` (issue 49),
through a real server: the first message is the event, a registration made over HTTP
reaches the watcher as the next one; an unknown event is refused; a watcher that
floods the socket is closed (1008); the watchers of one address are capped."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from tests.conftest import run_async

from .club_people import club_server
from .harness import ServerProcess
from .tournament_play import Entrant, new_event

ENV = {"REGISTER_PER_HOUR": "0", "WS_PER_IP": "3"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from club_server(ENV, "sqlite", tmp_path_factory.mktemp("tournament_feed"))


@pytest.fixture
def ann(server: ServerProcess) -> Iterator[Entrant]:
    made = Entrant(server, f"ann_{secrets.token_hex(3)}")
    yield made
    made.close()


async def next_event(ws: Any) -> dict[str, Any]:
    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
    assert message["type"] == "event", message
    return dict(message["event"])


def test_a_watcher_is_told_the_event_and_each_change(server: ServerProcess, ann: Entrant) -> None:
    tid = new_event(ann, format="swiss")

    async def watch() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/tournaments/{tid}") as ws:
            first = await next_event(ws)
            assert (first["id"], first["state"], first["entrants"]) == (tid, "registering", [])
            assert first["you"] == {"registered": False, "organiser": False, "room_id": None}
            assert (await asyncio.to_thread(ann.enter, tid)).status_code == 204
            changed = await next_event(ws)
            assert [e["username"] for e in changed["entrants"]] == [ann.name]

    run_async(watch())


def test_an_unknown_event_and_a_flood_are_refused(server: ServerProcess, ann: Entrant) -> None:
    tid = new_event(ann, format="duplicate", name="Flooded")

    async def check() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/tournaments/{'f' * 16}") as ws:
            refusal = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert (refusal["type"], refusal["code"]) == ("error", "no_such_tournament")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        async with websockets.connect(f"{server.ws_url}/ws/tournaments/{tid}") as ws:
            await next_event(ws)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(100):
                    await ws.send("x" * 100)
                    await asyncio.sleep(0)
                await asyncio.wait_for(ws.recv(), 30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    run_async(check())


def test_the_watchers_of_one_address_are_capped(server: ServerProcess, ann: Entrant) -> None:
    tid = new_event(ann, format="swiss", name="Watched")

    async def check() -> None:
        url = f"{server.ws_url}/ws/tournaments/{tid}"
        held = [await websockets.connect(url) for _ in range(3)]
        try:
            for ws in held:
                await next_event(ws)
            async with websockets.connect(url) as extra:
                refusal = json.loads(await asyncio.wait_for(extra.recv(), 30))
                assert (refusal["type"], refusal["code"]) == ("error", "too_many_connections")
        finally:
            for ws in held:
                await ws.close()

    run_async(check())
