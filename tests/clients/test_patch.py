"""The client's JSON Patch (clients/python/src/krypkasino_client/patch.py).

The patches that matter are the server's: a two-deal match is played on a real server
with a pause between the deals, every message both seats received is recorded, and
the client's ``ViewState`` replays them; at every seq its view must equal the view the
test harness built with an independent implementation (the ``jsonpatch`` library),
and the last one a fresh snapshot.  The RFC 6902 corners the server does not use yet
(move, copy, test, "-", escaped keys) and the refusals are checked on small documents.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from krypkasino_client.patch import PatchError, apply_patch, parse_pointer
from krypkasino_client.state import Applied, ViewState

from tests.conftest import run_async
from tests.server.harness import (
    Client,
    ServerProcess,
    converge,
    create_room,
    fresh_snapshot,
    join,
)


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    return shared_server


class Recording(Client):
    """The harness's client, keeping a copy of its view at every seq."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.views: dict[int, Any] = {}

    def _handle(self, raw: str) -> dict[str, Any]:
        msg = super()._handle(raw)
        if msg["type"] in ("snapshot", "patch"):
            self.views[self.seq] = copy.deepcopy(self.view)
        return msg


async def _play_match(server: ServerProcess, rng: random.Random) -> tuple[str, list[Recording]]:
    """A two-deal match of two people, Continue pressed by each between the deals."""
    room = create_room(server.url, 2, rules={"match_deals": 2}, deal_pause=300)
    rid = room["room_id"]
    bo = join(server.url, rid, "Bo")
    clients = [
        await Recording(server.ws_url, rid, room["token"]).connect(),
        await Recording(server.ws_url, rid, bo["token"]).connect(),
    ]
    for c in clients:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    for _ in range(400):
        await converge(clients)
        view = clients[0].view
        assert view is not None
        if view["status"] == "finished":
            return rid, clients
        if view["between"] is not None:
            for seat, c in enumerate(clients):
                if seat not in view["between"]["ready"]:
                    await c.ws.send(json.dumps({"type": "continue"}))
            await clients[0].wait_until(lambda: clients[0].view["between"] is None)
            continue
        mover = clients[view["to_move"]]
        move = rng.choice(mover.view["legal"])
        ack = await mover.play(move["card"], move["take"])
        assert ack["type"] == "ack", ack
    raise AssertionError("the match did not end in 400 moves")


def test_the_servers_patches_apply_as_the_harness_applies_them(server: ServerProcess) -> None:
    async def scenario() -> None:
        rid, clients = await _play_match(server, random.Random(51))
        ops_seen: set[str] = set()
        for seat, c in enumerate(clients):
            state = ViewState()
            compared = 0
            for raw in c.received:
                msg = json.loads(raw)
                if msg["type"] == "snapshot":
                    assert state.snapshot(msg) is Applied.UPDATED
                elif msg["type"] == "patch":
                    ops_seen.update(op["op"] for op in msg["ops"])
                    assert state.patch(msg) is Applied.UPDATED, (seat, msg["seq"])
                else:
                    continue
                assert state.seq == msg["seq"]
                assert state.view is not None
                assert state.view.raw == c.views[msg["seq"]], f"seat {seat} at seq {state.seq}"
                compared += 1
            assert state.patches > 150, "a whole match is hundreds of patches"
            assert compared == state.patches + state.snapshots
            seq, fresh = await fresh_snapshot(server, rid, c.token)
            assert (state.seq, state.view.raw) == (seq, fresh)
            assert state.view.status == "finished" and state.view.deal_no == 2
            await c.close()
        assert {"add", "remove", "replace"} <= ops_seen

    run_async(scenario())


def test_a_gap_a_stale_patch_and_one_that_does_not_apply_are_told_apart() -> None:
    state = ViewState()
    assert state.patch({"type": "patch", "seq": 1, "ops": []}) is Applied.BROKEN  # no view yet
    state.snapshot({"type": "snapshot", "seq": 5, "view": {"hand": ["2C"], "seq": 5}})
    assert state.patch({"type": "patch", "seq": 7, "ops": []}) is Applied.GAP
    assert state.patch({"type": "patch", "seq": 5, "ops": []}) is Applied.STALE
    bad = {"type": "patch", "seq": 6, "ops": [{"op": "remove", "path": "/hand/3"}]}
    assert state.patch(bad) is Applied.BROKEN
    assert state.seq == 5 and state.view is not None and state.view.raw["hand"] == ["2C"]
    good = {"type": "patch", "seq": 6, "ops": [{"op": "add", "path": "/hand/-", "value": "3C"}]}
    assert state.patch(good) is Applied.UPDATED
    assert state.seq == 6 and state.view is not None and state.view.hand == ("2C", "3C")


def test_every_rfc_6902_operation() -> None:
    doc: Any = {"a": {"b": [1, 2, 3]}, "x/y": 1, "m~n": 2}
    ops: list[dict[str, Any]] = [
        {"op": "add", "path": "/a/b/1", "value": 9},
        {"op": "add", "path": "/a/b/-", "value": 4},
        {"op": "remove", "path": "/a/b/0"},
        {"op": "replace", "path": "/x~1y", "value": {"deep": [1]}},
        {"op": "move", "from": "/m~0n", "path": "/moved"},
        {"op": "copy", "from": "/a/b", "path": "/copied"},
        {"op": "test", "path": "/copied", "value": [9, 2, 3, 4]},
        {"op": "add", "path": "/a", "value": "whole"},
    ]
    out = apply_patch(doc, ops)
    assert out == {"a": "whole", "x/y": {"deep": [1]}, "moved": 2, "copied": [9, 2, 3, 4]}
    assert doc == {"a": {"b": [1, 2, 3]}, "x/y": 1, "m~n": 2}, "the input is left as it was"
    assert apply_patch(doc, [{"op": "replace", "path": "", "value": [1]}]) == [1]
    assert parse_pointer("/~01/~10") == ["~1", "/0"]


@pytest.mark.parametrize(
    "op",
    [
        {"op": "remove", "path": "/missing"},
        {"op": "replace", "path": "/list/3", "value": 0},
        {"op": "add", "path": "/list/4", "value": 0},
        {"op": "add", "path": "/list/01", "value": 0},
        {"op": "add", "path": "/list/-1", "value": 0},
        {"op": "remove", "path": "/list/-"},
        {"op": "add", "path": "/n/x", "value": 0},
        {"op": "add", "path": "no-slash", "value": 0},
        {"op": "add", "path": "/k"},
        {"op": "test", "path": "/n", "value": 2},
        {"op": "move", "from": "/list", "path": "/list/0"},
        {"op": "frobnicate", "path": "/n"},
        {"op": "add", "path": 3, "value": 0},
    ],
)
def test_a_patch_that_does_not_apply_is_refused_and_changes_nothing(op: dict[str, Any]) -> None:
    doc: Any = {"list": [1, 2, 3], "n": 1}
    with pytest.raises(PatchError):
        apply_patch(doc, [{"op": "add", "path": "/new", "value": 1}, op])
    assert doc == {"list": [1, 2, 3], "n": 1}
