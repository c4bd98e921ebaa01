"""What an abuser tries with personal access tokens (issue 51), against a real server on
SQLite and PostgreSQL: a ``read`` token that posts, plays or joins; a revoked token
(on a second process too); a stolen token that makes tokens, revokes them, makes the
account a bot or deletes it; another account's token id; headers of garbage; a token
beside the cookie; a flood from one token; a person asking for ``bot:play``; a bot
account in a rated room.  Each is refused with its code and changes nothing, and no
token is ever shown again or written to the server's log."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from app.accounts.tokens import SESSION_COOKIE
from tests.conftest import run_async

from .harness import ServerProcess, create_room, sql
from .token_people import TOKEN_LIMITS, People, bearer, people_of, token_server

ROOM = {"players": 2, "name": "Robo", "bots": 1}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from token_server(request.param, tmp_path_factory.mktemp("tokens-hostile"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[People]:
    yield from people_of(server)


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert (r.status_code, r.json().get("code")) == (status, code), r.text
    assert set(r.json()) == {"code", "message"}


def count(server: ServerProcess, table: str) -> int:
    return int(sql(server.database_url, f"SELECT count(*) FROM {table}")[0][0])


def socket_answer(
    server: ServerProcess, rid: str, headers: list[tuple[str, str]], token: str | None = None
) -> list[dict[str, Any]]:
    """What a socket opened with ``headers`` and saying hello with ``token`` is sent,
    up to its snapshot, its close or its second error."""

    async def run() -> list[dict[str, Any]]:
        url = f"{server.ws_url}/ws/rooms/{rid}"
        got: list[dict[str, Any]] = []
        async with websockets.connect(url, additional_headers=headers or None) as ws:
            try:
                await ws.send(json.dumps({"type": "hello", "token": token, "last_seq": None}))
            except websockets.ConnectionClosed:
                pass  # refused before the hello: its error is still there to read
            try:
                while not any(m["type"] == "snapshot" for m in got):
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
                    if sum(m["type"] == "error" for m in got) and token is not None:
                        break
            except websockets.ConnectionClosed:
                pass
        return got

    return run_async(run())


def codes(messages: list[dict[str, Any]]) -> list[str]:
    return [m["code"] for m in messages if m["type"] == "error"]


def test_a_read_token_cannot_post_play_or_join(server: ServerProcess, people: People) -> None:
    owner = people.person("Reader", bot=True)
    reader = people.program(owner.token("read")["token"])
    assert reader.get("/api/me").status_code == 200
    rooms, seats = count(server, "rooms"), count(server, "seats WHERE account_id IS NOT NULL")
    refused(reader.post("/api/rooms", ROOM), 403, "insufficient_scope")
    room = create_room(server.url, 2)
    refused(
        reader.post(f"/api/rooms/{room['room_id']}/seats", {"name": "Rd"}),
        403,
        "insufficient_scope",
    )
    refused(reader.post("/api/pairing", {"players": 2, "name": "Rd"}), 403, "insufficient_scope")
    assert count(server, "rooms") == rooms + 1, "only the anonymous room"
    assert count(server, "seats WHERE account_id IS NOT NULL") == seats
    # its socket watches: a seat's token in its hello is refused, the seat stays free
    got = socket_answer(server, room["room_id"], list(bearer(reader.token).items()), room["token"])
    assert codes(got) == ["insufficient_scope"] and not any(m["type"] == "snapshot" for m in got)
    watched = socket_answer(server, room["room_id"], list(bearer(reader.token).items()))
    snapshot = next(m for m in watched if m["type"] == "snapshot")
    assert snapshot["view"]["you"] is None and snapshot["view"]["hand"] == []


def test_a_revoked_token_is_refused_everywhere_at_once(
    server: ServerProcess, people: People, tmp_path: Any
) -> None:
    owner, program = people.bot("Revoked", "bot:play")
    room = create_room(server.url, 2)
    second = None
    if server.database_url.startswith("postgresql"):  # a second process on the database
        second = ServerProcess(
            server.database_url, log_path=tmp_path / "b.log", env=TOKEN_LIMITS
        ).start()
    try:
        if second is not None:
            assert (
                httpx.get(f"{second.url}/api/me", headers=bearer(program.token)).status_code == 200
            )
        token_id = owner.tokens()[0]["id"]
        assert owner.http.delete(f"/api/tokens/{token_id}", headers=owner.csrf()).status_code == 204
        rooms = count(server, "rooms")
        refused(program.get("/api/me"), 401, "bad_token")
        assert program.get("/api/me").headers["www-authenticate"].startswith("Bearer")
        refused(program.get(f"/api/rooms/{room['room_id']}"), 401, "bad_token")
        refused(program.post("/api/rooms", ROOM), 401, "bad_token")
        refused(
            program.post(f"/api/rooms/{room['room_id']}/seats", {"name": "Rv"}), 401, "bad_token"
        )
        assert codes(
            socket_answer(server, room["room_id"], list(bearer(program.token).items()))
        ) == ["bad_token"]
        if second is not None:
            r = httpx.get(f"{second.url}/api/me", headers=bearer(program.token))
            refused(r, 401, "bad_token")
        assert count(server, "rooms") == rooms
    finally:
        if second is not None:
            second.stop()
    log = server.log_path.read_text(errors="replace")
    assert program.token not in log and program.token[4:] not in log


def test_a_token_cannot_make_tokens_or_touch_the_account(
    server: ServerProcess, people: People
) -> None:
    owner, program = people.bot("Stolen", "bot:play")
    before = [t["id"] for t in owner.tokens()]
    token_id = before[0]
    for method, path, body in (
        ("POST", "/api/tokens", {"name": "mine now", "scopes": ["bot:play"]}),
        ("GET", "/api/tokens", None),
        ("DELETE", f"/api/tokens/{token_id}", None),
        ("POST", "/api/me/bot", None),
        ("DELETE", "/api/me", None),
        ("GET", "/api/me/export", None),
        ("POST", "/api/auth/logout-all", None),
        ("POST", "/api/auth/login", {"username": "x_y_z", "password": "correct horse"}),
    ):
        r = program.http.request(method, path, json=body)
        refused(r, 403, "session_required")
    assert [t["id"] for t in owner.tokens()] == before
    assert owner.http.get("/api/me").status_code == 200, "the account and its session stay"
    assert program.get("/api/me").status_code == 200, "the token still works"


def test_another_accounts_token_id_cannot_be_deleted(server: ServerProcess, people: People) -> None:
    owner, program = people.bot("Victim", "bot:play")
    thief = people.person("Thief")
    theirs = owner.tokens()[0]["id"]
    for token_id in (theirs, "nope", "x" * 64, secrets.token_hex(12)):
        r = thief.http.delete(f"/api/tokens/{token_id}", headers=thief.csrf())
        refused(r, 404, "token_not_found")
    assert thief.http.delete("/api/tokens/" + "x" * 65, headers=thief.csrf()).status_code == 422
    assert owner.tokens()[0]["id"] == theirs
    assert program.get("/api/me").status_code == 200


GARBAGE = [
    b"Bearer",
    b"bEaReR kkp_" + b"B" * 43,
    b"Basic dXNlcjpwYXNz",
    b"Token kkp_abc",
    b"Bearer kkp_" + b"A" * 43,  # the right shape, no such token
    b"Bearer kkp_" + b"A" * 42 + b"!",
    b"Bearer " + b"x" * 5000,
    b"Bearer kkp_\xe4\xf6\xfc" + b"A" * 40,
    b"Bearer kkp_\xc3\xa4" + b"A" * 41,
    b"Bearer kkp_" + b"A" * 43 + b",Bearer kkp_" + b"A" * 43,
    b"Bearer a b c",
]


@pytest.mark.parametrize("header", GARBAGE)
def test_garbage_authorization_headers_get_401(server: ServerProcess, header: bytes) -> None:
    rooms = count(server, "rooms")
    with httpx.Client(base_url=server.url, timeout=20) as http:
        for method, path in (("GET", "/api/me"), ("POST", "/api/rooms"), ("GET", "/api/bots")):
            r = http.request(method, path, headers=[(b"Authorization", header)], json=ROOM)
            refused(r, 401, "bad_token")
    assert count(server, "rooms") == rooms


def test_two_authorization_headers_get_401_and_a_socket_with_garbage_too(
    server: ServerProcess, people: People
) -> None:
    owner, program = people.bot("Twice", "bot:play")
    two = [(b"Authorization", f"Bearer {program.token}".encode())] * 2
    with httpx.Client(base_url=server.url, timeout=20) as http:
        refused(http.get("/api/me", headers=two), 401, "bad_token")
    room = create_room(server.url, 2)
    assert codes(socket_answer(server, room["room_id"], [("Authorization", "Basic abc")])) == [
        "bad_token"
    ]


def test_a_token_beside_the_cookie_gets_400(server: ServerProcess, people: People) -> None:
    owner, program = people.bot("Both", "bot:play")
    rooms = count(server, "rooms")
    for method, path in (("GET", "/api/me"), ("POST", "/api/rooms"), ("GET", "/api/tokens")):
        r = owner.http.request(
            method, path, json=ROOM, headers={**owner.csrf(), **bearer(program.token)}
        )
        refused(r, 400, "ambiguous_credentials")
    assert count(server, "rooms") == rooms
    room = create_room(server.url, 2)
    cookie = ("Cookie", f"{SESSION_COOKIE}={owner.http.cookies[SESSION_COOKIE]}")
    headers = [cookie, *bearer(program.token).items()]
    assert codes(socket_answer(server, room["room_id"], headers)) == ["ambiguous_credentials"]


def test_a_flooding_token_is_slowed_and_others_go_on(server: ServerProcess, people: People) -> None:
    _, flooder = people.bot("Flood", "bot:play")
    _, other = people.bot("Calm", "bot:play")
    answers = [flooder.get("/api/bots") for _ in range(60)]
    limited = [r for r in answers if r.status_code == 429]
    assert limited and all(r.status_code in (200, 429) for r in answers)
    assert limited[0].json()["code"] == "rate_limited"
    assert int(limited[0].headers["retry-after"]) >= 1
    assert other.get("/api/bots").status_code == 200, "another token goes on"
    assert httpx.get(f"{server.url}/api/bots").status_code == 200, "and so does everyone else"


def test_a_person_cannot_get_a_bot_play_token(server: ServerProcess, people: People) -> None:
    person = people.person("Human")
    r = person.post("/api/tokens", {"name": "sneaky", "scopes": ["bot:play"]})
    refused(r, 403, "not_a_bot_account")
    assert "/api/me/bot" in r.json()["message"]
    for body in (
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["admin"]},
        {"name": "", "scopes": ["read"]},
        {"name": "x" * 61, "scopes": ["read"]},
        {"name": "x", "scopes": "read"},
        {"name": "x", "scopes": ["read"], "extra": 1},
    ):
        r = person.post("/api/tokens", body)
        assert r.status_code == 422 and set(r.json()) == {"code", "message"}, r.text
    assert person.tokens() == []


def test_a_bot_account_stays_out_of_rated_rooms(server: ServerProcess, people: People) -> None:
    human = people.person("Rated")
    r = human.post("/api/rooms", {"players": 2, "name": "Rated", "rated": True})
    assert r.status_code == 201, r.text
    rated = r.json()["room_id"]
    refused(human.post("/api/me/bot"), 409, "has_rated_games")  # a seat of a live rated room
    assert human.http.get("/api/me").status_code == 200
    _, bot = people.bot("NoRate", "bot:play")
    refused(bot.post(f"/api/rooms/{rated}/seats", {"name": "NoRate"}), 403, "bots_not_rated")
    refused(bot.post("/api/rooms", {**ROOM, "bots": 0, "rated": True}), 403, "bots_not_rated")
    summary = httpx.get(f"{server.url}/api/rooms/{rated}").json()
    assert [s["name"] for s in summary["seats"]] == ["Rated", None]


def test_a_bot_account_is_not_put_in_the_queue_for_people(
    server: ServerProcess, people: People
) -> None:
    """Find a game seats people: a bot account's token asking for a table is refused,
    and no ticket waits for it (a person's request goes on as before)."""
    _, bot = people.bot("NoQueue", "bot:play")
    refused(bot.post("/api/pairing", {"players": 2, "name": "NoQueue"}), 403, "bots_not_allowed")
    human = people.person("Queued")
    r = human.post("/api/pairing", {"players": 2, "name": "Queued"})
    assert r.status_code == 202, r.text
    waiting = sql(server.database_url, "SELECT name FROM pairing_tickets WHERE name = :n",
                  n="NoQueue")  # fmt: skip
    assert waiting == []
    assert human.http.delete(f"/api/pairing/{r.json()['ticket']}",
                             headers=human.csrf()).status_code in (200, 204)  # fmt: skip


def test_a_bot_account_does_not_play_the_deal_of_the_day(
    server: ServerProcess, people: People
) -> None:
    """The deal of the day ranks people: a bot account's token is refused its table,
    whatever key it sends, and no room is made for it."""
    _, bot = people.bot("NoDaily", "bot:play")
    days = bot.http.get("/api/daily").json()
    counts = [d["players"] for d in days.get("deals", [])] or [2]
    key = {"X-Player-Key": "k" * 22}
    before = sql(server.database_url, "SELECT count(*) FROM rooms")
    r = bot.http.post(f"/api/daily/{counts[0]}", json={"name": "NoDaily"}, headers=key)
    refused(r, 403, "bots_not_allowed")
    assert sql(server.database_url, "SELECT count(*) FROM rooms") == before


def test_a_members_only_server_takes_a_token_where_it_takes_the_cookie(
    server: ServerProcess, tmp_path: Any
) -> None:
    if not server.database_url.startswith("sqlite"):
        pytest.skip("the access mode is no database's: SQLite alone")
    members = ServerProcess(
        f"sqlite+aiosqlite:///{tmp_path}/members.db",
        log_path=tmp_path / "members.log",
        env={**TOKEN_LIMITS, "ACCESS": "members"},
    ).start()
    made = People(members)
    try:
        owner, program = made.bot("Member", "bot:play")
        r = program.post("/api/rooms", ROOM)
        assert r.status_code == 201, r.text
        room = r.json()
        refused(httpx.get(f"{members.url}/api/rooms/{room['room_id']}"), 401, "sign_in_required")
        assert program.get(f"/api/rooms/{room['room_id']}").status_code == 200
        rid, token = room["room_id"], room["token"]
        assert codes(socket_answer(members, rid, [])) == ["sign_in_required"]
        fake = bearer("kkp_" + "A" * 43)
        assert codes(socket_answer(members, rid, list(fake.items()))) == ["bad_token"]
        got = socket_answer(members, rid, list(bearer(program.token).items()), token)
        snapshot = next(m for m in got if m["type"] == "snapshot")
        assert snapshot["view"]["you"] == room["seat"] and snapshot["view"]["hand"]
    finally:
        made.close()
        members.stop()
