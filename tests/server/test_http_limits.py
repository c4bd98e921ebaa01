"""Free text a database could refuse, against a real server process on SQLite and
PostgreSQL: every request is refused with 422 and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.conftest import run_async

from .harness import ServerProcess, sql, two_players


def rooms_in_database(server: ServerProcess) -> int:
    return sql(server.database_url, "SELECT count(*) FROM rooms")[0][0]


# ------------------------------------------------------------------ free text

BAD_NAMES = ["A\\u0000", "\\u0000", "A\\ud800", "\\udfff B", "A\\u0007", "A\\nB", "A\\tB",
             "A\\u2028B", "A\\u2029B", "A\\u0085B", "   ", "", "x" * 41]
"""JSON string bodies as sent on the wire (escapes included)."""


def test_names_and_texts_a_database_cannot_take_get_422_and_change_nothing(
        database_url: str, tmp_path: Path) -> None:
    import hashlib

    token = "an-admin-token-for-tests"
    admin = {"Authorization": f"Bearer {token}"}
    server = ServerProcess(database_url, log_path=tmp_path / "server.log", env={
        "ADMIN_TOKEN_HASH": hashlib.sha256(token.encode()).hexdigest()}).start()
    try:
        run_async(refuse_texts(server, admin))
    finally:
        server.stop()


async def refuse_texts(server: ServerProcess, admin: dict[str, str]) -> None:
    rid, ann, bo = await two_players(server)
    waiting = httpx.post(server.url + "/api/rooms", json={"players": 3, "name": "Åsa 👩‍💻"}).json()
    rooms_before = rooms_in_database(server)
    summaries = [httpx.get(f"{server.url}/api/rooms/{r}").json() for r in (rid, waiting["room_id"])]
    json_type = {"Content-Type": "application/json"}
    for name in BAD_NAMES:
        for url, body in ((f"{server.url}/api/rooms", '{"players": 2, "name": "%s"}'),
                          (f"{server.url}/api/rooms/{waiting['room_id']}/seats", '{"name": "%s"}')):
            r = httpx.post(url, content=(body % name).encode(), headers=json_type)
            assert r.status_code == 422, (name, r.text)
            assert r.json()["code"] == "bad_request" and "name" in r.json()["message"], r.text
    # An unescaped control character or bytes that are not UTF-8: not JSON at all.
    for raw in (b'{"players": 2, "name": "A\x00"}', b'{"players": 2, "name": "A\xff"}'):
        r = httpx.post(f"{server.url}/api/rooms", content=raw, headers=json_type)
        assert r.status_code in (400, 422) and r.json()["code"] == "bad_request", r.text
    # The admin's close reason is stored too.
    for reason in ("\\u0000", "a\\ud800", "two\\nlines"):
        r = httpx.post(f"{server.url}/api/admin/rooms/{rid}/close", headers={**admin, **json_type},
                       content=('{"reason": "%s"}' % reason).encode())
        assert r.status_code == 422 and r.json()["code"] == "bad_request", r.text
    # A play's id is stored with the move: printable ASCII only.
    mover = (ann, bo)[ann.view["to_move"]]
    seq = mover.seq
    move = mover.view["legal"][0]
    for bad_id in ("a\u0000", "a b", "é", "\u2028", "a" * 65, ""):
        await mover.ws.send(json.dumps({"type": "play", "id": bad_id, "card": move["card"],
                                        "take": move["take"]}))
        err = await mover.wait_for(lambda m: m["type"] in ("error", "ack"))
        assert err["type"] == "error" and err["code"] == "bad_message", (bad_id, err)
    assert rooms_in_database(server) == rooms_before
    assert [httpx.get(f"{server.url}/api/rooms/{r}").json()
            for r in (rid, waiting["room_id"])] == summaries, "nothing changed"
    assert summaries[1]["seats"][0]["name"] == "Åsa 👩‍💻"
    # ... and the game goes on, and the room takes good names and reasons.
    ack = await mover.play(move["card"], move["take"], msg_id="~id:0x21-0x7E!")
    assert ack["type"] == "ack" and ack["seq"] == seq + 1
    r = httpx.post(f"{server.url}/api/rooms/{waiting['room_id']}/seats", json={"name": " Björn "})
    assert r.status_code == 201
    seats = httpx.get(f"{server.url}/api/rooms/{waiting['room_id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Åsa 👩‍💻", "Björn", None]
    r = httpx.post(f"{server.url}/api/admin/rooms/{rid}/close", headers=admin,
                   json={"reason": "Stängt för underhåll"})
    assert r.status_code == 200, r.text
    closed = httpx.get(f"{server.url}/api/rooms/{rid}").json()["closed"]
    assert closed["reason"] == "Stängt för underhåll"
    for c in (ann, bo):
        await c.close()
