"""An outside bot's seat is marked as one (issue 51), through a real server on SQLite and
PostgreSQL: a seat a bot account takes with its token (making a room, or joining one),
that a room's player gives it by name, or that a challenge gives it says
``outside_bot: true`` in the room summary and in every other player's view, from the
moment it is taken, and in the stored seat event; a person's seat never does, whatever
their request says.  Every view is checked against the protocol schema the server
serves (the harness's ``Client``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import run_async

from .bot_streams import StreamReader
from .harness import Client, ServerProcess, create_room, join, settle_turn, sql
from .token_people import People, Program, bearer, people_of, token_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from token_server(request.param, tmp_path_factory.mktemp("outside_bot_seats"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[People]:
    yield from people_of(server)


def summary_marks(server: ServerProcess, room_id: str) -> list[bool]:
    r = httpx.get(f"{server.url}/api/rooms/{room_id}", timeout=10)
    assert r.status_code == 200, r.text
    return [s["outside_bot"] for s in r.json()["seats"]]


def stored_marks(server: ServerProcess, room_id: str) -> dict[int, bool]:
    """Each seat event's stored mark (what a restarted server replays)."""
    rows = sql(
        server.database_url,
        "SELECT seat, data FROM events WHERE room_id = :r AND kind = 'seat' ORDER BY seq",
        r=room_id,
    )
    marks = {}
    for seat, data in rows:
        stored = data if isinstance(data, dict) else json.loads(data)
        marks[int(seat)] = stored.get("outside_bot", False)
    return marks


def view_marks(server: ServerProcess, room_id: str, token: str, seated: int) -> list[bool]:
    """The marks a player's view shows once ``seated`` seats are taken."""

    async def look() -> list[bool]:
        client = await Client(server.ws_url, room_id, token).connect()
        try:
            await client.wait_until(
                lambda: (
                    client.view is not None
                    and sum(s["name"] is not None for s in client.view["seats"]) >= seated
                )
            )
            assert client.view is not None and not client.errors
            return [s["outside_bot"] for s in client.view["seats"]]
        finally:
            await client.close()

    return run_async(look())


def bot_program(people: People, name: str) -> tuple[Program, str]:
    _, program = people.bot(name, "bot:play")
    me = program.get("/api/me")
    assert me.status_code == 200, me.text
    return program, me.json()["username"]


def test_a_bot_account_joining_with_its_token_is_marked_and_a_person_is_not(
    server: ServerProcess, people: People
) -> None:
    room = create_room(server.url, 3, rules={"match_deals": 1})
    rid = room["room_id"]
    assert summary_marks(server, rid) == [False, False, False]
    program, name = bot_program(people, "Joiner")
    r = program.post(f"/api/rooms/{rid}/seats", {"name": name})
    assert r.status_code == 201, r.text
    assert r.json()["seat"] == 1
    assert summary_marks(server, rid) == [False, True, False], "marked from the moment it sits"
    assert view_marks(server, rid, room["token"], 2) == [False, True, False]
    # a person signed in (a cookie) and a guest: never marked
    person = people.person("Human")
    r = person.post(f"/api/rooms/{rid}/seats", {"name": "Human"})
    assert r.status_code == 201, r.text
    assert summary_marks(server, rid) == [False, True, False]
    assert view_marks(server, rid, room["token"], 3) == [False, True, False]
    assert stored_marks(server, rid) == {0: False, 1: True, 2: False}


def test_a_room_a_bot_account_makes_marks_its_makers_seat(
    server: ServerProcess, people: People
) -> None:
    program, name = bot_program(people, "Maker")
    r = program.post("/api/rooms", {"players": 3, "name": name, "bots": 1, "rules": {}})
    assert r.status_code == 201, r.text
    made = r.json()
    rid = made["room_id"]
    summary = httpx.get(f"{server.url}/api/rooms/{rid}", timeout=10).json()
    seats = [(s["name"], s["bot"], s["outside_bot"]) for s in summary["seats"]]
    assert seats == [(name, False, True), (None, False, False), ("Bot 1", True, False)]
    bo = join(server.url, rid, "Bo")
    assert view_marks(server, rid, bo["token"], 3) == [True, False, False]


