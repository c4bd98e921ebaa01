"""Optional accounts through a real server on SQLite and PostgreSQL (issue 34): sign-up,
sign-in and sign-out with the session cookie, CSRF refusals, failed sign-ins slowed,
the player key's rooms moving to the account and appearing on a second device,
deletion and export.  The access modes are in tests/server/test_access_modes.py.

Each test's browsers are httpx clients with their own cookie jars (tests/fetch.py's
shared client must stay cookie-free)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.accounts.tokens import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room, join, sql

PASSWORD = "correct horse"


class Browser:
    """One browser: its cookie jar, its player key, and the CSRF header a page sends."""

    def __init__(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=20)
        self.key = secrets.token_urlsafe(32)

    def csrf(self) -> dict[str, str]:
        value = self.http.cookies.get(CSRF_COOKIE)
        return {CSRF_HEADER: value} if value else {}

    def post(self, path: str, body: Any = None, **headers: str) -> httpx.Response:
        return self.http.post(path, json=body, headers={**self.csrf(), **headers})

    def register(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post(
            "/api/auth/register",
            {"username": name, "password": password},
            **{"X-Player-Key": self.key},
        )

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post(
            "/api/auth/login",
            {"username": name, "password": password},
            **{"X-Player-Key": self.key},
        )

    def games(self) -> list[dict[str, Any]]:
        r = self.http.get("/api/me/games", headers={"X-Player-Key": self.key})
        assert r.status_code == 200, r.text
        return list(r.json()["games"])

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def browsers(server: ServerProcess) -> Iterator[list[Browser]]:
    made = [Browser(server) for _ in range(3)]
    yield made
    for b in made:
        b.close()


def cookie_lines(r: httpx.Response) -> dict[str, str]:
    return {line.split("=", 1)[0]: line for line in r.headers.get_list("set-cookie")}


def test_sign_up_sign_in_and_sign_out(server: ServerProcess, browsers: list[Browser]) -> None:
    ann, other, _ = browsers
    r = ann.register("Ann_1")
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["username"] == "Ann_1" and body["ratings"] == {}
    lines = cookie_lines(r)
    session = lines[SESSION_COOKIE].lower()
    assert "httponly" in session and "samesite=lax" in session and "path=/" in session
    assert "secure" not in session, "plain http: no Secure flag (COOKIE_SECURE=auto)"
    assert "httponly" not in lines[CSRF_COOKIE].lower(), "the page reads the CSRF token"
    assert body["csrf"] == ann.http.cookies[CSRF_COOKIE]
    me = ann.http.get("/api/me")
    assert me.status_code == 200 and me.json()["username"] == "Ann_1"

    assert other.register("ann_1").json()["code"] == "username_taken"
    assert other.register("ann_1").status_code == 409
    for name, password, code in (
        ("x", PASSWORD, "bad_username"),
        ("with space", PASSWORD, "bad_username"),
        ("Bo_2", "short", "weak_password"),
        ("Bo_2", "password123", "weak_password"),
    ):
        r = other.register(name, password)
        assert (r.status_code, r.json()["code"]) == (422, code), r.text
    assert other.http.get("/api/me").status_code == 401
    assert other.http.get("/api/me").json()["code"] == "sign_in_required"

    assert other.login("Ann_1", "wrong horse").status_code == 401
    assert other.login("Ann_1", "wrong horse").json()["code"] == "bad_credentials"
    assert other.login("nobody", PASSWORD).json()["code"] == "bad_credentials"
    r = other.login("ANN_1")
    assert r.status_code == 200 and r.json()["username"] == "Ann_1"

    r = ann.post("/api/auth/logout")
    assert r.status_code == 204
    assert ann.http.get("/api/me").status_code == 401
    assert other.http.get("/api/me").status_code == 200, "the other device stays signed in"


def test_sign_out_everywhere(server: ServerProcess, browsers: list[Browser]) -> None:
    laptop, phone, tablet = browsers
    assert laptop.register("Ann_1").status_code == 201
    assert phone.login("Ann_1").status_code == 200
    assert tablet.login("Ann_1").status_code == 200
    r = phone.post("/api/auth/logout-all")
    assert r.status_code == 200 and r.json() == {"sessions_ended": 3}
    for b in browsers:
        assert b.http.get("/api/me").status_code == 401


def test_a_request_with_the_cookie_but_no_csrf_token_is_refused(
    server: ServerProcess, browsers: list[Browser], database_url: str
) -> None:
    ann = browsers[0]
    assert ann.register("Ann_1").status_code == 201
    rooms_before = sql(database_url, "SELECT count(*) FROM rooms")[0][0]
    no_header = {"players": 2, "name": "Ann"}
    for path, body, method in (
        ("/api/auth/logout", None, "POST"),
        ("/api/auth/logout-all", None, "POST"),
        ("/api/rooms", no_header, "POST"),
        ("/api/me", None, "DELETE"),
    ):
        for headers in ({}, {CSRF_HEADER: "forged"}, {CSRF_HEADER: ""}):
            r = ann.http.request(method, path, json=body, headers=headers)
            assert (r.status_code, r.json()["code"]) == (403, "csrf_failed"), (path, r.text)
    assert ann.http.get("/api/me").status_code == 200, "nothing changed: still signed in"
    assert sql(database_url, "SELECT count(*) FROM rooms")[0][0] == rooms_before
    assert sql(database_url, "SELECT count(*) FROM accounts WHERE username = 'Ann_1'") == [(1,)]
    # a page of another site cannot sign anyone in either
    r = browsers[1].post(
        "/api/auth/login",
        {"username": "Ann_1", "password": PASSWORD},
        Origin="https://evil.example",
    )
    assert (r.status_code, r.json()["code"]) == (403, "bad_origin")
    # with the header, all goes through
    assert ann.post("/api/rooms", no_header).status_code == 201


def test_failed_sign_ins_and_new_accounts_are_slowed(tmp_path: Any, database_url: str) -> None:
    proc = ServerProcess(
        database_url,
        env={
            "LOGIN_FAILURES_PER_ACCOUNT": "3",
            "LOGIN_FAILURES_PER_ADDRESS": "6",
            "REGISTER_PER_HOUR": "2",
        },
        log_path=tmp_path / "server.log",
    ).start()
    b = Browser(proc)
    try:
        assert b.register("Ann_1").status_code == 201
        assert b.register("Bo_22").status_code == 201
        for _ in range(3):
            assert b.login("Ann_1", "wrong horse").status_code == 401
        for password in ("wrong horse", PASSWORD):  # the right one too, for now
            r = b.login("Ann_1", password)
            assert (r.status_code, r.json()["code"]) == (429, "too_many_attempts"), r.text
            assert 0 < int(r.headers["Retry-After"]) <= 900
        assert b.login("Bo_22").status_code == 200, "another name is not locked"
        for _ in range(3):  # the address reaches its own limit on other names
            assert b.login("Bo_22", "wrong horse").status_code == 401
        r = b.login("Cy_333", "wrong horse")
        assert r.status_code == 429 and r.json()["code"] == "too_many_attempts"
        # new accounts per address: REGISTER_PER_HOUR
        r = b.register("Cy_333")
        assert (r.status_code, r.json()["code"]) == (429, "rate_limited"), r.text
        assert int(r.headers["Retry-After"]) > 0
    finally:
        b.close()
        proc.stop()


def test_the_player_keys_rooms_move_to_the_account_and_to_a_second_device(
    server: ServerProcess, browsers: list[Browser], database_url: str
) -> None:
    laptop, phone, stranger = browsers
    made = create_room(server.url, 2, player=laptop.key)
    rid = made["room_id"]
    second = create_room(server.url, 2)["room_id"]
    joined = laptop.post(f"/api/rooms/{second}/seats", {"name": "Ann L", "player": laptop.key})
    assert joined.status_code == 201
    phone_room = create_room(server.url, 2, player=phone.key)
    assert [g["room_id"] for g in phone.games()] == [phone_room["room_id"]]

    r = laptop.register("Ann_1")
    assert r.json()["seats_moved"] == 2, "the laptop key's seats are the account's"
    held = sql(database_url, "SELECT count(*) FROM seats WHERE account_id IS NOT NULL")
    assert held == [(2,)]

    r = phone.login("Ann_1")  # the phone: its key is linked, no transfer link needed
    assert r.status_code == 200 and r.json()["seats_moved"] == 1
    on_phone = {g["room_id"] for g in phone.games()}
    assert on_phone == {rid, second, phone_room["room_id"]}
    assert {g["room_id"] for g in laptop.games()} == on_phone, "the same games on both"

    # the phone takes the laptop's seat up again without its token or the laptop's key
    r = phone.http.post(f"/api/rooms/{rid}/seats/reclaim", headers=phone.csrf())
    assert r.status_code == 200 and r.json()["seat"] == 0
    # a stranger's key sees none of it
    assert stranger.games() == []
    assert (
        stranger.http.post(
            f"/api/rooms/{rid}/seats/reclaim", headers={"X-Player-Key": stranger.key}
        ).status_code
        == 404
    )

    # a seat taken while signed in is the account's at once
    other = create_room(server.url, 3)["room_id"]
    r = phone.post(f"/api/rooms/{other}/seats", {"name": "Ann P"})
    assert r.status_code == 201
    rows = sql(
        database_url,
        "SELECT a.username FROM seats s JOIN accounts a ON a.id = s.account_id "
        "WHERE s.room_id = :rid",
        rid=other,
    )
    assert rows == [("Ann_1",)]
    assert other in {g["room_id"] for g in laptop.games()}
    # signed out, the phone's key shows its own seats only
    phone.post("/api/auth/logout")
    assert {g["room_id"] for g in phone.games()} == {phone_room["room_id"]}


def test_export_and_deletion(
    server: ServerProcess, browsers: list[Browser], database_url: str
) -> None:
    ann, bo, _ = browsers
    room = create_room(server.url, 2, player=ann.key)
    rid = room["room_id"]
    join(server.url, rid, "Bo")
    assert ann.register("Ann_1").status_code == 201

    r = ann.http.get("/api/me/export")
    assert r.status_code == 200
    data = r.json()
    assert data["account"]["username"] == "Ann_1"
    assert len(data["sessions"]) == 1 and data["identities"] == []
    assert len(data["player_keys"]) == 1
    assert [g["room_id"] for g in data["games"]] == [rid]
    text = json.dumps(data)
    assert ann.key not in text and ann.http.cookies[SESSION_COOKIE] not in text, (
        "no secret in an export: keys and sessions appear as hashes and dates only"
    )
    assert PASSWORD not in text and "argon2" not in text

    assert bo.http.delete("/api/me").status_code == 401, "signed out: nothing to delete"
    r = ann.http.delete("/api/me", headers=ann.csrf())
    assert r.status_code == 204
    assert ann.http.get("/api/me").status_code == 401
    assert ann.http.get("/api/me/export").status_code == 401
    assert ann.login("Ann_1").status_code == 401
    # the games stay, under "deleted player"; the name is free again
    r = bo.http.get(f"/api/rooms/{rid}/matches")
    assert r.status_code == 200
    assert [s["name"] for s in r.json()[0]["seats"]] == ["deleted player", "Bo"]
    assert sql(database_url, "SELECT username, password_hash FROM accounts") == [(None, None)]
    assert sql(database_url, "SELECT count(*) FROM account_sessions") == [(0,)]
    assert sql(database_url, "SELECT count(*) FROM account_keys") == [(0,)]
    assert bo.register("Ann_1").status_code == 201


def test_password_login_can_be_switched_off(tmp_path: Any, database_url: str) -> None:
    proc = ServerProcess(
        database_url, env={"PASSWORD_LOGIN": "false"}, log_path=tmp_path / "server.log"
    ).start()
    b = Browser(proc)
    try:
        for r in (b.register("Ann_1"), b.login("Ann_1")):
            assert (r.status_code, r.json()["code"]) == (403, "password_login_disabled")
        assert sql(database_url, "SELECT count(*) FROM accounts") == [(0,)]
        assert b.http.get("/api/auth/options").json()["password_login"] is False
    finally:
        b.close()
        proc.stop()


def test_a_players_name_may_not_pass_for_someone_elses_account(
    server: ServerProcess, browsers: list[Browser]
) -> None:
    ann, stranger, _ = browsers
    assert ann.register("annika").status_code == 201
    for name in ("annika", "Annika", "ANN IKA"):
        made = stranger.post("/api/rooms", {"players": 2, "name": name, "bots": 0, "rules": {}})
        assert made.status_code == 422 and made.json()["code"] == "name_reserved", made.text
    before = int(sql(server.database_url, "SELECT count(*) FROM rooms")[0][0])
    # signed in, the name is Annika's own
    mine = ann.post("/api/rooms", {"players": 2, "name": "Annika", "bots": 0, "rules": {}})
    assert mine.status_code == 201, mine.text
    rid = mine.json()["room_id"]
    taken = stranger.post(f"/api/rooms/{rid}/seats", {"name": "annika"})
    assert taken.status_code == 422 and taken.json()["code"] == "name_reserved"
    assert stranger.post(f"/api/rooms/{rid}/seats", {"name": "Anna"}).status_code == 201
    assert int(sql(server.database_url, "SELECT count(*) FROM rooms")[0][0]) == before + 1

    # watching a room Annika is not at, a stranger may not chat as Annika; she may
    third = browsers[2].post("/api/rooms", {"players": 2, "name": "Cleo", "bots": 0, "rules": {}})
    watched = third.json()["room_id"]

    async def chat_as(name: str, cookie: str | None) -> dict[str, Any]:
        headers = {"Cookie": f"{SESSION_COOKIE}={cookie}"} if cookie else None
        c = await Client(server.ws_url, watched, None, headers=headers).connect()
        try:
            await c.wait_for(lambda m: m["type"] == "snapshot")
            await c.ws.send(json.dumps({"type": "chat", "name": name, "text": "hello"}))
            return await c.wait_for(lambda m: m["type"] in ("chat", "error"))
        finally:
            await c.close()

    refused = run_async(chat_as("ANNIKA", None))
    assert refused["type"] == "error" and refused["code"] == "name_reserved"
    said = run_async(chat_as("Annika", ann.http.cookies[SESSION_COOKIE]))
    assert said["type"] == "chat" and said["name"] == "Annika" and said["text"] == "hello"
    lines = sql(server.database_url, "SELECT room_id, name FROM chat_messages")
    assert [tuple(r) for r in lines] == [(watched, "Annika")]
