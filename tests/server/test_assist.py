"""Take-back and hint over a real server's WebSocket (issue 33): the one person at a
table of bots gets a ``hint`` answer (and nobody else does), takes back a play and
its bots' answers, and the view is as it was; a room of two people, and a spectator,
are refused with their codes.  Every message is checked against the served schema."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, fresh_snapshot, two_players


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


async def send(c: Client, **msg: Any) -> None:
    await c.ws.send(json.dumps(msg))


def my_turn(c: Client) -> bool:
    v = c.view
    return v is not None and v["to_move"] == v["you"] and bool(v["legal"])


async def one_person_against_bots(server: ServerProcess) -> None:
    room = create_room(server.url, 3, bots=2, bot_delay=0, deal_pause=30, takeback="always")
    rid = room["room_id"]
    ann = await Client(server.ws_url, rid, room["token"]).connect()
    watcher = await Client(server.ws_url, rid, None).connect()
    await ann.wait_until(lambda: my_turn(ann))
    assert ann.view is not None
    assert ann.view["assist"] == {"seat": 0, "takeback": False, "hint": True}
    assert ann.view["options"]["takeback"] == "always"
    before = dict(ann.view)

    await send(ann, type="hint")
    hint = await ann.wait_for(lambda m: m["type"] == "hint")
    assert (hint["card"], hint["take"]) in [(m["card"], m["take"]) for m in before["legal"]]
    await ann.wait_seq(hint["seq"])
    await send(ann, type="hint")  # the same position: the same hint
    again = await ann.wait_for(lambda m: m["type"] == "hint")
    assert (again["card"], again["take"]) == (hint["card"], hint["take"])

    await ann.play(hint["card"], hint["take"])
    await ann.wait_until(lambda: my_turn(ann) or ann.view["deal_over"])  # type: ignore[index]
    assert ann.view is not None and ann.view["assist"]["takeback"] is not ann.view["deal_over"]
    await send(ann, type="takeback")
    await ann.wait_until(lambda: ann.view is not None and ann.view["log"] == before["log"])
    seq, fresh = await fresh_snapshot(server, rid, room["token"])
    assert ann.seq == seq and ann.view == fresh
    assert {k: v for k, v in fresh.items() if k != "assist"} == {
        k: v for k, v in before.items() if k != "assist"
    }
    assert fresh["assist"] == {"seat": 0, "takeback": False, "hint": True}

    await send(watcher, type="takeback")
    refused = await watcher.wait_for(lambda m: m["type"] == "error")
    assert refused["code"] == "unauthorized"
    await watcher.drain()
    assert not [m for m in map(json.loads, watcher.received) if m["type"] == "hint"]
    for c in (ann, watcher):
        await c.close()


def test_one_person_against_bots_asks_a_hint_and_takes_back(server: ServerProcess) -> None:
    run_async(one_person_against_bots(server))


async def two_people_have_neither(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server)
    assert ann.view is not None and ann.view["assist"] is None
    for c in (ann, bo):
        for kind in ("takeback", "hint"):
            await send(c, type=kind)
            refused = await c.wait_for(lambda m: m["type"] == "error")
            assert refused["code"] == "no_assist"
    for c in (ann, bo):
        await c.close()


def test_a_room_of_two_people_has_no_take_back_and_no_hint(server: ServerProcess) -> None:
    run_async(two_people_have_neither(server))


def test_the_takeback_option_is_checked_when_a_room_is_made(server: ServerProcess) -> None:
    body = {"players": 2, "name": "Ann", "bots": 1}
    for bad in ("sometimes", "", 1, None):
        r = fetch.post(f"{server.url}/api/rooms", json={**body, "takeback": bad}, timeout=10)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", (bad, r.text)
    made = create_room(server.url, 2, bots=1)  # none given: always (issue 47)
    summary = fetch.get(f"{server.url}/api/rooms/{made['room_id']}", timeout=10).json()
    assert summary["options"]["takeback"] == "always"
