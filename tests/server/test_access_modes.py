"""The access modes of an instance (ACCESS, issue 34) through a real server on SQLite
and PostgreSQL: each refuses exactly what it should, over HTTP and the WebSocket,
with 401 ``sign_in_required`` (or a WebSocket ``error`` of that code), and a refusal
changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from app.accounts.tokens import SESSION_COOKIE

from .harness import Client, ServerProcess, create_room, sql
from .test_accounts import Browser


def mode_server(database_url: str, tmp_path: Any, access: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        database_url, env={"ACCESS": access}, log_path=tmp_path / f"{access}.log"
    ).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def accounts_server(database_url: str, tmp_path: Any) -> Iterator[ServerProcess]:
    yield from mode_server(database_url, tmp_path, "accounts")


@pytest.fixture
def members_server(database_url: str, tmp_path: Any) -> Iterator[ServerProcess]:
    yield from mode_server(database_url, tmp_path, "members")


def first_message(server: ServerProcess, rid: str, token: str | None, cookie: str | None) -> dict:
    """The first answer a socket of the room gets (a welcome, or an error)."""

    async def run() -> dict:
        headers = {"Cookie": f"{SESSION_COOKIE}={cookie}"} if cookie else None
        c = await Client(server.ws_url, rid, token, headers=headers).connect()
        try:
            return await c.wait_for(lambda m: m["type"] in ("welcome", "error"))
        finally:
            await c.close()

    return asyncio.run(run())


def rooms(database_url: str) -> int:
    return int(sql(database_url, "SELECT count(*) FROM rooms")[0][0])


def test_accounts_mode_wants_an_account_to_make_a_room_only(
    accounts_server: ServerProcess, database_url: str
) -> None:
    server = accounts_server
    guest, ann = Browser(server), Browser(server)
    try:
        r = guest.post("/api/rooms", {"players": 2, "name": "Guest"})
        assert (r.status_code, r.json()["code"]) == (401, "sign_in_required"), r.text
        assert "sign in" in r.json()["message"]
        assert rooms(database_url) == 0, "a refusal makes no room"

        assert ann.register("Ann_1").status_code == 201
        r = ann.post("/api/rooms", {"players": 2, "name": "Ann", "player": ann.key})
        assert r.status_code == 201, r.text
        rid = r.json()["room_id"]
        # anyone with the link may still watch and join
        assert guest.http.get(f"/api/rooms/{rid}").status_code == 200
        assert first_message(server, rid, None, None)["type"] == "welcome"
        r = guest.post(f"/api/rooms/{rid}/seats", {"name": "Guest"})
        assert r.status_code == 201, r.text
        assert first_message(server, rid, r.json()["token"], None)["type"] == "welcome"
    finally:
        guest.close()
        ann.close()


def test_members_mode_lets_only_signed_in_accounts_make_join_or_watch(
    members_server: ServerProcess, database_url: str
) -> None:
    server = members_server
    guest, ann, bo = Browser(server), Browser(server), Browser(server)
    try:
        # what is open: the rules, signing up and in, the page itself
        assert guest.http.get("/api/rules").status_code == 200
        options = guest.http.get("/api/auth/options").json()
        assert options == {"access": "members", "password_login": True, "providers": []}
        assert guest.http.get("/").status_code == 200
        assert ann.register("Ann_1").status_code == 201
        r = ann.post("/api/rooms", {"players": 3, "name": "Ann"})
        assert r.status_code == 201, r.text
        rid = r.json()["room_id"]
        ann_token = r.json()["token"]
        made = rooms(database_url)

        refused = [
            guest.post("/api/rooms", {"players": 2, "name": "Guest"}),
            guest.post(f"/api/rooms/{rid}/seats", {"name": "Guest"}),
            guest.http.get(f"/api/rooms/{rid}"),
            guest.http.get(f"/api/rooms/{rid}/matches"),
            guest.http.get("/api/rooms/public"),
            guest.http.get(f"/api/codes/{create_code(database_url, rid)}"),
            guest.http.get("/api/me/games", headers={"X-Player-Key": guest.key}),
        ]
        for r in refused:
            assert (r.status_code, r.json()["code"]) == (401, "sign_in_required"), r.text
        assert rooms(database_url) == made
        seated = sql(
            database_url,
            "SELECT count(*) FROM seats WHERE room_id = :r AND name IS NOT NULL",
            r=rid,
        )

        # the WebSocket: no spectator, and not even a seat's token, without an account
        for token in (None, ann_token):
            msg = first_message(server, rid, token, None)
            assert (msg["type"], msg["code"]) == ("error", "sign_in_required"), msg
        msg = first_message(server, rid, None, "not-a-session")
        assert (msg["type"], msg["code"]) == ("error", "sign_in_required")
        assert (
            sql(
                database_url,
                "SELECT count(*) FROM seats WHERE room_id = :r AND name IS NOT NULL",
                r=rid,
            )
            == seated
        )

        # signed in, everything works
        assert bo.register("Bo_22").status_code == 201
        assert bo.http.get(f"/api/rooms/{rid}").status_code == 200
        r = bo.post(f"/api/rooms/{rid}/seats", {"name": "Bo"})
        assert r.status_code == 201, r.text
        session = bo.http.cookies[SESSION_COOKIE]
        assert first_message(server, rid, r.json()["token"], session)["type"] == "welcome"
        assert first_message(server, rid, None, session)["type"] == "welcome"  # spectator
        assert bo.http.get("/api/rooms/public").status_code == 200
        # signed out again: refused again
        bo.post("/api/auth/logout")
        assert bo.http.get(f"/api/rooms/{rid}").status_code == 401
        assert first_message(server, rid, None, session)["code"] == "sign_in_required"
    finally:
        for b in (guest, ann, bo):
            b.close()


def create_code(database_url: str, rid: str) -> str:
    return str(sql(database_url, "SELECT code FROM rooms WHERE id = :r", r=rid)[0][0])


def test_open_mode_refuses_nobody(server: ServerProcess) -> None:
    room = create_room(server.url, 2)
    assert first_message(server, room["room_id"], None, None)["type"] == "welcome"
