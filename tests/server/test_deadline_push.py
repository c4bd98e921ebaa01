"""Deadline warnings through a real server (issue 32): a correspondence room with
nobody connected warns the player to move 24 h and 1 h before the deadline, each once,
at a real local push service that checks VAPID and decrypts (tests/notify/
push_service.py); a player who turned deadline warnings off gets their turn notices
only.  The day is shortened (DAY_SECONDS) so that a deadline of two days falls in
seconds.  SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests import fetch
from tests.notify.push_service import PushService

from .harness import ServerProcess, create_room

ENV = {"PUSH_ALLOW_LOCAL": "true", "PUSH_DELAY": "0", "DAY_SECONDS": "2.4"}


@pytest.fixture
def push_service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def kinds(service: PushService, browser: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (m.payload.get("kind"), m.payload.get("hours"))
        for m in service.inbox(browser)
        if m.payload is not None
    ]


def test_the_player_to_move_is_warned_before_the_deadline_once_per_warning(
    database_url: str, tmp_path: Any, push_service: PushService
) -> None:
    ann, bo = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    ann_browser, bo_browser = push_service.subscribe(), push_service.subscribe()
    server = ServerProcess(database_url, env=ENV, log_path=tmp_path / "server.log").start()
    try:
        base = server.url
        for key, browser in ((ann, ann_browser), (bo, bo_browser)):
            r = fetch.post(
                f"{base}/api/push/subscriptions",
                json={"subscription": browser, "lang": "en"},
                headers={"X-Player-Key": key},
                timeout=10,
            )
            assert r.status_code == 201, r.text
        r = fetch.request(
            "PUT",
            f"{base}/api/notifications/settings",
            json={"turn": True, "deadline": False, "digest": True},
            headers={"X-Player-Key": bo},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        room = create_room(base, 2, player=ann, pace="correspondence", days_per_move=2)
        rid = room["room_id"]
        seat = fetch.post(
            f"{base}/api/rooms/{rid}/seats", json={"name": "Bo", "player": bo}, timeout=10
        )
        assert seat.status_code == 201, seat.text
        # nobody connects: the clock plays for whoever does not move
        end = time.monotonic() + 60
        while time.monotonic() < end:
            ann_got, bo_got = kinds(push_service, ann_browser), kinds(push_service, bo_browser)
            if {("deadline", 24), ("deadline", 1)} <= set(ann_got) and ("turn", None) in bo_got:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"Ann got {ann_got}, Bo got {bo_got}")
        assert all(m.problems == [] for m in push_service.inbox(ann_browser))
        warnings = [
            m.payload for m in push_service.inbox(ann_browser) if m.payload["kind"] == "deadline"
        ]
        first = warnings[:2]
        assert [w["hours"] for w in first] == [24, 1]
        assert all(w["room"] == rid and w["code"] == room["code"] for w in first)
        assert all(w["url"] == f"/r/{rid}" for w in first)
        # one of each per turn, in order: 24 h, 1 h, (the next turn's) 24 h, ...
        hours = [w["hours"] for w in warnings]
        assert hours == [24, 1] * (len(hours) // 2) + [24] * (len(hours) % 2), hours
        # Bo turned deadline warnings off: his turns are told, no warning
        assert set(kinds(push_service, bo_browser)) == {("turn", None)}
    finally:
        server.stop()
