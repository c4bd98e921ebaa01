"""``deal_shown`` over a real server's WebSocket (issue 47): a spectator is refused, a
message naming a seat or a bad deal number is a ``bad_message``, and one no first turn
waits for (deal 1, which followed no pause) changes nothing: no event, no seq."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import run_async

from .harness import Client, ServerProcess, settle, two_players


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """Each test makes its own room and reads only that."""
    return shared_server


async def send(c: Client, **msg: Any) -> None:
    await c.ws.send(json.dumps(msg))


async def refused(c: Client) -> str:
    error = await c.wait_for(lambda m: m["type"] == "error")
    c.errors.clear()
    return str(error["code"])


async def deal_shown_is_checked(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server, turn_clock=30)
    watcher = await Client(server.ws_url, rid, None).connect()
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    await settle([ann, bo, watcher])
    seq = ann.seq
    await send(watcher, type="deal_shown", match_no=1, deal_no=1)
    assert await refused(watcher) == "unauthorized", "a spectator has no clock to start"
    await send(ann, type="deal_shown", match_no=1, deal_no=1, seat=1)
    assert await refused(ann) == "bad_message", "a message names no seat: it is the socket's"
    await send(ann, type="deal_shown", match_no=1, deal_no=0)
    assert await refused(ann) == "bad_message"
    for _ in range(2):  # deal 1 followed no pause: nothing waits for it, said twice
        await send(ann, type="deal_shown", match_no=1, deal_no=1)
    await send(bo, type="deal_shown", match_no=1, deal_no=7)  # a deal not dealt
    await send(ann, type="ping")
    await ann.wait_for(lambda m: m["type"] == "pong")
    await settle([ann, bo, watcher])
    assert (ann.seq, bo.seq, watcher.seq) == (seq, seq, seq), "nothing was written"
    assert not ann.errors and not bo.errors
    for c in (ann, bo, watcher):
        await c.close()


def test_deal_shown_is_refused_or_changes_nothing_when_it_means_nothing(
    server: ServerProcess,
) -> None:
    run_async(deal_shown_is_checked(server))
