"""The bot event stream, seating a bot by name and challenges between bots, through a
real server on SQLite and PostgreSQL (issue 51): a person's room gets an online bot by
name and the bot's stream tells it the game; the bot takes the seat with hello
``own``; two bots challenge each other and both streams tell the room made; a
declined or withdrawn challenge is gone from the stream; a revoked token's stream
ends; a server that stops ends its streams cleanly.

What an abuser tries is in tests/server/test_bot_stream_hostile.py; a second process
sharing the database in tests/server/test_bot_stream_processes.py."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Iterator

import httpx
import pytest
import websockets

from tests.conftest import run_async

from .bot_streams import StreamReader
from .harness import ServerProcess, create_room
from .token_people import TOKEN_LIMITS, People, Program, bearer, people_of, token_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from token_server(request.param, tmp_path_factory.mktemp("bot_stream"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[People]:
    yield from people_of(server)


def online_bot(people: People, name: str) -> tuple[Program, StreamReader, str]:
    """A bot account with a ``bot:play`` token and its stream open: (program, stream,
    username)."""
    _, program = people.bot(name)
    username = program.get("/api/me").json()["username"]
    stream = StreamReader(people.server, program.token)
    assert stream.status == 200, stream.body
    return program, stream, username


def test_a_person_seats_an_online_bot_by_name_and_its_stream_tells_the_game(
    server: ServerProcess, people: People
) -> None:
    program, stream, name = online_bot(people, "Seatme")
    try:
        bots = httpx.get(f"{server.url}/api/bots", timeout=10).json()["bots"]
        assert next(b for b in bots if b["name"] == name)["online"] is True
        room = create_room(server.url, 2, rules={"match_deals": 1})
        rid = room["room_id"]
        r = httpx.post(
            f"{server.url}/api/rooms/{rid}/bots",
            json={"name": name.upper(), "token": room["token"]},
            timeout=10,
        )
        assert r.status_code == 201, r.text
        assert r.json() == {"room_id": rid, "seat": 1, "name": name}
        assert "token" not in r.json(), "whoever seats the bot cannot play its seat"
        line = stream.next("game", room_id=rid)
        assert line == {"type": "game", "room_id": rid, "seat": 1, "code": room["code"]}
        summary = httpx.get(f"{server.url}/api/rooms/{rid}", timeout=10).json()
        assert summary["seats"][1]["name"] == name and summary["status"] == "playing"

        async def takes_its_seat() -> int | None:
            async with websockets.connect(
                f"{server.ws_url}/ws/rooms/{rid}", additional_headers=bearer(program.token)
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "own": True}))
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 20)))["type"] != (
                    "welcome"
                ):
                    pass
                return msg["you"]  # type: ignore[no-any-return]

        assert run_async(takes_its_seat()) == 1
    finally:
        stream.close()


def test_two_bots_challenge_and_both_streams_tell_the_room(
    server: ServerProcess, people: People
) -> None:
    maker, maker_stream, maker_name = online_bot(people, "Chall")
    opponent, opp_stream, opp_name = online_bot(people, "Oppo")
    try:
        r = maker.post(
            "/api/bot/challenges",
            {"opponent": opp_name, "players": 3, "bots": 1, "rules": {"match_deals": 1}},
        )
        assert r.status_code == 201, r.text
        made = r.json()
        line = opp_stream.next("challenge", id=made["id"])
        assert (line["from"], line["players"], line["bots"]) == (maker_name, 3, 1)
        assert line["expires_ms"] == made["expires_ms"] and line["rules"]["match_deals"] == 1
        r = opponent.post(f"/api/bot/challenges/{made['id']}/accept")
        assert r.status_code == 200, r.text
        rid = r.json()["room_id"]
        assert maker_stream.next("game", room_id=rid)["seat"] == 0, "the challenger in seat 0"
        theirs = opp_stream.told("game", room_id=rid)
        opp_stream.told("challenge_gone", id=made["id"])
        summary = httpx.get(f"{server.url}/api/rooms/{rid}", timeout=10).json()
        seats = summary["seats"]
        assert seats[0]["name"] == maker_name and seats[theirs["seat"]]["name"] == opp_name
        assert sum(s["bot"] for s in seats) == 1 and summary["status"] == "playing"
        again = opponent.post(f"/api/bot/challenges/{made['id']}/accept")
        assert again.status_code == 404 and again.json()["code"] == "challenge_not_found"
    finally:
        maker_stream.close()
        opp_stream.close()


def test_a_declined_or_withdrawn_challenge_is_gone_from_the_stream(
    server: ServerProcess, people: People
) -> None:
    maker, maker_stream, _ = online_bot(people, "Dec")
    opponent, opp_stream, opp_name = online_bot(people, "Lin")
    try:
        first = maker.post("/api/bot/challenges", {"opponent": opp_name, "players": 2}).json()
        opp_stream.next("challenge", id=first["id"])
        r = opponent.post(f"/api/bot/challenges/{first['id']}/decline")
        assert r.status_code == 204, r.text
        opp_stream.next("challenge_gone", id=first["id"])
        second = maker.post("/api/bot/challenges", {"opponent": opp_name, "players": 2}).json()
        opp_stream.next("challenge", id=second["id"])
        assert maker.delete(f"/api/bot/challenges/{second['id']}").status_code == 204
        opp_stream.next("challenge_gone", id=second["id"])
        r = opponent.post(f"/api/bot/challenges/{second['id']}/accept")
        assert r.status_code == 404, r.text
    finally:
        maker_stream.close()
        opp_stream.close()


def test_a_revoked_tokens_open_stream_ends(server: ServerProcess, people: People) -> None:
    owner = people.person("Revo", bot=True)
    made = owner.token("bot:play")
    stream = StreamReader(server, made["token"])
    try:
        assert stream.status == 200, stream.body
        assert not stream.ended.is_set()
        r = owner.http.delete(f"/api/tokens/{made['id']}", headers=owner.csrf())
        assert r.status_code == 204, r.text
        assert stream.ended.wait(30), "the revoked token's stream goes on"
        again = StreamReader(server, made["token"])
        assert (again.status, again.body["code"]) == (401, "bad_token")
        again.close()
    finally:
        stream.close()


def test_a_stopping_server_ends_its_streams_cleanly(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    proc = ServerProcess(database_url, log_path=tmp_path / "s.log", env=TOKEN_LIMITS).start()
    made = People(proc)
    try:
        _, program = made.bot("Stop")
        stream = StreamReader(proc, program.token)
        assert stream.status == 200, stream.body
        assert proc.proc is not None
        proc.proc.send_signal(signal.SIGTERM)
        assert stream.ended.wait(15), "the stream outlived the server's stop"
        assert proc.proc.wait(15) is not None
        stream.close()
    finally:
        made.close()
        proc.stop()


def test_the_openapi_schema_shows_the_bot_play_routes_and_their_refusals(
    server: ServerProcess,
) -> None:
    paths = httpx.get(f"{server.url}/openapi.json", timeout=20).json()["paths"]
    want = {
        ("get", "/api/bot/stream"): {"200", "401", "403", "429"},
        ("post", "/api/rooms/{room_id}/bots"): {"201", "403", "404", "409", "422"},
        ("post", "/api/bot/challenges"): {"201", "401", "403", "404", "409", "422", "429"},
        ("post", "/api/bot/challenges/{challenge_id}/accept"): {"200", "404", "429"},
        ("post", "/api/bot/challenges/{challenge_id}/decline"): {"204", "404"},
        ("delete", "/api/bot/challenges/{challenge_id}"): {"204", "404"},
    }
    for (method, path), statuses in want.items():
        assert statuses <= set(paths[path][method]["responses"]), (method, path)
    streamed = paths["/api/bot/stream"]["get"]["responses"]["200"]["content"]
    assert list(streamed) == ["application/x-ndjson"]
    seated = paths["/api/rooms/{room_id}/bots"]["post"]["responses"]["201"]
    assert seated["content"]["application/json"]["schema"]["$ref"].endswith("/BotSeated")
