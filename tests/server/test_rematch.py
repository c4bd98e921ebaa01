"""A rematch offered and accepted over the WebSocket (issue 33), on SQLite and
PostgreSQL: ``rematch`` offers or accepts, ``rematch_decline`` declines, the view's
``rematch`` shows the open offer to everyone (a spectator too), the offer lapses at
its deadline (REMATCH_TIMEOUT, shortened here), and each refusal has its code.
Every message is checked against the served protocol schema by the clients."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import run_async

from .harness import Client, ServerProcess, settle, settle_turn, two_players
from .process import ServerProcess as Process

TIMEOUT = 2.0
"""Seconds an offer stays open on this server."""


@pytest.fixture
def quick_server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    proc = Process(
        database_url, env={"REMATCH_TIMEOUT": str(TIMEOUT)}, log_path=tmp_path / "server.log"
    ).start()
    try:
        yield proc
    finally:
        proc.stop()


async def send(client: Client, kind: str) -> None:
    await client.ws.send(json.dumps({"type": kind}))


async def refused(client: Client, kind: str, code: str) -> None:
    await send(client, kind)
    err = await client.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == code, (kind, err)


async def rematch_over_the_wire(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server, rules={"single_pack": True, "match_deals": 1})
    watcher = await Client(server.ws_url, rid, None).connect()
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    everyone = [ann, bo, watcher]
    await refused(ann, "rematch", "not_finished")
    await refused(bo, "rematch_decline", "not_finished")
    while True:  # the first legal move, turn by turn, to the match's end
        view = await settle_turn(everyone)
        if view["status"] == "finished":
            break
        mover = (ann, bo)[view["to_move"]]
        move = mover.view["legal"][0]
        assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
    await settle(everyone)
    assert all(c.view["rematch"] is None for c in everyone)
    await refused(bo, "rematch_decline", "no_rematch_offer")
    await refused(watcher, "rematch", "unauthorized")

    # An offer, declined.
    await send(ann, "rematch")
    await bo.wait_until(lambda: bo.view["rematch"] is not None)
    await settle(everyone)
    offer: dict[str, Any] = bo.view["rematch"]
    assert offer["by"] == 0 and offer["accepted"] == [0]
    assert watcher.view["rematch"] == offer and bo.view["status"] == "finished"
    await refused(watcher, "rematch_decline", "unauthorized")
    await send(bo, "rematch_decline")
    await ann.wait_until(lambda: ann.view["rematch"] is None)
    assert ann.view["rematch_ended"] == {"by": 0, "reason": "declined", "seat": 1}
    assert ann.view["match_no"] == 1

    # An offer nobody answers: it lapses at its deadline.
    await settle(everyone)
    await send(bo, "rematch")
    await ann.wait_until(lambda: ann.view["rematch"] is not None)
    assert ann.view["rematch_ended"] is None, "a new offer clears the last one's end"
    await ann.wait_until(lambda: ann.view["rematch"] is None, timeout=TIMEOUT + 20)
    assert ann.view["rematch_ended"] == {"by": 1, "reason": "expired", "seat": None}
    assert ann.view["match_no"] == 1 and ann.view["status"] == "finished"

    # An offer accepted: match 2 begins for everyone.
    await settle(everyone)
    await send(ann, "rematch")
    await bo.wait_until(lambda: bo.view["rematch"] is not None)
    await send(bo, "rematch")
    for c in everyone:
        await c.wait_until(lambda c=c: c.view["match_no"] == 2 and c.view["to_move"] is not None)
        assert c.view["status"] == "playing" and c.view["rematch"] is None
    await refused(bo, "rematch_decline", "not_finished")
    for c in everyone:
        await c.close()


def test_rematch_offer_decline_expiry_and_acceptance_over_the_websocket(
    quick_server: ServerProcess,
) -> None:
    run_async(rematch_over_the_wire(quick_server))
