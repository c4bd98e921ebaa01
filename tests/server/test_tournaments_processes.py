"""A tournament survives a killed process (issue 49), through real server processes on
PostgreSQL: a Swiss event's first round ends in a process that stores the tables'
results with the last plays and is killed (kill -9) before handing them on; a second
process started afterwards counts every table once, seats the next round once and
runs the event to its end; a third started beside it (both ticking, both handing on
events) doubles nothing.  The standings are then recomputed here from the stored
results."""

from __future__ import annotations

import secrets
from pathlib import Path

from tests.conftest import fresh_database, run_async
from tests.waiting import wait_until

from .harness import ServerProcess, sql
from .tournament_play import Entrant, new_event, play_table

ENV = {"REGISTER_PER_HOUR": "0", "MAX_ROOMS_PER_IP": "0", "OUTBOX_POLL_SECONDS": "0.2"}


def rooms_of(people: list[Entrant], tid: str, stage: int) -> dict[str, list[Entrant]]:
    event = people[0].event(tid)
    names = {p.name: p for p in people}
    return {
        t["room_id"]: [names[s["username"]] for s in t["seats"] if s["username"] in names]
        for t in event["tables"]
        if t["stage"] == stage and t["room_id"] is not None
    }


def on(people: list[Entrant], server: ServerProcess) -> None:
    for p in people:
        p.http.base_url = server.url  # the same database: their sessions hold


def tables(url: str, tid: str) -> list[tuple[int, int, bool]]:
    rows = sql(
        url,
        "SELECT stage, table_no, done_ms IS NOT NULL FROM tournament_tables "
        "WHERE tournament_id = :t ORDER BY stage, table_no",
        t=tid,
    )
    return [(int(s), int(n), bool(d)) for s, n, d in rows]


def test_a_round_change_survives_a_killed_process(tmp_path: Path) -> None:
    with fresh_database("postgres", tmp_path) as url:
        a = ServerProcess(
            url, env={**ENV, "OUTBOX_DISPATCH": "false"}, log_path=tmp_path / "a.log"
        ).start()
        people = [Entrant(a, f"k{i}_{secrets.token_hex(3)}") for i in range(4)]
        try:
            tid = new_event(people[0], format="swiss", rounds=2, rules={"match_deals": 1})
            for p in people:
                assert p.enter(tid).status_code == 204
            assert people[0].post(f"/api/tournaments/{tid}/start").status_code == 204
            first = rooms_of(people, tid, 1)
            assert len(first) == 2
            for n, (room, seated) in enumerate(first.items()):
                run_async(play_table(a, seated, room, n))
            # both matches ended and were stored, with their events; nobody counted them
            assert tables(url, tid) == [(1, 1, False), (1, 2, False)]
        finally:
            a.kill9()
        b = ServerProcess(url, env=ENV, log_path=tmp_path / "b.log").start()
        c = None
        try:
            wait_until(
                lambda: len(tables(url, tid)) == 4,
                60,
                message=lambda: f"round 2 seated after the kill: {tables(url, tid)}",
            )
            c = ServerProcess(url, env=ENV, log_path=tmp_path / "c.log").start()
            on(people, b)
            wait_until(lambda: len(rooms_of(people, tid, 2)) == 2, 60, message="round 2's rooms")
            second = rooms_of(people, tid, 2)
            for n, (room, seated) in enumerate(second.items()):
                run_async(play_table(c if n else b, seated, room, 10 + n))
            wait_until(
                lambda: people[0].event(tid)["state"] == "finished",
                60,
                message=lambda: f"the event finished: {tables(url, tid)}",
            )
            shown = {s["username"]: s["score"] for s in people[0].event(tid)["standings"]}
        finally:
            b.stop()
            if c is not None:
                c.stop()
            for p in people:
                p.close()
        assert tables(url, tid) == [(1, 1, True), (1, 2, True), (2, 1, True), (2, 2, True)]
        counted = sql(
            url,
            "SELECT stage, table_no, seat, count(*) FROM tournament_results "
            "WHERE tournament_id = :t GROUP BY stage, table_no, seat",
            t=tid,
        )
        assert len(counted) == 8 and all(n == 1 for *_, n in counted), counted
        rooms = sql(url, "SELECT count(DISTINCT room_id) FROM tournament_tables")
        assert rooms == [(4,)], "one room per table"
        assert shown == table_points(url, tid)


def table_points(url: str, tid: str) -> dict[str, float]:
    """Each entrant's points: at each table, one for every other seat with a higher
    total, a half for each equal one."""
    rows = sql(
        url,
        "SELECT r.stage, r.table_no, e.username, r.total FROM tournament_results r "
        "JOIN tournament_entries e ON e.tournament_id = r.tournament_id "
        "AND e.account_id = r.account_id WHERE r.tournament_id = :t",
        t=tid,
    )
    points: dict[str, float] = {}
    for stage, table, name, total in rows:
        for s2, t2, other_name, other in rows:
            if (s2, t2) == (stage, table) and other_name != name:
                won = 1.0 if other > total else 0.5 if other == total else 0.0
                points[name] = points.get(name, 0.0) + won
    return points
