"""What an abuser tries against the bot stream, seating bots and challenges (issue
51), on a server that keeps bot accounts out of public rooms by themselves
(OUTSIDE_BOTS_IN_PUBLIC_ROOMS=false).  Every refusal is ``{"code", "message"}`` and
changes nothing: the room's summary is the same after it."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import fresh_database

from .bot_streams import StreamReader
from .harness import ServerProcess, create_room, join
from .token_people import TOKEN_LIMITS, People, Program, people_of

ENV = {**TOKEN_LIMITS, "OUTSIDE_BOTS_IN_PUBLIC_ROOMS": "false"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("bot_stream_hostile")
    with fresh_database("sqlite", folder) as url:
        proc = ServerProcess(url, log_path=folder / "server.log", env=ENV).start()
        try:
            yield proc
        finally:
            proc.stop_soon()


@pytest.fixture
def people(server: ServerProcess) -> Iterator[People]:
    yield from people_of(server)


@pytest.fixture
def streams() -> Iterator[list[StreamReader]]:
    opened: list[StreamReader] = []
    yield opened
    for each in opened:
        each.close()


def online(people: People, streams: list[StreamReader], name: str) -> tuple[Program, str]:
    _, program = people.bot(name)
    stream = StreamReader(people.server, program.token)
    streams.append(stream)
    assert stream.status == 200, stream.body
    return program, program.get("/api/me").json()["username"]


def summary(server: ServerProcess, room_id: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/rooms/{room_id}", timeout=10)
    assert r.status_code == 200, r.text
    return dict(r.json())


def seat(server: ServerProcess, room_id: str, name: str, token: str) -> httpx.Response:
    body = {"name": name, "token": token}
    return httpx.post(f"{server.url}/api/rooms/{room_id}/bots", json=body, timeout=10)


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["message"], r.text


def test_seating_a_bot_is_refused_without_a_seat_of_the_room_or_an_online_bot(
    server: ServerProcess, people: People, streams: list[StreamReader]
) -> None:
    _, bot = online(people, streams, "Target")
    room = create_room(server.url, 3, rules={"match_deals": 1})
    other = create_room(server.url, 2)
    rid = room["room_id"]
    before = summary(server, rid)
    refused(seat(server, rid, bot, other["token"]), 403, "unauthorized")  # another room's
    refused(seat(server, rid, bot, "x" * 43), 403, "unauthorized")
    refused(seat(server, rid, bot, ""), 422, "bad_request")
    person = people.person("Human")
    person_name = person.http.get("/api/me").json()["username"]
    refused(seat(server, rid, person_name, room["token"]), 404, "bot_not_found")
    refused(seat(server, rid, "nobody_at_all", room["token"]), 404, "bot_not_found")
    refused(seat(server, rid, "x" * 41, room["token"]), 422, "bad_request")
    _, offline = people.bot("Sleeper")
    sleeper = offline.get("/api/me").json()["username"]
    refused(seat(server, rid, sleeper, room["token"]), 409, "bot_offline")
    refused(seat(server, "0" * 32, bot, room["token"]), 404, "not_found")
    assert summary(server, rid) == before


def test_seating_a_bot_in_a_full_or_started_room_is_refused(
    server: ServerProcess, people: People, streams: list[StreamReader]
) -> None:
    _, bot = online(people, streams, "Late")
    room = create_room(server.url, 2, rules={"match_deals": 1})
    rid = room["room_id"]
    join(server.url, rid, "Bo")
    before = summary(server, rid)
    assert before["status"] == "playing"
    refused(seat(server, rid, bot, room["token"]), 409, "room_full")
    assert summary(server, rid) == before


def test_a_bot_cannot_take_a_public_rooms_seat_by_itself_here_but_may_be_seated(
    server: ServerProcess, people: People, streams: list[StreamReader]
) -> None:
    program, bot = online(people, streams, "Public")
    room = create_room(server.url, 3, public=True, rules={"match_deals": 1})
    rid = room["room_id"]
    before = summary(server, rid)
    refused(program.post(f"/api/rooms/{rid}/seats", {"name": bot}), 403, "bots_not_allowed")
    assert summary(server, rid) == before
    r = seat(server, rid, bot, room["token"])
    assert r.status_code == 201, r.text
    private = create_room(server.url, 2)
    r = program.post(f"/api/rooms/{private['room_id']}/seats", {"name": bot})
    assert r.status_code == 201, r.text


def test_the_stream_is_for_a_bot_accounts_play_token_two_at_a_time(
    server: ServerProcess, people: People, streams: list[StreamReader]
) -> None:
    owner = people.person("Reader", bot=True)
    reader = StreamReader(server, owner.token("read")["token"])
    streams.append(reader)
    assert (reader.status, reader.body["code"]) == (403, "insufficient_scope")
    person = people.person("Plain")
    plain = StreamReader(server, person.token("read")["token"])
    streams.append(plain)
    assert (plain.status, plain.body["code"]) == (403, "insufficient_scope")
    r = httpx.get(f"{server.url}/api/bot/stream", timeout=10)
    refused(r, 401, "bad_token")
    token = owner.token("bot:play")["token"]
    for _ in range(2):
        streams.append(StreamReader(server, token))
        assert streams[-1].status == 200, streams[-1].body
    third = StreamReader(server, token)
    streams.append(third)
    assert (third.status, third.body["code"]) == (429, "too_many_streams")
    streams[-2].close()  # a stream closed frees its place (the server sees it go)
    fourth = StreamReader(server, token)
    streams.append(fourth)
    assert fourth.status in (200, 429)  # the place frees once the server saw the hang-up


def test_challenges_are_capped_and_answered_only_by_their_own_bots(
    server: ServerProcess, people: People, streams: list[StreamReader]
) -> None:
    maker, _ = online(people, streams, "Flood")
    opponents = [online(people, streams, f"Foe{i}") for i in range(6)]
    first_foe, first = opponents[0]
    made = maker.post("/api/bot/challenges", {"opponent": first, "players": 2})
    assert made.status_code == 201, made.text
    cid = made.json()["id"]
    refused(
        maker.post("/api/bot/challenges", {"opponent": first, "players": 2}),
        429,
        "too_many_challenges",
    )
    for _, name in opponents[1:5]:
        r = maker.post("/api/bot/challenges", {"opponent": name, "players": 2})
        assert r.status_code == 201, r.text
    refused(
        maker.post("/api/bot/challenges", {"opponent": opponents[5][1], "players": 2}),
        429,
        "too_many_challenges",
    )
    other_foe, _ = opponents[1]
    refused(other_foe.post(f"/api/bot/challenges/{cid}/accept"), 404, "challenge_not_found")
    refused(maker.post(f"/api/bot/challenges/{cid}/accept"), 404, "challenge_not_found")
    refused(first_foe.delete(f"/api/bot/challenges/{cid}"), 404, "challenge_not_found")
    refused(maker.post("/api/bot/challenges/zz/accept"), 422, "bad_request")
    me = maker.get("/api/me").json()["username"]
    for body, code in [
        ({"opponent": me, "players": 2}, "bad_challenge"),
        ({"opponent": opponents[5][1], "players": 2, "bots": 1}, "bad_challenge"),
        ({"opponent": opponents[5][1], "players": 7}, "bad_request"),
        ({"opponent": opponents[5][1], "players": 2, "extra": 1}, "bad_request"),
        ({"opponent": opponents[5][1], "players": 2, "rules": {"nonsense": 1}}, "bad_request"),
    ]:
        refused(maker.post("/api/bot/challenges", body), 422, code)
    person = people.person("Nobot")
    reader = people.program(person.token("read")["token"])
    refused(reader.post("/api/bot/challenges", {"opponent": first, "players": 2}),
            403, "insufficient_scope")  # fmt: skip
    assert first_foe.post(f"/api/bot/challenges/{cid}/accept").status_code == 200


@pytest.fixture
def guarded(tmp_path) -> Iterator[People]:  # type: ignore[no-untyped-def]
    """A server of its own (the limit is per address, and every test is 127.0.0.1)
    that takes two unknown tokens a minute from an address."""
    env = {**ENV, "BAD_TOKEN_PER_MINUTE": "2"}
    with fresh_database("sqlite", tmp_path) as url:
        proc = ServerProcess(url, log_path=tmp_path / "server.log", env=env).start()
        try:
            yield from people_of(proc)
        finally:
            proc.stop_soon()


def test_guessing_seat_tokens_to_seat_a_bot_is_throttled(
    guarded: People, streams: list[StreamReader]
) -> None:
    """Each guess at a seat token of the room counts against the address; past the
    limit every try is refused before any token is looked at, the room's own token
    too, and nothing changes in the room."""
    server = guarded.server
    _, bot = online(guarded, streams, "Guessed")
    room = create_room(server.url, 3)
    rid = room["room_id"]
    before = summary(server, rid)
    for _ in range(2):
        refused(seat(server, rid, bot, secrets.token_urlsafe(32)), 403, "unauthorized")
    refused(seat(server, rid, bot, secrets.token_urlsafe(32)), 429, "rate_limited")
    refused(seat(server, rid, bot, room["token"]), 429, "rate_limited")
    assert summary(server, rid) == before
    metrics = httpx.get(f"{server.url}/metrics", timeout=10).text
    assert 'krypkasino_rate_limited_total{kind="bad_token"} 2.0' in metrics, "both refusals counted"
