"""Hostile input: every bad message gets an error (or, for abuse, a close), never a
crash, never a 500, never a state change; the server keeps serving."""

from __future__ import annotations

import json

import pytest
import websockets

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, fresh_snapshot, join, metric


@pytest.fixture
def server(shared_server: ServerProcess) -> ServerProcess:
    """The tests of this file each make their own rooms and read only those: one
    server (on each kind of database) serves them all."""
    return shared_server


LONGEST_ID = "m" * 64
"""The longest client id a play may carry (stored behind its seat: "1:mmm...")."""

BAD_MESSAGES: list[str] = [
    "{",
    "hello",
    "",
    "[]",
    "null",
    "123",
    '"play"',
    "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
    "[" * 1500 + "]" * 1500,
    json.dumps({"type": 5}),
    json.dumps({"type": "shout"}),
    json.dumps({"type": "hello"}),
    json.dumps({"type": "play"}),
    json.dumps({"type": "play", "id": 1, "card": "9D"}),
    json.dumps({"type": "play", "id": "a", "card": 9}),
    json.dumps({"type": "play", "id": "a", "card": "9D", "take": "2H"}),
    json.dumps({"type": "play", "id": "a", "card": "9D", "take": [1, 2]}),
    json.dumps({"type": "play", "id": "a", "card": "9D", "evil": True}),
    json.dumps({"type": "play", "id": "", "card": "9D"}),
    json.dumps({"type": "play", "id": "a" * 65, "card": "9D"}),  # one over LONGEST_ID
    json.dumps({"type": "play", "id": "b", "card": "1Z"}),
    json.dumps({"type": "play", "id": "c", "card": "ZZZZ"}),
    json.dumps({"type": "play", "id": "d", "card": "XX", "take": ["YY"]}),
    json.dumps({"type": "play", "id": "e", "card": "AS", "take": ["QQ", "2H"]}),
    json.dumps({"type": "play", "id": "f", "card": "AS", "take": ["AS"] * 104}),
    json.dumps({"type": "rematch"}),
    json.dumps({"type": "rematch_decline"}),
    json.dumps({"type": "rematch_decline", "seat": 1}),
    json.dumps({"type": "play", "id": "g", "card": "AS", "take": None, "x": [1] * 500}),
]


async def hostile(server: ServerProcess) -> None:
    room = create_room(server.url, 2)
    room_id = room["room_id"]
    tokens = [room["token"], join(server.url, room_id, "Bo")["token"]]
    seated = [await Client(server.ws_url, room_id, t).connect() for t in tokens]
    spectator = await Client(server.ws_url, room_id, None).connect()
    for c in seated + [spectator]:
        await c.wait_for(lambda m: m["type"] == "snapshot")
    view = seated[0].view
    mover = seated[view["to_move"]]
    waiter = seated[1 - view["to_move"]]
    # a committed move whose id (of the longest length allowed) is then replayed
    first = mover.view["legal"][0]
    ack = await mover.play(first["card"], first["take"], msg_id=LONGEST_ID)
    assert ack["type"] == "ack" and not ack["duplicate"]
    for c in seated + [spectator]:
        await c.wait_seq(ack["seq"])
        await c.drain(0.05)
    mover = seated[mover.view["to_move"]]
    waiter = seated[1 - mover.view["you"]]
    before = [await fresh_snapshot(server, room_id, t) for t in tokens + [None]]

    async def expect_error(client: Client, raw: str, codes: set[str]) -> None:
        errors = len(client.errors)
        await client.ws.send(raw)
        msg = await client.wait_for(lambda m: m["type"] in ("error", "ack"))
        if msg["type"] == "ack":
            assert msg["duplicate"], f"{raw[:80]} was played"
        else:
            assert len(client.errors) == errors + 1
            assert msg["code"] in codes, (raw[:80], msg)

    for raw in BAD_MESSAGES:
        for c in (mover, waiter, spectator):
            await expect_error(
                c,
                raw,
                {
                    "bad_message",
                    "not_in_hand",
                    "invalid_capture",
                    "not_your_turn",
                    "unauthorized",
                    "not_finished",
                },
            )
    # out of turn, spectators playing, rule errors, a replayed id
    card = waiter.view["hand"][0]
    await expect_error(
        waiter, json.dumps({"type": "play", "id": "w1", "card": card}), {"not_your_turn"}
    )
    await expect_error(
        spectator, json.dumps({"type": "play", "id": "s1", "card": card}), {"unauthorized"}
    )
    not_held = next(
        c
        for c in waiter.view["hand"] + ["AS", "AH", "AD", "AC", "2S", "2H"]
        if c not in mover.view["hand"]
    )
    await expect_error(
        mover, json.dumps({"type": "play", "id": "m1", "card": not_held}), {"not_in_hand"}
    )
    table = mover.view["table"]
    if table:  # a take of cards that are not on the table
        missing = next(c for c in ("KS", "KH", "KD", "KC", "QS") if c not in table)
        await expect_error(
            mover,
            json.dumps(
                {"type": "play", "id": "m2", "card": mover.view["hand"][0], "take": [missing]}
            ),
            {"invalid_capture"},
        )
    # the id of the committed move, replayed by its seat: never played twice
    await expect_error(
        waiter,
        json.dumps(
            {"type": "play", "id": LONGEST_ID, "card": first["card"], "take": first["take"]}
        ),
        set(),
    )

    after = [await fresh_snapshot(server, room_id, t) for t in tokens + [None]]
    assert after == before, "no bad message changed anything"

    # a wrong token is refused; the connection may still say hello properly
    intruder = Client(server.ws_url, room_id, "not-a-token")
    await intruder.connect()
    err = await intruder.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "unauthorized"
    await intruder.ws.send(json.dumps({"type": "hello", "token": tokens[1]}))
    await intruder.wait_for(lambda m: m["type"] == "snapshot")
    assert intruder.view["you"] == 1
    await intruder.close()

    # a message over the size limit closes the socket with 1009
    big = Client(server.ws_url, room_id, None)
    await big.connect()
    await big.wait_for(lambda m: m["type"] == "snapshot")
    await big.ws.send(json.dumps({"type": "ping", "pad": "x" * 10_000}))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await big.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    # flooding gets rate_limited errors, then a close with 1008
    flood = Client(server.ws_url, room_id, None)
    await flood.connect()
    await flood.wait_for(lambda m: m["type"] == "snapshot")
    with pytest.raises(websockets.ConnectionClosed) as closed:
        for _ in range(500):
            await flood.ws.send('{"type":"ping"}')
        while True:
            await flood.recv(5)
    assert any(e["code"] == "rate_limited" for e in flood.errors)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    # the server keeps serving: a legal move still goes through
    assert fetch.get(server.url + "/healthz").status_code == 200
    await mover.drain(0.1)
    await waiter.drain(0.1)
    turn = seated[mover.view["to_move"]]
    move = turn.view["legal"][0]
    ack = await turn.play(move["card"], move["take"])
    assert ack["type"] == "ack" and ack["seq"] == before[0][0] + 1
    for c in seated + [spectator]:
        await c.close()


