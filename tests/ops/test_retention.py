"""RETENTION_DAYS: the running server removes rooms finished more than N days ago,
tells the clients still watching them, and leaves everything else alone; several
processes on one PostgreSQL remove each room once."""

from __future__ import annotations

from tests import fetch
from tests.conftest import run_async
from tests.server.harness import (
    Client,
    ServerProcess,
    backdate,
    create_room,
    finished_room,
    sql,
    two_players,
)
from tests.waiting import wait_until

RETENTION = {"RETENTION_DAYS": "3", "RETENTION_INTERVAL": "0.5"}


async def retention_sweeps(server: ServerProcess, url: str) -> None:
    old = finished_room(server)["room_id"]
    young = finished_room(server)["room_id"]  # finished 2 days ago: within the 3 days
    waiting = create_room(server.url, 3)["room_id"]
    playing, ann, bo = await two_players(server)
    watcher = await Client(server.ws_url, old, None).connect()  # keeps it in memory
    await watcher.wait_for(lambda m: m["type"] == "snapshot")
    backdate(url, young, 2)
    backdate(url, waiting, 10)  # old, but not finished: stays
    backdate(url, old, 4)
    err = await watcher.wait_for(lambda m: m["type"] == "error", timeout=30)
    assert err["code"] == "purged" and "after 4 days" in err["message"]
    gone = fetch.get(f"{server.url}/api/rooms/{old}")
    assert gone.status_code == 410 and gone.json()["code"] == "purged"
    assert gone.json()["days"] == 4
    assert sql(url, "SELECT id, reason FROM purged_rooms") == [(old, "retention")]
    for rid, status in ((young, "finished"), (waiting, "waiting"), (playing, "playing")):
        assert fetch.get(f"{server.url}/api/rooms/{rid}").json()["status"] == status
    v = ann.view if ann.view["to_move"] == 0 else bo.view
    mover = ann if ann.view["to_move"] == 0 else bo
    ack = await mover.play(v["legal"][0]["card"], v["legal"][0]["take"])
    assert ack["type"] == "ack"
    metrics = fetch.get(server.url + "/metrics").text
    assert "krypkasino_rooms_purged_total 1.0" in metrics
    for c in (ann, bo, watcher):
        await c.close()


def test_the_server_removes_rooms_finished_longer_ago_than_retention(
    database_url: str, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(database_url, env=RETENTION, log_path=tmp_path / "s.log").start()
    try:
        run_async(retention_sweeps(server, database_url))
    finally:
        server.stop()


def test_two_processes_on_one_postgresql_remove_each_room_once(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a = ServerProcess(postgres_url, env=RETENTION, log_path=tmp_path / "a.log").start()
    b = ServerProcess(postgres_url, env=RETENTION, log_path=tmp_path / "b.log").start()
    try:
        rooms = [finished_room(s)["room_id"] for s in (a, b) * 4]
        keep = finished_room(a)["room_id"]
        for rid in rooms:
            backdate(postgres_url, rid, 5)
        wait_until(
            lambda: (
                not sql(
                    postgres_url,
                    "SELECT count(*) FROM rooms WHERE updated_at < now() - interval '3 days'",
                )[0][0]
            ),
            interval=0.2,
            message="the sweeps",
        )
        tombs = sql(postgres_url, "SELECT id, count(*) FROM purged_rooms GROUP BY id")
        assert sorted(t[0] for t in tombs) == sorted(rooms) and {t[1] for t in tombs} == {1}
        assert sql(postgres_url, "SELECT id FROM rooms") == [(keep,)]
        for table in ("seats", "events", "deals", "matches"):
            left = sql(postgres_url, f"SELECT DISTINCT room_id FROM {table}")
            assert left == [(keep,)], table
        for s in (a, b):
            assert s.proc is not None and s.proc.poll() is None
    finally:
        a.stop()
        b.stop()
    for log in ("a.log", "b.log"):
        assert "retention sweep failed" not in (tmp_path / log).read_text()
