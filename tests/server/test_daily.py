"""The deal of the day over a real server (issue 32), on SQLite and PostgreSQL: two
players with different keys who make the same plays through the WebSocket get the same
hands and the same bot plays (their deal records are equal), a third who plays
otherwise is ranked among them; a key plays once (409), not at all without a key
(401); the seed revealed once the day is over (a server whose clock is a day on:
DAILY_DAY_SHIFT, a test-only setting) matches the commitment published in the
morning and deals every room's pack.  "Play this deal yourself" deals the same pack
from the same seat, and refuses a deal in play."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from app.daily import seeds
from app.engine.shuffle import shuffled_pack
from tests import fetch
from tests.conftest import run_async

from .daily_play import KEYS, first_legal, last_legal, play_out, replaying
from .daily_play import start_daily as start
from .harness import Client, ServerProcess, create_room

FAST = {"DAILY_BOT_WORLDS": "8", "DAILY_PLAYERS": "3,4"}
"""The challenge's strong bot at 8 worlds a move: the same code path, a quicker deal."""


@pytest.fixture
def daily_server(database_url: str, tmp_path: Path) -> Any:
    proc = ServerProcess(database_url, env=FAST, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


async def opening_hand(server: ServerProcess, made: dict[str, Any]) -> list[str]:
    """The person's hand before their first play (bots before them leave it as dealt)."""
    c = await Client(server.ws_url, made["room_id"], made["token"]).connect()
    try:
        await c.wait_until(lambda: c.view is not None and bool(c.view["hand"]), timeout=60)
        assert c.view is not None
        hand: list[str] = c.view["hand"]
        return hand
    finally:
        await c.close()


def record(server: ServerProcess, room_id: str, who: str) -> dict[str, Any]:
    """The room's deal record, as its player asks (it is theirs alone until the day is
    over: tests/server/test_daily_hostile.py)."""
    r = fetch.get(
        f"{server.url}/api/rooms/{room_id}/matches/1/deals/1",
        headers={"X-Player-Key": KEYS[who]},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def results(server: ServerProcess, day: str, players: int, who: str | None = None) -> Any:
    headers = {"X-Player-Key": KEYS[who]} if who else {}
    url = f"{server.url}/api/daily/{day}/{players}/results"
    return fetch.get(url, headers=headers, timeout=10)


DEAL_KEYS = ("players", "dealer", "rules", "hands", "table", "stock", "moves", "seed", "commitment")


def test_the_deal_of_the_day_is_the_same_for_everyone_who_plays_the_same(
    daily_server: ServerProcess, database_url: str, tmp_path: Path
) -> None:
    server = daily_server
    today = fetch.get(f"{server.url}/api/daily", timeout=10).json()
    day = today["date"]
    assert [d["players"] for d in today["deals"]] == [3, 4]
    assert all(d["played"] == 0 and len(d["commitment"]) == 64 for d in today["deals"])
    commitment = today["deals"][0]["commitment"]
    assert fetch.get(f"{server.url}/api/daily", timeout=10).json() == today  # fixed once

    # no key, a count without a deal, not a count
    r = fetch.post(f"{server.url}/api/daily/3", json={}, timeout=10)
    assert r.status_code == 401 and r.json()["code"] == "unauthorized", r.text
    for bad, status in (("7", 404), ("x", 422)):
        r = fetch.post(
            f"{server.url}/api/daily/{bad}", headers={"X-Player-Key": KEYS["ann"]}, timeout=10
        )
        assert r.status_code == status, (bad, r.text)

    ann = start(server.url, 3, "ann")
    assert ann.status_code == 201, ann.text
    ann_room = ann.json()
    assert ann_room["seat"] == 0
    again = start(server.url, 3, "ann")
    assert again.status_code == 409 and again.json()["code"] == "already_played", again.text

    ann_moves = run_async(play_out(server, ann_room, first_legal))
    bo_room = start(server.url, 3, "bo").json()
    bo_moves = run_async(play_out(server, bo_room, replaying(ann_moves)))
    assert bo_moves == ann_moves
    a, b = record(server, ann_room["room_id"], "ann"), record(server, bo_room["room_id"], "bo")
    assert {k: a[k] for k in DEAL_KEYS} == {k: b[k] for k in DEAL_KEYS}
    assert len(a["moves"]) > len(ann_moves)  # the bots' plays are in it, and equal
    assert a["totals"] == b["totals"]

    cy_room = start(server.url, 3, "cy").json()
    run_async(play_out(server, cy_room, last_legal))
    c = record(server, cy_room["room_id"], "cy")
    assert {k: c[k] for k in ("hands", "table", "stock", "dealer")} == {
        k: a[k] for k in ("hands", "table", "stock", "dealer")
    }
    assert start(server.url, 3, "cy").status_code == 409

    points = {"Ann": a["totals"][0], "Bo": b["totals"][0], "Cy": c["totals"][0]}
    seen = results(server, day, 3, "ann").json()
    assert seen["seed"] is None and seen["commitment"] == commitment
    rows = seen["results"]
    assert sorted(r["name"] for r in rows) == ["Ann", "Bo", "Cy"]
    for r in rows:
        assert r["points"] == points[r["name"]]
        fewer = sum(p < r["points"] for p in points.values())
        more = sum(p > r["points"] for p in points.values())
        tied = sum(p == r["points"] for p in points.values()) - 1
        assert r["rank"] == 1 + fewer
        assert r["percentile"] == round(100 * (more + tied / 2) / 2, 1)
    assert [r["points"] for r in rows] == sorted(points.values())
    assert seen["you"]["name"] == "Ann" and seen["you"]["you"]
    assert {r["name"]: r["room_id"] for r in rows} == {
        "Ann": ann_room["room_id"],
        "Bo": None,
        "Cy": None,
    }
    stranger = results(server, day, 3).json()  # no replay of the day's deal before it is over
    assert stranger["you"] is None and all(r["room_id"] is None for r in stranger["results"])
    assert fetch.get(f"{server.url}/api/daily", timeout=10).json()["deals"][0]["played"] == 3

    # "Play this deal yourself": Ann's deal again, from her seat, the same pack
    solo = fetch.post(
        f"{server.url}/api/rooms/{ann_room['room_id']}/matches/1/deals/1/solo",
        json={},
        headers={"X-Player-Key": KEYS["ann"]},
        timeout=10,
    )
    assert solo.status_code == 201, solo.text
    assert solo.json()["seat"] == 0
    from_bo = fetch.post(
        f"{server.url}/api/rooms/{bo_room['room_id']}/matches/1/deals/1/solo",
        json={"seat": 2},
        headers={"X-Player-Key": KEYS["bo"]},
        timeout=10,
    ).json()
    assert from_bo["seat"] == 2
    assert sorted(run_async(opening_hand(server, solo.json()))) == sorted(a["hands"][0])
    assert sorted(run_async(opening_hand(server, from_bo))) == sorted(a["hands"][2])
    live = create_room(server.url, 2, bots=1)  # its deal is in play: never dealt again
    base = f"{server.url}/api/rooms/{live['room_id']}/matches/1/deals"
    r = fetch.post(f"{base}/1/solo", json={}, timeout=10)
    assert r.status_code == 409 and r.json()["code"] == "deal_not_over", r.text
    r = fetch.post(f"{base}/2/solo", json={}, timeout=10)
    assert r.status_code == 404 and r.json()["code"] == "not_found", r.text

    # the next day: the seed is out, and it is the one committed to
    server.stop()
    later = ServerProcess(
        database_url, env={**FAST, "DAILY_DAY_SHIFT": "1"}, log_path=tmp_path / "later.log"
    ).start()
    try:
        out = results(later, day, 3).json()
        seed = out["seed"]
        assert seed is not None and hashlib.sha256(seed.encode()).hexdigest() == commitment
        assert seeds.pack_seed(seed) == a["seed"]
        assert seeds.dealer(seed, 3) == a["dealer"]
        pack = shuffled_pack(a["seed"])
        dealt = [card for hand in a["hands"] for card in hand] + a["table"] + a["stock"]
        assert sorted(dealt) == sorted(pack)
        assert all(r["room_id"] is not None for r in out["results"])  # replays, now
        past = fetch.get(f"{later.url}/api/daily/days", timeout=10).json()["days"]
        assert past[0]["date"] == day and past[0]["deals"][0]["seed"] == seed
        tomorrow = fetch.get(f"{later.url}/api/daily", timeout=10).json()
        assert tomorrow["date"] > day and tomorrow["deals"][0]["commitment"] != commitment
    finally:
        later.stop()
