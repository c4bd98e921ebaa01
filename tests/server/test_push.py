"""Web Push through a real server (issue 32): a player whose page is closed is told
that it is their turn, at a real local push service that checks the VAPID token and
decrypts the message (tests/notify/push_service.py); a player with a page open is
not; the server's key pair is made once and kept across a restart.  SQLite and
PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests import fetch
from tests.conftest import run_async
from tests.notify.push_service import PushService

from .harness import Client, ServerProcess, create_room, settle_turn

PUSH_ENV = {"PUSH_ALLOW_LOCAL": "true", "PUSH_DELAY": "0", "DEFAULT_GRACE": "600"}


@pytest.fixture
def push_service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


@pytest.fixture
def push_server(database_url: str, tmp_path: Any) -> Iterator[ServerProcess]:
    proc = ServerProcess(database_url, env=PUSH_ENV, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def subscribe(server: ServerProcess, key: str, browser: dict[str, Any], lang: str) -> Any:
    return fetch.post(
        f"{server.url}/api/push/subscriptions",
        json={"subscription": browser, "lang": lang},
        headers={"X-Player-Key": key},
        timeout=10,
    )


def test_a_player_with_no_page_open_is_told_of_their_turn_and_one_at_the_table_is_not(
    push_server: ServerProcess, push_service: PushService
) -> None:
    ann_key, bo_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    ann_browser, bo_browser = push_service.subscribe(), push_service.subscribe()
    public_key = fetch.get(f"{push_server.url}/api/push/key", timeout=10).json()["public_key"]

    async def play() -> str:
        # a turn clock (long enough never to run out here): its timer must not keep a
        # player who closes the page mid-turn from being told
        room = create_room(push_server.url, 2, player=ann_key, turn_clock=600)
        rid = room["room_id"]
        bo_seat = fetch.post(
            f"{push_server.url}/api/rooms/{rid}/seats",
            json={"name": "Bo", "player": bo_key},
            timeout=10,
        ).json()
        ann = await Client(push_server.ws_url, rid, room["token"]).connect()
        bo = await Client(push_server.ws_url, rid, bo_seat["token"]).connect()
        clients = [ann, bo]
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "snapshot")
        # subscribed once both are at the table (whoever was to move before the other
        # connected had no page open then, and would rightly have been told)
        assert subscribe(push_server, ann_key, ann_browser, "en").status_code == 201
        assert subscribe(push_server, bo_key, bo_browser, "sv").status_code == 201
        try:
            # play until it is Ann's turn, both at the table: nobody is told anything
            view = await settle_turn(clients)
            while view["to_move"] != 0:
                mover = clients[view["to_move"]]
                move = mover.view["legal"][0]
                assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
                view = await settle_turn(clients)
            # Bo closes the page; Ann plays, and the turn is Bo's
            await bo.close()
            move = ann.view["legal"][0]
            ack = await ann.play(move["card"], move["take"])
            assert ack["type"] == "ack"
            # (one of the first two plays of a deal: it cannot end the deal)
            await ann.wait_until(lambda: ann.view["to_move"] == 1)
            (told,) = push_service.wait_for(bo_browser, 1)
            assert told.problems == []
            assert told.vapid_key == public_key
            assert told.payload == {"kind": "turn", "room": rid, "url": f"/r/{rid}", "lang": "sv"}
            # Bo comes back and plays: Ann, at the table, is never told of her turns
            bo = await Client(push_server.ws_url, rid, bo_seat["token"]).connect()
            await bo.wait_for(lambda m: m["type"] == "snapshot")
            clients = [ann, bo]
            view = await settle_turn(clients)
            assert view["to_move"] == 1
            move = bo.view["legal"][0]
            assert (await bo.play(move["card"], move["take"]))["type"] == "ack"
            view = await settle_turn(clients)
            while view["to_move"] != 0:  # until Ann's turn, both at the table
                mover = clients[view["to_move"]]
                move = mover.view["legal"][0]
                assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
                view = await settle_turn(clients)
            assert push_service.inbox(ann_browser) == []
            assert len(push_service.inbox(bo_browser)) == 1, "one turn, one message"
            # Ann closes her page in the middle of her turn (its notice delay long
            # over): she is told then, not never
            await ann.close()
            (told_ann,) = push_service.wait_for(ann_browser, 1)
            assert told_ann.payload == {
                "kind": "turn",
                "room": rid,
                "url": f"/r/{rid}",
                "lang": "en",
            }
            return rid
        finally:
            for c in clients:
                await c.close()

    run_async(play())


def test_the_key_pair_is_made_once_and_kept_across_a_restart(
    database_url: str, tmp_path: Any
) -> None:
    proc = ServerProcess(database_url, env=PUSH_ENV, log_path=tmp_path / "one.log").start()
    try:
        first = fetch.get(f"{proc.url}/api/push/key", timeout=10).json()["public_key"]
    finally:
        proc.stop()
    proc = ServerProcess(database_url, env=PUSH_ENV, log_path=tmp_path / "two.log").start()
    try:
        assert fetch.get(f"{proc.url}/api/push/key", timeout=10).json()["public_key"] == first
    finally:
        proc.stop()


def test_bad_subscriptions_and_a_server_with_push_off_are_refused_clearly(
    push_server: ServerProcess, push_service: PushService, tmp_path: Any, database_url: str
) -> None:
    key = secrets.token_urlsafe(24)
    browser = push_service.subscribe()
    no_key = fetch.post(
        f"{push_server.url}/api/push/subscriptions", json={"subscription": browser}, timeout=10
    )
    assert no_key.status_code == 401
    bad = subscribe(push_server, key, {"endpoint": browser["endpoint"], "keys": {}}, "en")
    assert bad.status_code == 422 and bad.json()["code"] == "bad_subscription"
    lang = subscribe(push_server, key, browser, "xx")
    assert lang.status_code == 422
    assert subscribe(push_server, key, browser, "en").status_code == 201
    gone = fetch.request(
        "DELETE",
        f"{push_server.url}/api/push/subscriptions",
        json={"endpoint": browser["endpoint"]},
        headers={"X-Player-Key": secrets.token_urlsafe(24)},
        timeout=10,
    )
    assert gone.status_code == 404, "another key cannot drop it"
    dropped = fetch.request(
        "DELETE",
        f"{push_server.url}/api/push/subscriptions",
        json={"endpoint": browser["endpoint"]},
        headers={"X-Player-Key": key},
        timeout=10,
    )
    assert dropped.status_code == 204


def test_a_public_server_refuses_endpoints_on_its_own_network(
    database_url: str, tmp_path: Any, push_service: PushService
) -> None:
    proc = ServerProcess(database_url, env={"PUSH": "true"}, log_path=tmp_path / "s.log").start()
    try:
        r = subscribe(proc, secrets.token_urlsafe(24), push_service.subscribe(), "en")
        assert r.status_code == 422 and r.json()["code"] == "bad_subscription"
        off = ServerProcess(database_url, env={"PUSH": "false"}, log_path=tmp_path / "o.log")
    finally:
        proc.stop()
    off.start()
    try:
        r = fetch.get(f"{off.url}/api/push/key", timeout=10)
        assert r.status_code == 404 and r.json()["code"] == "push_off"
    finally:
        off.stop()
