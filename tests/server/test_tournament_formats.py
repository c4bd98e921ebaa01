"""Tournaments' formats and sealing through a real server on SQLite (issue 49; the
store's steps on PostgreSQL too are tests/db/test_tournaments.py and the events of
tests/server/test_tournaments.py): a duplicate board sealed until every table has
played it, an arena seating whoever finishes until its organiser ends it, and a
correspondence event's rooms."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import run_async
from tests.waiting import wait_until

from .club_people import club_server, refused
from .harness import Client, ServerProcess
from .test_tournaments import ENV, ONE_PACK, my_room, play_tables
from .tournament_play import Entrant, entrants, new_event, next_tables, play_table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from club_server(ENV, "sqlite", tmp_path_factory.mktemp("tournament_formats"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[list[Entrant]]:
    yield from entrants(server)


def seated_by_room(people: list[Entrant], tid: str) -> dict[str, list[Entrant]]:
    rooms: dict[str, list[Entrant]] = {}
    for p in people:
        room = my_room(p, tid)
        assert room is not None, f"{p.name} has a table"
        rooms.setdefault(room, []).append(p)
    return rooms


async def watched(server: ServerProcess, room_id: str) -> dict[str, Any]:
    """What a spectator's hello (no seat, no account) is answered."""
    client = await Client(server.ws_url, room_id, None).connect()
    try:
        return await client.wait_for(lambda m: m["type"] in ("snapshot", "error"))
    finally:
        await client.close()


def test_a_board_stays_sealed_until_every_table_has_played_it(
    server: ServerProcess, people: list[Entrant]
) -> None:
    ann = people[0]
    tid = new_event(ann, format="duplicate", boards=2, players=2, rules=ONE_PACK)
    for p in people:
        assert p.enter(tid).status_code == 204
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    (first, first_people), (second, second_people) = seated_by_room(people, tid).items()
    run_async(play_table(server, first_people, first, 1))
    # the first table moves on to board 2 once its board 1 is counted
    mover = first_people[0]
    for _ in range(200):
        if my_room(mover, tid) not in (None, first):
            break
        run_async(asyncio.sleep(0.05))
    else:
        raise AssertionError("the first table was not given its next board")
    outsider = Entrant(server, f"eve_{secrets.token_hex(3)}")
    try:
        for reader in (*second_people, *first_people, outsider):
            for path in (
                f"/api/rooms/{first}/deals/1",
                f"/api/rooms/{first}/matches",
                f"/api/rooms/{first}/matches/1",
                f"/api/rooms/{first}/matches/1/deals/1",
                f"/api/rooms/{first}/matches/1/deals/1/analysis",
            ):
                refused(reader.http.get(path), 403, "board_sealed")
        for reader in (*second_people, outsider):
            refused(reader.http.get(f"/api/rooms/{first}"), 403, "board_sealed")
            refused(reader.http.get(f"/api/rooms/{first}/chat"), 403, "board_sealed")
        assert first_people[0].http.get(f"/api/rooms/{first}").status_code == 200, "its own"
        answer = run_async(watched(server, first))
        assert (answer["type"], answer.get("code")) == ("error", "board_sealed")
        event = outsider.event(tid)
        board1 = event["boards"][0]
        assert (board1["complete"], board1["seed"]) == (False, None)
        (done,) = [t for t in event["tables"] if t["room_id"] == first]
        assert done["done"] and all(s["total"] is None for s in done["seats"])
        assert all(s["played"] == 0 for s in event["standings"])
        csv = outsider.http.get(f"/api/tournaments/{tid}/results.csv").text
        assert csv.strip().splitlines()[-1] == "board,table,seat,username,total", csv

        run_async(play_table(server, second_people, second, 2))
        for _ in range(200):
            if outsider.event(tid)["boards"][0]["complete"]:
                break
            run_async(asyncio.sleep(0.05))
        board1 = outsider.event(tid)["boards"][0]
        assert hashlib.sha256(board1["seed"].encode()).hexdigest() == board1["seed_hash"]
        record = outsider.http.get(f"/api/rooms/{first}/deals/1")
        assert record.status_code == 200, record.text
        assert record.json()["seed"] == board1["seed"], "the board's own deal"
        assert run_async(watched(server, first))["type"] == "snapshot"
    finally:
        outsider.close()


def test_an_arena_seats_whoever_finishes_until_its_organiser_ends_it(
    server: ServerProcess, people: list[Entrant]
) -> None:
    ann = people[0]
    tid = new_event(
        ann, format="arena", minutes=60, players=2, rules={"match_deals": 1, **ONE_PACK}
    )
    for p in people[:3]:
        assert p.enter(tid).status_code == 204
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    started = ann.event(tid)
    assert started["ends_ms"] - started["started_ms"] == 60 * 60_000
    (first,) = started["tables"]
    assert sum(not s["bot"] for s in first["seats"]) == 2, "a whole table; the third waits"
    assert people[3].enter(tid).status_code == 204, "an arena takes latecomers"
    assert len(ann.event(tid)["tables"]) == 2, "two waiting: a table at once"
    first = next_tables(people, tid, set())
    run_async(play_tables(server, first, 1))
    wait_until(
        lambda: len(ann.event(tid)["tables"]) >= 4,
        60,
        message=lambda: f"both tables' people seated again: {ann.event(tid)['tables']}",
    )
    refused(people[1].post(f"/api/tournaments/{tid}/end"), 403, "tournament_forbidden")
    assert ann.post(f"/api/tournaments/{tid}/end").status_code == 204
    seated = len(ann.event(tid)["tables"])
    run_async(play_tables(server, next_tables(people, tid, set(first)), 2))
    wait_until(lambda: ann.event(tid)["state"] == "finished", 60, message="the arena ends")
    final = ann.event(tid)
    assert len(final["tables"]) == seated, "no table seated after the end"
    points = {s["username"]: s["score"] for s in final["standings"]}
    assert sum(points.values()) == len(final["tables"]) * 1.0, "one point per table of two"


def test_a_correspondence_event_seats_its_tables_in_correspondence_rooms(
    server: ServerProcess, people: list[Entrant]
) -> None:
    ann = people[0]
    tid = new_event(
        ann, format="swiss", pace="correspondence", days_per_move=2, turn_clock=None, players=2
    )
    for p in people[:2]:
        assert p.enter(tid).status_code == 204
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    (table,) = ann.event(tid)["tables"]
    summary = ann.http.get(f"/api/rooms/{table['room_id']}").json()
    options = summary["options"]
    assert (options["pace"], options["days_per_move"]) == ("correspondence", 2)
    assert (options["hints"], options["takeback"]) == (False, "off"), "tournament play is unaided"


def test_an_event_given_a_start_time_starts_by_itself(
    server: ServerProcess, people: list[Entrant]
) -> None:
    """The server's loop starts an event whose time has come (with two entrants or
    more; one with fewer is cancelled then)."""
    ann, bob = people[0], people[1]
    soon = int(time.time() * 1000) + 1500
    tid = new_event(ann, format="swiss", starts_ms=soon, name="Timed cup")
    lonely = new_event(ann, format="swiss", starts_ms=soon, name="Lonely cup")
    for p in (ann, bob):
        assert p.enter(tid).status_code == 204
    assert ann.enter(lonely).status_code == 204
    wait_until(lambda: ann.event(tid)["state"] == "running", 60, message="started on time")
    started = ann.event(tid)
    assert started["started_ms"] >= soon and len(started["tables"]) == 1
    wait_until(lambda: ann.event(lonely)["state"] == "cancelled", 60, message="cancelled")
