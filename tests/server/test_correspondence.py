"""Correspondence rooms on real server processes (issue 32), on SQLite and PostgreSQL:
a deadline fires once and only once with two processes running and with one killed
while it held a claim; a deadline that fell due while every process was down fires
after the restart; bots move and absent players' clocks run out with nobody
connected; a player takes their seat back from the bot by coming back; the create
body and the ``vacation`` message refuse what they must, changing nothing.

A "day" is DAY_SECONDS (a second here), so a move falls due in a second or two.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests import fetch
from tests.conftest import require_service, run_async
from tests.server.test_multiprocess import REDIS_URL, _redis_available
from tests.waiting import wait_until

from .harness import Client, ServerProcess, create_room, join, sql
from .process import metric

DAY = {"DAY_SECONDS": "1", "DEADLINE_POLL_SECONDS": "0.5"}
SINGLE = {"single_pack": True, "match_deals": 1}


def corr_room(base: str, players: int = 2, bots: int = 0, days: int = 1) -> dict[str, Any]:
    rules = SINGLE if players == 2 else {"match_deals": 1}
    return create_room(
        base, players, bots=bots, rules=rules, pace="correspondence", days_per_move=days
    )


def server_moves(url: str, room_ids: list[str], kind: str = "%") -> int:
    ids = ",".join(f"'{r}'" for r in room_ids)
    return int(
        sql(
            url,
            f"SELECT count(*) FROM events WHERE room_id IN ({ids}) "
            f"AND client_id LIKE 'srv:{kind}:%'",
        )[0][0]
    )


def finished(url: str, room_ids: list[str]) -> bool:
    ids = ",".join(f"'{r}'" for r in room_ids)
    rows = sql(url, f"SELECT count(*) FROM rooms WHERE id IN ({ids}) AND status = 'finished'")
    return int(rows[0][0]) == len(room_ids)


def claimed(server: ServerProcess) -> float:
    return metric(server, "krypkasino_deadlines_claimed_total", kind="move")


def released(server: ServerProcess) -> float:
    return metric(server, "krypkasino_deadlines_released_total")


def skipped(server: ServerProcess) -> float:
    return metric(server, "krypkasino_deadlines_skipped_total")


def test_create_body_and_vacation_refusals_change_nothing(server: ServerProcess) -> None:
    url = server.database_url
    rooms_before = sql(url, "SELECT count(*) FROM rooms")[0][0]
    for bad in (
        {"days_per_move": 3},  # live, with days per move
        {"pace": "correspondence", "turn_clock": 30},
        {"pace": "correspondence", "time_bank": 60},
        {"pace": "correspondence", "days_per_move": 4},
        {"pace": "weekly"},
    ):
        body = {"players": 2, "name": "Ann", **bad}
        r = fetch.post(server.url + "/api/rooms", json=body, timeout=10)
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["code"] == "bad_request"
    assert sql(url, "SELECT count(*) FROM rooms")[0][0] == rooms_before

    async def check() -> None:
        live = create_room(server.url, 2, bots=1)
        made = create_room(server.url, 2, pace="correspondence")
        rid = made["room_id"]
        bo = join(server.url, rid, "Bo")
        ann = await Client(server.ws_url, rid, made["token"]).connect()
        watcher = await Client(server.ws_url, rid, None).connect()
        in_live = await Client(server.ws_url, live["room_id"], live["token"]).connect()
        try:
            for c in (ann, watcher, in_live):
                await c.wait_for(lambda m: m["type"] == "snapshot")
            assert ann.view is not None and in_live.view is not None
            assert ann.view["options"]["pace"] == "correspondence"
            assert ann.view["options"]["days_per_move"] == 3
            assert ann.view["options"]["deal_pause"] == 0
            assert in_live.view["options"]["pace"] == "live"
            assert in_live.view["vacation"] is None
            seq = ann.seq
            await watcher.ws.send('{"type": "vacation", "on": true}')
            await watcher.wait_for(lambda m: m["type"] == "error")
            await in_live.ws.send('{"type": "vacation", "on": true}')
            await in_live.wait_for(lambda m: m["type"] == "error")
            await ann.ws.send('{"type": "vacation", "on": "maybe"}')
            await ann.wait_for(lambda m: m["type"] == "error")
            assert [e["code"] for e in watcher.errors + in_live.errors + ann.errors] == [
                "unauthorized",
                "not_correspondence",
                "bad_message",
            ]
            await ann.drain(0.3)
            assert ann.seq == seq  # nothing changed
            # a vacation on: the view says since when; a mover's deadline moves out
            mover = ann.view["to_move"]
            deadline = ann.view["clock"]["deadline"]
            await ann.ws.send('{"type": "vacation", "on": true}')
            await ann.wait_seq(seq + 1)
            assert ann.view["vacation"][0]["since"] is not None
            if mover == 0:
                assert ann.view["clock"]["deadline"] > deadline
            assert bo["seat"] == 1
        finally:
            for c in (ann, watcher, in_live):
                await c.close()

    run_async(check())


def test_bots_move_and_clocks_run_out_with_nobody_connected_and_the_seat_comes_back(
    database_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(database_url, env=DAY, log_path=tmp_path / "s.log").start()
    try:
        made = corr_room(server.url, 3, bots=2)
        rid = made["room_id"]
        # Ann never connects: her clock runs out three times, bots play in between
        wait_until(
            lambda: (
                sql(
                    database_url,
                    f"SELECT count(*) FROM events WHERE room_id = '{rid}' AND kind = 'autoplay'",
                )[0][0]
                == 1
            ),
            30,
            message="Ann's seat handed to a bot after three clock moves",
        )
        assert server_moves(database_url, [rid], "clock") == 3
        assert server_moves(database_url, [rid], "bot") >= 4

        async def back() -> None:
            ann = await Client(server.ws_url, rid, made["token"]).connect()
            try:
                await ann.wait_for(lambda m: m["type"] == "snapshot")
                await ann.wait_until(
                    lambda: ann.view is not None and not ann.view["seats"][0]["autoplay"]
                )
                assert ann.view is not None
                assert ann.view["seats"][0]["played_for"]  # what was played for her
            finally:
                await ann.close()

        run_async(back())
    finally:
        server.stop()


def test_a_deadline_due_while_every_process_was_down_fires_after_the_restart(
    database_url: str, tmp_path: Path
) -> None:
    env = {"DAY_SECONDS": "2", "DEADLINE_POLL_SECONDS": "0.5"}
    server = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    made = corr_room(server.url)
    rid = made["room_id"]
    join(server.url, rid, "Bo")
    server.stop()
    due = sql(
        database_url, f"SELECT due_ms FROM room_deadlines WHERE room_id = '{rid}' AND kind = 'move'"
    )[0][0]
    wait_until(lambda: time.time() * 1000 > due + 500, 10, message="the deadline to pass")
    assert server_moves(database_url, [rid]) == 0  # nobody was up to fire it
    again = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        wait_until(
            lambda: server_moves(database_url, [rid], "clock") >= 1,
            20,
            message="the clock move after the restart",
        )
        first = sql(
            database_url,
            f"SELECT client_id FROM events WHERE room_id = '{rid}' "
            "AND client_id LIKE 'srv:%' ORDER BY seq",
        )[0][0]
        assert first.startswith("srv:clock:")
    finally:
        again.stop()


def test_two_processes_fire_each_deadline_once_also_when_one_dies_holding_a_claim(
    database_url: str, tmp_path: Path
) -> None:
    require_service(_redis_available(), "Redis at " + REDIS_URL)
    # claims last 10 s: on a loaded machine a 2 s claim could run out while its move
    # is being made, and the row be claimed again (its move is still made once, by its
    # id, but this test counts claims); A's dead claim below is set by hand
    env = {**DAY, "REDIS_URL": REDIS_URL, "LEASE_SECONDS": "10"}
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        rooms = []
        for n in range(3):
            made = corr_room(a.url)
            join(b.url, made["room_id"], f"Bo{n}")
            rooms.append(made["room_id"])
        # both run until every room is played out by clocks and then bots
        wait_until(lambda: finished(database_url, rooms), 60, message="every room finished")
        made_moves = server_moves(database_url, rooms)
        assert server_moves(database_url, rooms, "clock") == 3 * 2 * len(rooms)
        # every claim of a move row made one move, but for those given back unfired
        # (a move the busy database refused, claimed again later) and those that found
        # the room moved on (a claim that ran out on a loaded machine, taken again: a
        # run once counted 145 claims for 144 moves): no row fired twice
        spent = released(a) + released(b) + skipped(a) + skipped(b)
        assert claimed(a) + claimed(b) - spent == made_moves
        assert sql(database_url, "SELECT count(*) FROM room_deadlines")[0][0] == 0

        # A dies holding a claim (its row claimed as A's until two seconds from now):
        # B leaves the row alone until the claim runs out, then fires it, once
        late = corr_room(a.url)
        rid = late["room_id"]
        join(a.url, rid, "Cy")
        a.kill9()
        until = int(time.time() * 1000) + 2000
        sql(
            database_url,
            "UPDATE room_deadlines SET claim_owner = 'dead-process', claim_until = :until "
            "WHERE room_id = :room AND kind = 'move'",
            until=until,
            room=rid,
        )
        before = claimed(b) - released(b) - skipped(b)
        wait_until(
            lambda: server_moves(database_url, [rid], "clock") >= 1, 30, message="B fires it"
        )
        at = sql(
            database_url,
            f"SELECT at_ms FROM events WHERE room_id = '{rid}' "
            "AND client_id LIKE 'srv:clock:%' ORDER BY seq",
        )[0][0]
        assert at >= until
        wait_until(lambda: finished(database_url, [rid]), 60, message="the room finished")
        assert claimed(b) - released(b) - skipped(b) - before == server_moves(database_url, [rid])
    finally:
        for s in (a, b):
            s.stop()