def test_a_guest_cannot_mark_its_own_seat(server: ServerProcess) -> None:
    """The mark comes from the account, never from the request: a body that claims it
    is refused (the request models take no unknown key) and changes nothing."""
    room = create_room(server.url, 2)
    rid = room["room_id"]
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/seats",
        json={"name": "Sneaky", "outside_bot": False, "bot": True},
        timeout=10,
    )
    assert r.status_code == 422, r.text
    r = httpx.post(
        f"{server.url}/api/rooms",
        json={"players": 2, "name": "Sneaky", "outside_bot": True},
        timeout=10,
    )
    assert r.status_code == 422, r.text
    assert summary_marks(server, rid) == [False, False]


def test_a_bot_seated_by_name_and_bots_of_a_challenge_are_marked(
    server: ServerProcess, people: People
) -> None:
    named, named_name = bot_program(people, "Named")
    maker, maker_name = bot_program(people, "Chall")
    opponent, opp_name = bot_program(people, "Oppo")
    streams = [StreamReader(server, p.token) for p in (named, maker, opponent)]
    try:
        assert all(s.status == 200 for s in streams), [s.body for s in streams]
        room = create_room(server.url, 2, rules={"match_deals": 1})
        rid = room["room_id"]
        r = httpx.post(
            f"{server.url}/api/rooms/{rid}/bots",
            json={"name": named_name, "token": room["token"]},
            timeout=10,
        )
        assert r.status_code == 201, r.text
        assert summary_marks(server, rid) == [False, True]
        assert view_marks(server, rid, room["token"], 2) == [False, True]

        r = maker.post(
            "/api/bot/challenges",
            {"opponent": opp_name, "players": 3, "bots": 1, "rules": {"match_deals": 1}},
        )
        assert r.status_code == 201, r.text
        r = opponent.post(f"/api/bot/challenges/{r.json()['id']}/accept")
        assert r.status_code == 200, r.text
        played = r.json()["room_id"]
        summary = httpx.get(f"{server.url}/api/rooms/{played}", timeout=10).json()
        by_name: dict[Any, tuple[bool, bool]] = {
            s["name"]: (s["bot"], s["outside_bot"]) for s in summary["seats"]
        }
        assert by_name == {
            maker_name: (False, True),
            opp_name: (False, True),
            "Bot 1": (True, False),
        }
        assert stored_marks(server, played)[0] is True
    finally:
        for s in streams:
            s.close()


def test_a_bot_accounts_seat_is_marked_in_the_lists_and_the_finished_deals_record(
    server: ServerProcess, people: People
) -> None:
    """Beyond the room's own views: the lobby's public list while it is played, and the
    history and the deal record once its one deal is over (read from the seats' linked
    accounts, app/db/seat_reads.py) mark the bot account's seat and no other."""
    named, named_name = bot_program(people, "Listed")
    room = create_room(server.url, 2, rules={"match_deals": 1}, public=True)
    rid = room["room_id"]
    taken = named.post(f"/api/rooms/{rid}/seats", {"name": named_name})
    assert taken.status_code == 201, taken.text
    listed = httpx.get(f"{server.url}/api/rooms/public?kind=live", timeout=10).json()["rooms"]
    (mine,) = [x for x in listed if x["room_id"] == rid]
    assert [(s["name"], s["outside_bot"]) for s in mine["seats"]] == [
        ("Ann", False),
        (named_name, True),
    ]

    async def play_out() -> None:
        person = await Client(server.ws_url, rid, room["token"]).connect()
        bot = await Client(server.ws_url, rid, taken.json()["token"], bearer(named.token)).connect()
        for client in (person, bot):
            await client.wait_for(lambda m: m["type"] == "snapshot")
        while True:
            view = await settle_turn([person, bot])
            if view["status"] == "finished":
                break
            mover = (person, bot)[view["to_move"]]
            move = mover.view["legal"][0]
            assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
        for client in (person, bot):
            await client.close()

    run_async(play_out())
    matches = httpx.get(f"{server.url}/api/rooms/{rid}/matches", timeout=10).json()
    assert [s["outside_bot"] for s in matches[0]["seats"]] == [False, True]
    record = httpx.get(f"{server.url}/api/rooms/{rid}/matches/1/deals/1", timeout=10).json()
    assert [(s["name"], s.get("outside_bot")) for s in record["seats"]] == [
        ("Ann", False),
        (named_name, True),
    ]
