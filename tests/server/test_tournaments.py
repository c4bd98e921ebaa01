"""Tournaments through a real server (issue 49), on SQLite and PostgreSQL: a duplicate
event and a Swiss event from registration to the final standings, played by signed-in
people in their tables' rooms; each board's matchpoints checked against a calculation
written here from the stored results, and a board sealed until every table played it."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import run_async
from tests.waiting import wait_until

from .club_people import club_server, refused
from .harness import Client, ServerProcess, sql
from .tournament_play import Entrant, new_event, play_table

ENV = {"REGISTER_PER_HOUR": "0", "MAX_ROOMS_PER_IP": "0"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from club_server(ENV, request.param, tmp_path_factory.mktemp("tournaments"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[list[Entrant]]:
    made = [Entrant(server, f"p{i}_{secrets.token_hex(3)}") for i in range(4)]
    try:
        yield made
    finally:
        for p in made:
            p.close()


def my_room(person: Entrant, tid: str) -> str | None:
    return person.event(tid)["you"]["room_id"]


def play_out(server: ServerProcess, people: list[Entrant], tid: str) -> dict[str, Any]:
    """Play every table the event gives its people until it is finished."""
    for turn in range(40):
        event = people[0].event(tid)
        if event["state"] == "finished":
            return event
        rooms: dict[str, list[Entrant]] = {}
        for p in people:
            room = my_room(p, tid)
            if room is not None:
                rooms.setdefault(room, []).append(p)
        assert rooms or turn < 39, f"nobody has a table, yet the event runs: {event}"
        run_async(play_tables(server, rooms, turn))
    raise AssertionError("the event did not finish")


async def play_tables(server: ServerProcess, rooms: dict[str, list[Entrant]], seed: int) -> None:
    """Every table at once, as the event's people would."""
    await asyncio.gather(
        *(play_table(server, seated, room, seed) for room, seated in rooms.items())
    )


def matchpoints(rows: list[tuple[int, int, int, str | None, int]]) -> dict[str, float]:
    """Each entrant's matchpoints over the boards, from (board, table, seat, account,
    total) rows: per board and seat, one point for each other holder of the seat's
    cards with a higher total, a half for each tie."""
    out: dict[str, float] = {}
    for board, table, seat, who, total in rows:
        if who is None:
            continue
        mine = 0.0
        for b, t2, s, _a, other in rows:
            if (b, s) != (board, seat) or t2 == table:
                continue
            mine += 1.0 if other > total else 0.5 if other == total else 0.0
        out[who] = out.get(who, 0.0) + mine
    return out


def test_a_duplicate_event_is_played_to_its_standings(
    server: ServerProcess, people: list[Entrant]
) -> None:
    ann = people[0]
    tid = new_event(ann, format="duplicate", boards=2, players=2)
    for p in people:
        assert p.enter(tid).status_code == 204
    refused(people[1].post(f"/api/tournaments/{tid}/start"), 403, "tournament_forbidden")
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    started = ann.event(tid)
    assert started["state"] == "running"
    assert [b["seed"] for b in started["boards"]] == [None, None], "seeds sealed"
    final = play_out(server, people, tid)
    assert [b["complete"] for b in final["boards"]] == [True, True]
    rows = sql(
        server.database_url,
        "SELECT stage, table_no, seat, account_id, total FROM tournament_results "
        "WHERE tournament_id = :t ORDER BY stage, table_no, seat",
        t=tid,
    )
    assert len(rows) == 2 * 2 * 2, "2 boards x 2 tables x 2 seats, each once"
    ids = dict(
        sql(
            server.database_url,
            "SELECT username, account_id FROM tournament_entries WHERE tournament_id = :t",
            t=tid,
        )
    )
    expected = matchpoints([tuple(r) for r in rows])  # type: ignore[misc]
    shown = {s["username"]: s["score"] for s in final["standings"]}
    assert {ids[u]: v for u, v in shown.items()} == expected
    for p in people:  # each profile keeps the event with the place in it
        profile = p.http.get(f"/api/profiles/{p.name}").json()
        (kept,) = [e for e in profile["events"] if e["id"] == tid]
        (row,) = [s for s in final["standings"] if s["username"] == p.name]
        assert (kept["state"], kept["place"]) == ("finished", row["place"])


def test_a_swiss_event_is_played_round_by_round(
    server: ServerProcess, people: list[Entrant]
) -> None:
    ann = people[0]
    tid = new_event(ann, format="swiss", rounds=2, players=2, rules={"match_deals": 1}, rated=True)
    for p in people:
        assert p.enter(tid).status_code == 204
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    final = play_out(server, people, tid)
    tables = final["tables"]
    assert sorted({t["stage"] for t in tables}) == [1, 2]
    assert len(tables) == 4
    pairs = [frozenset(s["username"] for s in t["seats"]) for t in tables]
    assert len(set(pairs)) == 4, "nobody meets the same opponent twice where avoidable"
    points = {s["username"]: s["score"] for s in final["standings"]}
    assert sum(points.values()) == 4 * 1.0, "each table of two gives out one point"
    rooms = [t["room_id"] for t in tables]
    rated = sql(
        server.database_url,
        "SELECT room_id, void FROM rated_matches WHERE room_id IN "
        f"({', '.join(repr(r) for r in rooms)})",
    )
    assert sorted(r for r, void in rated if not void) == sorted(rooms), "each table rated"


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
    tid = new_event(ann, format="duplicate", boards=2, players=2)
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
    tid = new_event(ann, format="arena", minutes=60, players=2, rules={"match_deals": 1})
    for p in people[:3]:
        assert p.enter(tid).status_code == 204
    assert ann.post(f"/api/tournaments/{tid}/start").status_code == 204
    started = ann.event(tid)
    assert started["ends_ms"] - started["started_ms"] == 60 * 60_000
    (first,) = started["tables"]
    assert sum(not s["bot"] for s in first["seats"]) == 2, "a whole table; the third waits"
    assert people[3].enter(tid).status_code == 204, "an arena takes latecomers"
    assert len(ann.event(tid)["tables"]) == 2, "two waiting: a table at once"
    run_async(play_tables(server, tables_in_play(people, tid), 1))
    wait_until(
        lambda: len(ann.event(tid)["tables"]) >= 4,
        60,
        message=lambda: f"both tables' people seated again: {ann.event(tid)['tables']}",
    )
    refused(people[1].post(f"/api/tournaments/{tid}/end"), 403, "tournament_forbidden")
    assert ann.post(f"/api/tournaments/{tid}/end").status_code == 204
    seated = len(ann.event(tid)["tables"])
    run_async(play_tables(server, tables_in_play(people, tid), 2))
    wait_until(lambda: ann.event(tid)["state"] == "finished", 60, message="the arena ends")
    final = ann.event(tid)
    assert len(final["tables"]) == seated, "no table seated after the end"
    points = {s["username"]: s["score"] for s in final["standings"]}
    assert sum(points.values()) == len(final["tables"]) * 1.0, "one point per table of two"


def tables_in_play(people: list[Entrant], tid: str) -> dict[str, list[Entrant]]:
    """The rooms of the tables in play, with their people."""
    rooms: dict[str, list[Entrant]] = {}
    for p in people:
        room = my_room(p, tid)
        if room is not None:
            rooms.setdefault(room, []).append(p)
    return rooms


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
