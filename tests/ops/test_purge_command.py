"""``krypkasino purge`` next to a running server with a game in play: it removes
exactly the rooms it lists, with all their rows, and nothing else; what stays is
still playable through the server, and a removed room answers 410 "purged"."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests import fetch
from tests.conftest import run_async
from tests.server.harness import (
    Client,
    ServerProcess,
    backdate,
    create_room,
    finished_room,
    fresh_snapshot,
    join,
    krypkasino,
    krypkasino_beside,
    play_random,
    sql,
    two_players,
)
from tests.waiting import wait_until_async

TABLES = ("seats", "events", "deals", "matches")


@pytest.fixture
def server(database_url: str, tmp_path) -> Any:  # type: ignore[no-untyped-def]
    # Rooms nobody uses leave memory after a second (at the next 10 s heartbeat), as
    # rooms finished long ago have in a real server.
    proc = ServerProcess(
        database_url, env={"ROOM_IDLE_SECONDS": "1"}, log_path=tmp_path / "server.log"
    ).start()
    try:
        yield proc
    finally:
        proc.stop()


def rows_by_room(url: str) -> dict[str, dict[str, int]]:
    """{room_id: {table: rows}} over rooms and every table that belongs to a room."""
    out: dict[str, dict[str, int]] = {
        rid: {t: 0 for t in TABLES} for (rid,) in sql(url, "SELECT id FROM rooms")
    }
    for table in TABLES:
        for rid, n in sql(url, f"SELECT room_id, count(*) FROM {table} GROUP BY room_id"):
            out.setdefault(rid, {t: 0 for t in TABLES})[table] = n
    return out


def finished_in_memory(server: ServerProcess) -> int:
    for line in fetch.get(server.url + "/metrics").text.splitlines():
        if line.startswith('krypkasino_rooms{status="finished"}'):
            return int(float(line.split()[-1]))
    return 0


async def purge_next_to_a_game(server: ServerProcess, url: str) -> None:
    old_rooms = [finished_room(server) for _ in range(2)]
    old = [r["room_id"] for r in old_rooms]
    recent = finished_room(server)["room_id"]
    waiting = create_room(server.url, 3)["room_id"]
    playing, ann, bo = await two_players(server)
    rng = random.Random(3)
    assert len(await play_random([ann, bo], 6, rng)) == 6
    for rid in old:
        backdate(url, rid, 40)
    # finished rooms leave the server's memory, as old ones have
    await wait_until_async(
        lambda: finished_in_memory(server) == 0, 30, 0.5, "finished rooms to leave memory"
    )
    before = rows_by_room(url)
    cutoff = (datetime.now(UTC) - timedelta(days=30)).date().isoformat()

    dry = await krypkasino_beside(url, "purge", "--finished-before", cutoff, "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    listed = json.loads(dry.stdout)["rooms"]
    assert sorted(r["room_id"] for r in listed) == sorted(old)
    for r in listed:
        assert {t: r[t] for t in TABLES} == before[r["room_id"]]
        assert r["events"] > 20 and r["deals"] == 1 and r["matches"] == 1 and r["seats"] == 2
    assert rows_by_room(url) == before, "a dry run changes nothing"

    done = await krypkasino_beside(url, "purge", "--finished-before", cutoff, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rooms"] == listed, "it removes exactly what it listed"
    after = rows_by_room(url)
    assert after == {rid: n for rid, n in before.items() if rid not in old}
    for table in ("rooms", *TABLES):  # no orphan anywhere
        column = "id" if table == "rooms" else "room_id"
        for rid in old:
            assert sql(url, f"SELECT count(*) FROM {table} WHERE {column} = :r", r=rid)[0][0] == 0
    tombs = sql(url, "SELECT id, reason FROM purged_rooms ORDER BY id")
    assert tombs == [(rid, "purge") for rid in sorted(old)]

    # A removed room says so, over HTTP and on the WebSocket.
    gone = fetch.get(f"{server.url}/api/rooms/{old[0]}")
    body = gone.json()
    assert gone.status_code == 410 and body["code"] == "purged"
    assert "removed on" in body["message"] and body["days"] >= 40
    by_code = fetch.get(f"{server.url}/api/codes/{old_rooms[0]['code']}")
    assert by_code.status_code == 410 and by_code.json()["code"] == "purged"
    probe = await Client(server.ws_url, old[1], None).connect()
    err = await probe.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "purged"
    await probe.close()

    # Everything else is untouched and still plays.
    assert fetch.get(f"{server.url}/api/rooms/{recent}").json()["status"] == "finished"
    assert fetch.get(f"{server.url}/api/rooms/{waiting}").json()["status"] == "waiting"
    join(server.url, waiting, "Bo")
    acked = await play_random([ann, bo], 6, rng)
    assert len(acked) == 6 and all(a["seq"] > 0 for a in acked)
    assert ann.view["status"] == bo.view["status"] == "playing"
    assert (await fresh_snapshot(server, playing, None))[0] == ann.seq
    again = await krypkasino_beside(url, "purge", "--finished-before", cutoff, "--dry-run")
    assert again.returncode == 0 and again.stdout.startswith("would remove 0 finished room(s)")
    for c in (ann, bo):
        await c.close()


def test_purge_removes_exactly_what_it_lists_while_a_game_goes_on(
    server: ServerProcess, database_url: str
) -> None:
    run_async(purge_next_to_a_game(server, database_url))


@pytest.mark.parametrize("date", ["yesterday", "2030-13-01", "31/01/2030", ""])
def test_a_bad_date_is_refused_on_one_line(tmp_path, date: str) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path}/none.db"
    out = krypkasino(url, "purge", "--finished-before", date, "--dry-run")
    assert out.returncode == 2
    assert (
        out.stderr.startswith("krypkasino: bad --finished-before") and out.stderr.count("\n") == 1
    )
    assert not (tmp_path / "none.db").exists(), "nothing was touched"
