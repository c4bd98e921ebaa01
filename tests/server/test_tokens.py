"""Bot accounts and personal access tokens through a real server on SQLite and
PostgreSQL (issue 51): a bot account's program makes a room with its token, holds the
seat as its account, plays a whole match over the WebSocket opened with the token; the
tokens are listed (never the token), exported, revoked; the bot is listed as online.

What an abuser tries is in tests/server/test_tokens_hostile.py."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import run_async

from .harness import Client, ServerProcess, sql
from .token_people import People, bearer, people_of, token_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server for the file (as ``shared_server``), with the token limits of
    tests/server/token_people.py."""
    yield from token_server(request.param, tmp_path_factory.mktemp("tokens"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[People]:
    yield from people_of(server)


def account_id(server: ServerProcess, username: str) -> str:
    return str(
        sql(server.database_url, "SELECT id FROM accounts WHERE username = :u", u=username)[0][0]
    )


def test_a_bot_plays_a_whole_match_with_its_token(server: ServerProcess, people: People) -> None:
    owner, program = people.bot("Robo", "bot:play")
    me = program.get("/api/me")
    assert me.status_code == 200, me.text
    name = me.json()["username"]
    assert name.startswith("Robo_") and me.json()["csrf"] == ""
    r = program.post(
        "/api/rooms",
        {
            "players": 2,
            "name": "Robo",
            "bots": 1,
            "bot_delay": 0,
            "rules": {"single_pack": True, "match_deals": 1},
        },
    )
    assert r.status_code == 201, r.text
    room = r.json()
    seats = sql(
        server.database_url,
        "SELECT account_id FROM seats WHERE room_id = :r AND seat = :s",
        r=room["room_id"],
        s=room["seat"],
    )
    assert seats == [(account_id(server, name),)], "the seat is the bot account's"
    games = program.get("/api/me/games")
    assert games.status_code == 200 and room["room_id"] in {
        g["room_id"] for g in games.json()["games"]
    }

    async def play() -> None:
        bot = await Client(
            server.ws_url, room["room_id"], room["token"], bearer(program.token)
        ).connect()
        try:
            await bot.wait_for(lambda m: m["type"] == "snapshot")
            moves = 0
            while True:
                await bot.wait_until(
                    lambda: (
                        bot.view is not None
                        and (
                            bot.view["status"] == "finished"
                            or (bot.view["to_move"] == bot.view["you"] and bot.view["legal"])
                        )
                    ),
                    timeout=60,
                )
                assert bot.view is not None
                if bot.view["status"] == "finished":
                    break
                move = bot.view["legal"][0]
                ack = await bot.play(move["card"], move["take"])
                assert ack["type"] == "ack", ack
                moves += 1
            assert moves > 5 and not bot.errors
        finally:
            await bot.close()

    run_async(play())


def test_tokens_are_listed_exported_and_revoked_never_shown_again(
    server: ServerProcess, people: People
) -> None:
    owner, program = people.bot("Lister", "bot:play")
    reader = owner.token("read", name="dashboard")
    assert reader["scopes"] == ["read"] and reader["token"].startswith("kkp_")
    assert program.get("/api/me").status_code == 200  # its last use is written
    listed = owner.tokens()
    assert [t["name"] for t in listed] == ["my bot", "dashboard"]
    assert listed[0]["last_used_ms"] is not None and listed[1]["last_used_ms"] is None
    assert set(listed[0]) == {"id", "name", "scopes", "created_ms", "last_used_ms"}
    export = owner.http.get("/api/me/export")
    assert export.status_code == 200
    assert [t["name"] for t in export.json()["access_tokens"]] == ["my bot", "dashboard"]
    for text in (owner.http.get("/api/tokens").text, export.text):
        assert program.token not in text and reader["token"] not in text

    gone = owner.http.delete(f"/api/tokens/{reader['id']}", headers=owner.csrf())
    assert gone.status_code == 204
    assert [t["name"] for t in owner.tokens()] == ["my bot"]
    assert people.program(reader["token"]).get("/api/me").status_code == 401
    again = owner.http.delete(f"/api/tokens/{reader['id']}", headers=owner.csrf())
    assert (again.status_code, again.json()["code"]) == (404, "token_not_found")


def test_bots_are_listed_online_first(server: ServerProcess, people: People) -> None:
    idle_owner = people.person("Idle", bot=True)
    owner, program = people.bot("Busy", "bot:play")
    assert program.get("/api/me").status_code == 200
    r = people.program(program.token).get("/api/bots")  # public: anyone may read it
    assert r.status_code == 200
    bots = {b["name"]: b for b in r.json()["bots"]}
    busy = bots[program.get("/api/me").json()["username"]]
    idle = bots[idle_owner.http.get("/api/me").json()["username"]]
    assert busy["online"] and not idle["online"]
    names = [b["name"] for b in r.json()["bots"]]
    assert names.index(busy["name"]) < names.index(idle["name"])
    person = people.person("Human")
    assert person.http.get("/api/me").json()["username"] not in bots


def test_the_openapi_schema_shows_the_routes_and_their_refusals(server: ServerProcess) -> None:
    paths = httpx.get(f"{server.url}/openapi.json", timeout=20).json()["paths"]
    want = {
        ("post", "/api/tokens"): {"201", "401", "403", "409", "422"},
        ("get", "/api/tokens"): {"200", "401", "403"},
        ("delete", "/api/tokens/{token_id}"): {"204", "401", "403", "404"},
        ("post", "/api/me/bot"): {"200", "401", "403", "409"},
        ("get", "/api/bots"): {"200"},
    }
    for (method, path), statuses in want.items():
        assert statuses <= set(paths[path][method]["responses"]), (method, path)
