"""``krypkasino rooms list|show|close`` on a real database, next to a real server:
closing through the server's admin API reaches the connected players at once;
closing without a server writes the same event through the repository."""

from __future__ import annotations

import hashlib
import json
import os
import random

from tests.conftest import require_service, run_async
from tests.server.harness import (
    Client,
    ServerProcess,
    create_room,
    finished_room,
    krypkasino,
    krypkasino_beside,
    play_random,
    two_players,
)

TOKEN = "rooms-command-admin-token"
ADMIN_ENV = {"ADMIN_TOKEN_HASH": hashlib.sha256(TOKEN.encode()).hexdigest()}
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def ids(out: str) -> list[str]:
    return [r["room_id"] for r in json.loads(out)["rooms"]]


async def list_show_close(server: ServerProcess, url: str) -> None:
    done = finished_room(server)["room_id"]
    waiting = create_room(server.url, 3)["room_id"]
    rid, ann, bo = await two_players(server)
    await play_random([ann, bo], 5, random.Random(5))

    live = await krypkasino_beside(url, "rooms", "list", "--json")
    assert live.returncode == 0, live.stderr
    assert sorted(ids(live.stdout)) == sorted([waiting, rid]), "live rooms by default"
    finished = await krypkasino_beside(url, "rooms", "list", "--status", "finished", "--json")
    assert ids(finished.stdout) == [done]
    every = (await krypkasino_beside(url, "rooms", "list", "--status", "all", "--json")).stdout
    assert sorted(ids(every)) == sorted([done, waiting, rid])
    rows = {r["room_id"]: r for r in json.loads(every)["rooms"]}
    assert (rows[waiting]["seated"], rows[waiting]["players"]) == (1, 3)
    assert rows[done]["bots"] == 1 and rows[rid]["status"] == "playing"
    text = (await krypkasino_beside(url, "rooms", "list")).stdout
    assert rid in text and waiting in text and done not in text

    shown = await krypkasino_beside(url, "rooms", "show", rid, "--json")
    assert shown.returncode == 0, shown.stderr
    info = json.loads(shown.stdout)
    assert [s["name"] for s in info["summary"]["seats"]] == ["Ann", "Bo"]
    assert info["deal"]["hand_counts"] == ann.view["hand_counts"]
    assert info["deal"]["to_move"] == ann.view["to_move"] and info["match"]["match_no"] == 1
    assert info["room"]["seq"] == ann.seq
    human = (await krypkasino_beside(url, "rooms", "show", rid)).stdout
    assert "seats:" in human and "Ann" in human and f"to move {ann.view['to_move']}" in human

    for args, code, message in (
        (("rooms", "show", "xyz"), 2, "bad room id"),
        (("rooms", "show", "0" * 32), 1, "no room"),
        (("rooms", "close", rid, "--server", server.url), 2, "ADMIN_TOKEN"),
    ):
        out = await krypkasino_beside(url, *args)
        assert out.returncode == code and message in out.stderr, (args, out.stderr)
    wrong = await krypkasino_beside(
        url, "rooms", "close", rid, "--server", server.url, env={"ADMIN_TOKEN": "wrong"}
    )
    assert wrong.returncode == 1 and "admin token" in wrong.stderr
    await ann.drain(0.2)
    seq = ann.seq
    assert ann.view["status"] == "playing", "refused commands changed nothing"

    closed = await krypkasino_beside(
        url,
        "rooms",
        "close",
        rid,
        "--server",
        server.url,
        "--reason",
        "tournament over",
        env={"ADMIN_TOKEN": TOKEN},
    )
    assert closed.returncode == 0, closed.stderr
    for c in (ann, bo):
        await c.wait_seq(seq + 1)
        assert c.view["status"] == "finished" and c.view["closed"]["reason"] == "tournament over"
    err = await ann.play(ann.view["hand"][0], [])
    assert err["type"] == "error" and err["code"] == "closed"
    for c in (ann, bo):
        await c.close()


def test_rooms_list_show_and_close_through_the_server(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(database_url, env=ADMIN_ENV, log_path=tmp_path / "s.log").start()
    try:
        run_async(list_show_close(server, database_url))
    finally:
        server.stop()


def test_closing_without_a_server_writes_the_event_the_server_then_serves(
    database_url: str, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(database_url, log_path=tmp_path / "s.log").start()

    async def before() -> tuple[str, int, str]:
        rid, ann, bo = await two_players(server)
        await play_random([ann, bo], 3, random.Random(8))
        for c in (ann, bo):
            await c.close()
        return rid, ann.seq, ann.token or ""

    try:
        rid, seq, token = run_async(before())
    finally:
        server.stop()
    out = krypkasino(database_url, "rooms", "close", rid, "--reason", "cheating")
    assert out.returncode == 0, out.stderr
    assert f"(seq {seq + 1})" in out.stdout and "--server" in out.stdout
    again = krypkasino(database_url, "rooms", "close", rid)
    assert again.returncode == 1 and "already closed" in again.stderr
    info = json.loads(krypkasino(database_url, "rooms", "show", rid, "--json").stdout)
    assert (
        info["room"]["status"] == "finished" and info["summary"]["closed"]["reason"] == "cheating"
    )

    server.start()

    async def after() -> None:
        ann = await Client(server.ws_url, rid, token).connect()
        await ann.wait_for(lambda m: m["type"] == "snapshot")
        assert ann.seq == seq + 1 and ann.view["closed"]["reason"] == "cheating"
        err = await ann.play(ann.view["hand"][0], [])
        assert err["type"] == "error" and err["code"] == "closed"
        await ann.close()

    try:
        run_async(after())
    finally:
        server.stop()


def _redis_available() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


def test_closing_without_the_api_reaches_servers_sharing_redis(postgres_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    server = ServerProcess(
        postgres_url, env={"REDIS_URL": REDIS_URL}, log_path=tmp_path / "s.log"
    ).start()

    async def scenario() -> None:
        rid, ann, bo = await two_players(server)
        await play_random([ann, bo], 3, random.Random(4))
        seq = ann.seq
        out = krypkasino(
            postgres_url,
            "rooms",
            "close",
            rid,
            "--reason",
            "maintenance",
            env={"REDIS_URL": REDIS_URL},
        )
        assert out.returncode == 0, out.stderr
        for c in (ann, bo):
            await c.wait_seq(seq + 1)
            assert c.view["status"] == "finished" and c.view["closed"]["reason"] == "maintenance"
        err = await bo.play(bo.view["hand"][0], [])
        assert err["code"] == "closed"
        for c in (ann, bo):
            await c.close()

    try:
        run_async(scenario())
    finally:
        server.stop()
