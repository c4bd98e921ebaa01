"""A player who changes devices: player keys, "My games", one-time transfer codes, and
taking a seat up again, through a real server on SQLite and PostgreSQL.

The server keeps only hashes: the key and the codes appear in no table.  A transfer
moves the seat (a new token; the old one's connections are told ``seat_moved`` and
closed), works once and only for a few minutes; bad input changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

import httpx

from tests import fetch
from tests.conftest import run_async
from tests.waiting import wait_until

from .harness import Client, ServerProcess, create_room, join, sql
from .test_history import cards_in
from .test_review import two_processes  # noqa: F401  (a fixture)

DAY_MS = 86_400_000


def post(server: ServerProcess, path: str, body: Any = None, **headers: str) -> httpx.Response:
    return fetch.post(server.url + path, json=body, headers=headers, timeout=10)


def games(server: ServerProcess, *keys: str) -> httpx.Response:
    return fetch.get(
        server.url + "/api/me/games", headers={"X-Player-Key": ",".join(keys)}, timeout=10
    )


async def hello(server: ServerProcess, rid: str, token: str | None) -> dict[str, Any]:
    c = await Client(server.ws_url, rid, token).connect()
    try:
        return await c.wait_for(lambda m: m["type"] in ("welcome", "error"))
    finally:
        await c.close()


def stored_text(database_url: str) -> str:
    """Every row of the tables a key or a code could have been written to."""
    rows = sql(database_url, "SELECT * FROM seats") + sql(database_url, "SELECT * FROM transfers")
    return json.dumps([list(map(str, r)) for r in rows])


def test_my_games_a_transfer_and_taking_a_seat_up_again(
    server: ServerProcess, database_url: str
) -> None:
    ann_key, bo_key = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    room = create_room(server.url, 2, rules={"single_pack": True}, player=ann_key)
    rid = room["room_id"]
    r = post(server, f"/api/rooms/{rid}/seats", {"name": "Bo", "player": bo_key})
    assert r.status_code == 201
    bo = r.json()

    r = post(server, "/api/rooms", {"players": 2, "name": "Ann", "player": "not a key!"})
    assert r.status_code == 422 and r.json()["code"] == "bad_request"
    keyless = create_room(server.url, 2)  # taken without a key: in no one's games
    join(server.url, keyless["room_id"], "Cy")
    mine = games(server, ann_key).json()["games"]
    assert [(g["room_id"], g["seat"], g["status"]) for g in mine] == [(rid, 0, "playing")]
    assert mine[0]["matches"][0]["status"] == "playing"
    assert not cards_in(mine), "a deal in play is not in anyone's games"
    assert [s["name"] for s in mine[0]["seats"]] == ["Ann", "Bo"]
    assert games(server, secrets.token_urlsafe(32)).json() == {"games": []}
    both = games(server, ann_key, bo_key).json()["games"]
    assert len(both) == 1, "one room once, whichever keys hold its seats"
    for bad in ("", "short", "a" * 21, "has space " + "a" * 30, ",".join([ann_key] * 5)):
        r = games(server, bad)
        assert r.status_code in (401, 422), (bad, r.text)

    pad = secrets.token_bytes(32)
    sealed = bytes(a ^ b for a, b in zip(secrets.token_bytes(32), pad)).hex()
    assert post(server, f"/api/rooms/{rid}/transfers", {"token": "nope"}).status_code == 403
    assert (
        post(
            server, f"/api/rooms/{rid}/transfers", {"token": room["token"], "sealed": "xyz"}
        ).status_code
        == 422
    )
    made = post(server, f"/api/rooms/{rid}/transfers", {"token": room["token"], "sealed": sealed})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    assert made.json()["seat"] == 0 and made.json()["seconds"] == 300
    hashes = stored_text(database_url)
    assert ann_key not in hashes and bo_key not in hashes and code not in hashes
    assert hashlib.sha256(b"krypkasino-player:" + ann_key.encode()).hexdigest() in hashes

    async def move_seat() -> dict[str, Any]:
        old = await Client(server.ws_url, rid, room["token"]).connect()
        await old.wait_for(lambda m: m["type"] == "snapshot")
        for bad in ({"code": "x"}, {"code": code, "extra": 1}, {"code": 7}):
            assert post(server, "/api/transfers/claim", bad).status_code == 422
        assert (
            post(server, "/api/transfers/claim", {"code": secrets.token_urlsafe(16)}).status_code
            == 404
        )
        assert (await hello(server, rid, room["token"]))["you"] == 0, "nothing changed"
        claimed = post(server, "/api/transfers/claim", {"code": code})
        assert claimed.status_code == 200, claimed.text
        moved = await old.wait_for(lambda m: m["type"] == "error")
        assert (moved["code"], moved["reason"]) == ("seat_moved", "transfer")
        await old.ws.wait_closed()
        assert old.ws.close_code == 4001
        return claimed.json()

    claimed = run_async(move_seat())
    assert (claimed["room_id"], claimed["seat"], claimed["sealed"]) == (rid, 0, sealed)
    assert run_async(hello(server, rid, room["token"]))["code"] == "unauthorized"
    assert run_async(hello(server, rid, claimed["token"]))["you"] == 0
    again = post(server, "/api/transfers/claim", {"code": code})
    assert (again.status_code, again.json()["code"]) == (410, "transfer_used")
    assert sql(database_url, "SELECT sealed FROM transfers")[0][0] is None, "key forgotten"

    late = post(server, f"/api/rooms/{rid}/transfers", {"token": claimed["token"]}).json()["code"]
    sql(database_url, "UPDATE transfers SET expires_ms = 1 WHERE used_ms IS NULL")
    expired = post(server, "/api/transfers/claim", {"code": late})
    assert (expired.status_code, expired.json()["code"]) == (410, "transfer_expired")
    assert run_async(hello(server, rid, claimed["token"]))["you"] == 0

    # Bo takes his seat up again from a device without its token, by his key alone.
    assert post(server, f"/api/rooms/{rid}/seats/reclaim").status_code == 401
    stranger = {"X-Player-Key": secrets.token_urlsafe(32)}
    assert post(server, f"/api/rooms/{rid}/seats/reclaim", **stranger).status_code == 404
    r = post(server, f"/api/rooms/{rid}/seats/reclaim", **{"X-Player-Key": bo_key})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert run_async(hello(server, rid, bo["token"]))["code"] == "unauthorized"
    assert run_async(hello(server, rid, r.json()["token"]))["you"] == 1


def test_a_transfer_moves_connections_off_the_seat_on_every_process(two_processes) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    a, b = two_processes

    async def check() -> None:
        room = create_room(a.url, 2, bots=1)
        rid = room["room_id"]
        on_a = await Client(a.ws_url, rid, room["token"]).connect()
        on_b = await Client(b.ws_url, rid, room["token"]).connect()
        for c in (on_a, on_b):
            await c.wait_for(lambda m: m["type"] == "snapshot")
        code = post(a, f"/api/rooms/{rid}/transfers", {"token": room["token"]}).json()["code"]
        claimed = post(b, "/api/transfers/claim", {"code": code}).json()
        for c in (on_a, on_b):
            moved = await c.wait_for(lambda m: m["type"] == "error")
            assert (moved["code"], moved["reason"]) == ("seat_moved", "transfer")
        assert (await hello(a, rid, claimed["token"]))["you"] == 0
        assert (await hello(b, rid, room["token"]))["code"] == "unauthorized"

    run_async(check())


def test_my_games_puts_a_correspondence_room_waiting_for_me_first(server: ServerProcess) -> None:
    """Issue 32: the deadline row the rooms write is what My games reads.  Ann's
    correspondence room against a bot, once it waits for her move, comes before her
    newer live room, with its deadline a day after her turn began."""
    key = secrets.token_urlsafe(32)
    before = int(time.time() * 1000)
    corr = create_room(
        server.url, 2, bots=1, player=key, pace="correspondence", days_per_move=1, bot_delay=0
    )
    live = create_room(server.url, 2, bots=1, player=key, bot_delay=0)

    def waiting_for_ann() -> list[dict[str, Any]] | None:
        found: list[dict[str, Any]] = games(server, key).json()["games"]
        return found if found and found[0]["to_move"] else None

    first, second = wait_until(waiting_for_ann, message="Ann's move in My games")
    after = int(time.time() * 1000)
    assert (first["room_id"], first["seat"], first["pace"]) == (
        corr["room_id"],
        corr["seat"],
        "correspondence",
    )
    assert before + DAY_MS <= first["deadline"] <= after + DAY_MS
    assert (second["room_id"], second["pace"], second["to_move"], second["deadline"]) == (
        live["room_id"],
        "live",
        False,
        None,
    )
    # Nobody else's games: a key that sat nowhere has none.
    assert games(server, secrets.token_urlsafe(32)).json() == {"games": []}
