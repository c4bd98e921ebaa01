"""Tournaments through a real server (issue 49), on SQLite and PostgreSQL: a duplicate
event and a Swiss event from registration to the final standings, played by signed-in
people in their tables' rooms; each board's matchpoints checked against a calculation
written here from the stored results, and a board sealed until every table played it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import run_async

from .club_people import club_server, refused
from .harness import ServerProcess, sql
from .tournament_play import Entrant, entrants, new_event, next_tables, play_table

ENV = {"REGISTER_PER_HOUR": "0", "MAX_ROOMS_PER_IP": "0"}
ONE_PACK = {"single_pack": True}
"""Two a table with one pack (V2): half the plays of two packs, the same rules of play."""


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    yield from club_server(ENV, request.param, tmp_path_factory.mktemp("tournaments"))


@pytest.fixture
def people(server: ServerProcess) -> Iterator[list[Entrant]]:
    yield from entrants(server)


def my_room(person: Entrant, tid: str) -> str | None:
    return person.event(tid)["you"]["room_id"]


def play_out(server: ServerProcess, people: list[Entrant], tid: str) -> dict[str, Any]:
    """Play every table the event gives its people until it is finished."""
    played: set[str] = set()
    for turn in range(40):
        rooms = next_tables(people, tid, played)
        if not rooms:
            return people[0].event(tid)
        run_async(play_tables(server, rooms, turn))
        played.update(rooms)
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
    tid = new_event(ann, format="duplicate", boards=2, players=2, rules=ONE_PACK)
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
    tid = new_event(
        ann, format="swiss", rounds=2, players=2, rules={"match_deals": 1, **ONE_PACK}, rated=True
    )
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
