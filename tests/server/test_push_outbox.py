"""Turn notices through the outbox over real server processes (issue 48), at a real
local push service (tests/notify/push_service.py): a turn notice a process committed
and died before handing on is told by the next process to start; with two processes
sharing the database and Redis, a player whose page is open on the other process is
not told, and a turn both processes stored a notice for is told once.  SQLite and
PostgreSQL; every wait is on the push service or the outbox's rows."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import fetch
from tests.conftest import require_service, run_async
from tests.notify.push_service import PushService
from tests.waiting import wait_until, wait_until_async

from .harness import Client, ServerProcess, create_room, settle_turn, sql
from .test_multiprocess import REDIS_URL, _redis_available

PUSH = {"PUSH_ALLOW_LOCAL": "true", "DEFAULT_GRACE": "600", "OUTBOX_POLL_SECONDS": "0.2"}


@pytest.fixture
def push_service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def subscribe(base: str, key: str, browser: dict[str, Any]) -> None:
    r = fetch.post(
        f"{base}/api/push/subscriptions",
        json={"subscription": browser, "lang": "en"},
        headers={"X-Player-Key": key},
        timeout=10,
    )
    assert r.status_code == 201, r.text


def take_seat(base: str, rid: str, name: str, key: str) -> dict[str, Any]:
    r = fetch.post(f"{base}/api/rooms/{rid}/seats", json={"name": name, "player": key}, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def turn_notices(url: str, rid: str) -> list[tuple[dict[str, Any], bool]]:
    """The room's ``turn_changed`` rows: (body, handed to every subscriber)."""
    rows = sql(
        url,
        "SELECT body, done FROM outbox_events WHERE room_id = :r AND kind = 'turn_changed' "
        "ORDER BY id",
        r=rid,
    )
    return [(json.loads(b) if isinstance(b, str) else dict(b), bool(d)) for b, d in rows]


def all_handed_on(url: str, rid: str) -> bool:
    return all(done for _, done in turn_notices(url, rid))


def test_a_turn_notice_a_killed_process_stored_is_told_by_the_next(
    database_url: str, tmp_path: Path, push_service: PushService
) -> None:
    """A correspondence room (no one need be at it): Bo's turn notice is stored with
    the commit that gave him the turn, by a process that hands nothing on and is
    then killed -9; the next process tells him, once."""
    env = {**PUSH, "PUSH_DELAY": "0"}
    keys = {"Ann": secrets.token_urlsafe(24), "Bo": secrets.token_urlsafe(24)}
    browsers = {name: push_service.subscribe() for name in keys}
    a = ServerProcess(
        database_url, env={**env, "OUTBOX_DISPATCH": "false"}, log_path=tmp_path / "a.log"
    ).start()
    try:
        for name, key in keys.items():
            subscribe(a.url, key, browsers[name])
        room = create_room(a.url, 2, player=keys["Ann"], pace="correspondence", days_per_move=7)
        rid = room["room_id"]
        take_seat(a.url, rid, "Bo", keys["Bo"])
        stored = turn_notices(database_url, rid)
        assert [(b["cause"], done) for b, done in stored] == [("move", False)], stored
    finally:
        a.kill9()
    mover = ("Ann", "Bo")[stored[0][0]["seat"]]
    other = "Bo" if mover == "Ann" else "Ann"
    assert push_service.inbox(browsers[mover]) == [], "the dead process told nobody"

    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        (told,) = push_service.wait_for(browsers[mover], 1, timeout=60)
        assert told.problems == []
        assert told.payload == {"kind": "turn", "room": rid, "url": f"/r/{rid}", "lang": "en"}
        wait_until(lambda: all_handed_on(database_url, rid), 30, message="handed on")
        handled = sql(
            database_url,
            "SELECT h.subscriber FROM outbox_handled h JOIN outbox_events e "
            "ON e.id = h.event_id WHERE e.room_id = :r AND e.kind = 'turn_changed'",
            r=rid,
        )
        assert [s for (s,) in handled] == ["push_turn"]
        assert len(push_service.inbox(browsers[mover])) == 1
        assert push_service.inbox(browsers[other]) == []
    finally:
        b.stop()


def test_two_processes_tell_a_turn_once_and_not_to_a_page_open_on_the_other(
    database_url: str, tmp_path: Path, push_service: PushService
) -> None:
    require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
    # a delay long enough for Bo's page to close again before his notice falls due
    env = {**PUSH, "PUSH_DELAY": "3", "REDIS_URL": REDIS_URL}
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    ann_key, bo_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    ann_browser, bo_browser = push_service.subscribe(), push_service.subscribe()
    url = database_url

    async def play() -> str:
        room = create_room(a.url, 2, player=ann_key)
        rid = str(room["room_id"])
        bo_seat = take_seat(b.url, rid, "Bo", bo_key)
        ann = await Client(a.ws_url, rid, room["token"]).connect()  # Ann on A
        bo = await Client(b.ws_url, rid, bo_seat["token"]).connect()  # Bo on B
        clients = [ann, bo]
        try:
            for c in clients:
                await c.wait_for(lambda m: m["type"] == "snapshot")
            subscribe(a.url, ann_key, ann_browser)
            subscribe(b.url, bo_key, bo_browser)
            # each move stores a notice for the other (no page of theirs on the
            # mover's process): each falls due while that page is open on the other
            # process, and tells nobody
            for _ in range(2):
                view = await settle_turn(clients)
                mover = clients[view["to_move"]]
                move = mover.view["legal"][0]
                assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
            await settle_turn(clients)
            await wait_until_async(lambda: all_handed_on(url, rid), 30, message="handed on")
            assert len(turn_notices(url, rid)) >= 2
            assert push_service.inbox(ann_browser) == push_service.inbox(bo_browser) == []
            # Ann (on A) plays: Bo's turn, a notice stored by A; Bo's page on B closes
            # in the middle of it: another, stored by B, for the same turn
            view = await settle_turn(clients)
            while view["to_move"] != 0:
                mover = clients[view["to_move"]]
                move = mover.view["legal"][0]
                assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
                view = await settle_turn(clients)
            move = ann.view["legal"][0]
            assert (await ann.play(move["card"], move["take"]))["type"] == "ack"
            await bo.wait_until(lambda: bo.view["to_move"] == 1)  # B is at that seq too
            await bo.close()
            clients = [ann]
            (told,) = push_service.wait_for(bo_browser, 1, timeout=60)
            assert told.payload == {"kind": "turn", "room": rid, "url": f"/r/{rid}", "lang": "en"}
            await wait_until_async(lambda: all_handed_on(url, rid), 30, message="handed on")
            mine = [b for b, _ in turn_notices(url, rid) if b["seat"] == 1]
            last = max(n["seq"] for n in mine)
            causes = sorted(n["cause"] for n in mine if n["seq"] == last)
            assert causes == ["left", "move"], "stored by A's commit and by B's page closing"
            assert len(push_service.inbox(bo_browser)) == 1, "one turn, one message"
            assert push_service.inbox(ann_browser) == []
            return rid
        finally:
            for c in clients:
                await c.close()

    try:
        run_async(play())
    finally:
        a.stop()
        b.stop()