def test_hostile_websocket_messages(server: ServerProcess) -> None:
    run_async(hostile(server))


BAD_BODIES = [
    ({"players": 7, "name": "A"}, 422),
    ({"players": 1, "name": "A"}, 422),
    ({"players": "two", "name": "A"}, 422),
    ({"players": 2}, 422),
    ({"players": 2, "name": ""}, 422),
    ({"players": 2, "name": "A" * 1000}, 422),
    ({"players": 2, "name": "A", "rules": {"no_sweeps": True}}, 422),
    ({"players": 2, "name": "A", "rules": {"nordic": "yes"}}, 422),
    ({"players": 3, "name": "A", "rules": {"partnership": True}}, 422),
    ({"players": 3, "name": "A", "rules": {"single_pack": True}}, 422),
    ({"players": 5, "name": "A", "rules": {"four_card_deal": True}}, 422),
    ({"players": 2, "name": "A", "bots": 2}, 422),
    ({"players": 2, "name": "A", "bots": -1}, 422),
    ({"players": 2, "name": "A", "rules": {"match_deals": 3, "match_limit": 50}}, 422),
    ({"players": 2, "name": "A", "bot_level": "godlike"}, 422),
    ([1, 2, 3], 422),
    ("text", 422),
]


def test_hostile_http_requests(server: ServerProcess) -> None:
    base = server.url
    for body, status in BAD_BODIES:
        r = fetch.post(base + "/api/rooms", json=body)
        assert r.status_code == status, (body, r.text)
        assert set(r.json()) == {"code", "message"}
    r = fetch.post(
        base + "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_request"
    r = fetch.post(
        base + "/api/rooms", content=b"x" * 20_000, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    missing = "0" * 32
    for url in (f"/api/rooms/{missing}", f"/api/rooms/{missing}/deals/1", "/api/codes/ZZZZZZ"):
        r = fetch.get(base + url)
        assert r.status_code == 404 and r.json()["code"] == "not_found", url
    assert fetch.get(base + "/api/rooms/not-an-id").status_code == 422
    playing = metric(server, "krypkasino_rooms", status="playing")  # the file's other rooms
    room = create_room(base, 2)
    rid = room["room_id"]
    assert fetch.get(f"{base}/api/rooms/{rid}/deals/0").status_code == 422
    r = fetch.get(f"{base}/api/rooms/{rid}/deals/1")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    join(base, rid, "Bo")
    r = fetch.post(f"{base}/api/rooms/{rid}/seats", json={"name": "Cy"})
    assert r.status_code == 409 and r.json()["code"] == "room_full"
    r = fetch.post(f"{base}/api/rooms/{rid}/seats", json={"name": ""})
    assert r.status_code == 422
    assert fetch.get(f"{base}/api/codes/{room['code'].lower()}").json() == {"room_id": rid}
    assert fetch.get(f"{base}/api/rooms/{rid}").json()["status"] == "playing"
    assert fetch.get(base + "/healthz").status_code == 200
    # the API schema and the operator's endpoints (the /docs page is off by default:
    # tests/server/test_web.py)
    paths = fetch.get(base + "/openapi.json").json()["paths"]
    assert {
        "/api/rooms",
        "/api/rooms/{room_id}/seats",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/deals/{deal_no}",
        "/healthz",
    } <= set(paths)
    metrics = fetch.get(base + "/metrics").text
    assert f'krypkasino_rooms{{status="playing"}} {playing + 1}' in metrics
    assert "krypkasino_errors_total" in metrics and "krypkasino_move_seconds_bucket" in metrics
