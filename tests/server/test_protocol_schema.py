"""GET /api/protocol.schema.json: the WebSocket protocol as the server publishes it.

The harness's Client checks every message a test receives against this schema
(tests/server/harness.py, ProtocolChecker); here: the schema is served, is valid,
describes what a real game sends, and the check fails on a message it forbids.
"""

from __future__ import annotations

import random

import pytest

from app.wire import PROTOCOL_VERSION, SCHEMA_PATH
from tests import fetch
from tests.conftest import run_async

from .harness import (
    Client,
    ProtocolChecker,
    ProtocolViolation,
    ServerProcess,
    play_random,
    protocol_checker,
    two_players,
)


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


def test_the_server_serves_a_versioned_schema_of_both_directions(server: ServerProcess) -> None:
    r = fetch.get(server.url + SCHEMA_PATH, timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/schema+json")
    schema = r.json()
    assert schema["version"] == PROTOCOL_VERSION
    assert {"ClientMessage", "ServerMessage", "Hello", "Play", "Snapshot", "Patch", "Error"} <= set(
        schema["$defs"]
    )
    ProtocolChecker(schema)  # a valid draft 2020-12 schema
    assert SCHEMA_PATH in fetch.get(server.url + "/openapi.json", timeout=10).json()["paths"]


def test_a_game_sends_only_messages_of_the_schema_and_a_wrong_one_fails(
    server: ServerProcess,
) -> None:
    run_async(_a_game(server))


async def _a_game(server: ServerProcess) -> None:
    _, ann, bo = await two_players(server)
    try:
        await play_random([ann, bo], 6, random.Random(3))
        kinds = {m.split('"type":"', 1)[1].split('"', 1)[0] for m in ann.received}
        assert {"welcome", "snapshot", "patch", "ack"} <= kinds  # all checked on receipt
        assert isinstance(ann.checker, ProtocolChecker)
        assert ann.checker is bo.checker  # fetched once per server
        with pytest.raises(ProtocolViolation, match="seq"):
            ann._handle('{"type":"patch","seq":"x","ops":[]}')
        with pytest.raises(ProtocolViolation, match="hand"):
            ann._handle('{"type":"welcome","you":0,"seq":1,"hand":["AS"]}')
    finally:
        await ann.close()
        await bo.close()


def test_the_checker_is_the_servers_own(server: ServerProcess) -> None:
    run_async(_the_checker(server))


async def _the_checker(server: ServerProcess) -> None:
    checker = await protocol_checker(server.url)
    assert checker is await protocol_checker(server.url)
    spectator = await Client(server.ws_url, "0" * 32, None).connect()
    try:
        msg = await spectator.wait_for(lambda m: m["type"] == "error")
        assert msg["code"] == "not_found"
    finally:
        await spectator.close()
