"""The deal of the day replayed with every card known (issue 46, part 3), against a real
server on SQLite and PostgreSQL.  The attack: play the deal once, read its record (every
hand and the stock), then deal it again with a new key (or as the same account with a
new key) and script a perfect score.  What stops it:

- a finished play's deal record, match record, analysis and "Play this deal yourself"
  are refused (403 ``daily_private``) to another key and another account until the day
  is over, and open to everyone after (a server one day on: DAILY_DAY_SHIFT, the
  deal of the day's clock);
- an account starts each deal once (409 ``already_played``), whatever key it sends;
- a new key from the same address plays, unranked (DAILY_RANKED_PER_ADDRESS 1, set
  here as a host leaves it).

Every client comes through 127.0.0.1, the trusted proxy by default, with its own
address in X-Forwarded-For (TEST-NET addresses)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import fetch
from tests.conftest import run_async

from .daily_play import KEYS, first_legal, play_out, replaying
from .harness import Client, ServerProcess
from .test_ratings import PASSWORD
from .test_review import error_of, review_messages, review_of, send
from .test_review import key as review_key

ENV = {
    "DAILY_BOT_WORLDS": "8",
    "DAILY_PLAYERS": "3,4",
    "DAILY_RANKED_PER_ADDRESS": "1",
    "REGISTER_PER_HOUR": "0",
}
HOME, ELSEWHERE = "203.0.113.9", "198.51.100.7"
DEE_KEYS = ("dee-first-browser-key-00001", "dee-second-browser-key-0002")


@pytest.fixture
def daily_server(database_url: str, tmp_path: Path) -> Any:
    proc = ServerProcess(database_url, env=ENV, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


class Account:
    """A signed-in account (its session cookie, its CSRF token) at ``address``."""

    def __init__(self, base: str, username: str, address: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=20, headers={"X-Forwarded-For": address})
        r = self.http.post("/api/auth/register", json={"username": username, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]

    def start(self, players: int, key: str) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf, "X-Player-Key": key}
        return self.http.post(f"/api/daily/{players}", json={"name": "Dee"}, headers=headers)


def start(base: str, who: str, address: str) -> dict[str, Any]:
    r = fetch.post(
        f"{base}/api/daily/3",
        json={"name": who.capitalize()},
        headers={"X-Player-Key": KEYS[who], "X-Forwarded-For": address},
        timeout=20,
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def views(room_id: str) -> list[tuple[str, str]]:
    """(method, path) of everything that shows a finished deal's cards or deals it again."""
    base = f"/api/rooms/{room_id}/matches/1"
    return [
        ("GET", f"{base}/deals/1"),
        ("GET", f"{base}/deals/1?positions=true"),
        ("GET", base),
        ("GET", f"{base}?download=true"),
        ("GET", f"{base}/deals/1/analysis"),
        ("POST", f"{base}/deals/1/solo"),
    ]


def ask(
    http: httpx.Client, method: str, path: str, key: str | None = None, csrf: str | None = None
) -> httpx.Response:
    headers = {} if key is None else {"X-Player-Key": key}
    if csrf is not None:
        headers["X-CSRF-Token"] = csrf
    return http.request(method, path, headers=headers, json={} if method == "POST" else None)


def refused(r: httpx.Response) -> bool:
    body = r.json()
    return r.status_code == 403 and body["code"] == "daily_private" and bool(body["message"])


def test_a_daily_play_is_its_players_alone_until_the_day_is_over(
    daily_server: ServerProcess, database_url: str, tmp_path: Path
) -> None:
    server = daily_server
    day = fetch.get(f"{server.url}/api/daily", timeout=10).json()["date"]
    ann = start(server.url, "ann", HOME)
    ann_moves = run_async(play_out(server, ann, first_legal))
    dee = Account(server.url, "dee", ELSEWHERE)
    r = dee.start(3, DEE_KEYS[0])
    assert r.status_code == 201, r.text
    dee_room = r.json()
    run_async(play_out(server, dee_room, first_legal))

    # the attack, before the day is over: another key, no key, another account
    stranger = httpx.Client(base_url=server.url, timeout=20, headers={"X-Forwarded-For": HOME})
    for method, path in views(ann["room_id"]):
        for key in (None, KEYS["bo"]):
            r = ask(stranger, method, path, key)
            assert refused(r), (method, path, key, r.status_code, r.text)
        r = ask(dee.http, method, path, csrf=dee.csrf)
        assert refused(r), (method, path, "another account", r.status_code, r.text)
    for method, path in views(dee_room["room_id"]):
        r = ask(stranger, method, path, KEYS["ann"])
        assert refused(r), (method, path, r.status_code, r.text)
    # ... while each player sees their own: by key, or by account without the key
    own = stranger.get(
        f"/api/rooms/{ann['room_id']}/matches/1/deals/1", headers={"X-Player-Key": KEYS["ann"]}
    )
    assert own.status_code == 200 and len(own.json()["hands"]) == 3, own.text
    mine = dee.http.get(f"/api/rooms/{dee_room['room_id']}/matches/1/deals/1")
    assert mine.status_code == 200 and mine.json()["hands"] == own.json()["hands"], mine.text

    # the same account again, with a new key (or the same): refused, not dealt again
    for key in DEE_KEYS:
        r = dee.start(3, key)
        assert r.status_code == 409 and r.json()["code"] == "already_played", r.text

    # a new key from Ann's address plays, but is not ranked
    bo = start(server.url, "bo", HOME)
    run_async(play_out(server, bo, replaying(ann_moves)))
    url = f"{server.url}/api/daily/{day}/3/results"
    seen = fetch.get(url, headers={"X-Player-Key": KEYS["bo"]}, timeout=10).json()
    assert sorted(r["name"] for r in seen["results"]) == ["Ann", "Dee"]
    assert seen["you"]["name"] == "Bo" and seen["you"]["ranked"] is False
    assert seen["you"]["room_id"] == bo["room_id"]
    assert all(r["room_id"] is None for r in seen["results"]), "not Bo's to replay"
    hers = fetch.get(url, headers={"X-Player-Key": KEYS["ann"]}, timeout=10).json()
    assert hers["you"]["ranked"] is True
    assert {r["name"]: r["room_id"] for r in hers["results"]} == {
        "Ann": ann["room_id"],
        "Dee": None,
    }

    # the day is over (a server whose clock is a day on): everyone may see them
    server.stop()
    later = ServerProcess(
        database_url, env={**ENV, "DAILY_DAY_SHIFT": "1"}, log_path=tmp_path / "later.log"
    ).start()
    try:
        anyone = httpx.Client(base_url=later.url, timeout=20)
        for room in (ann, dee_room):
            for method, path in views(room["room_id"]):
                r = ask(anyone, method, path)
                assert r.status_code in (200, 201, 202), (method, path, r.status_code, r.text)
        out = fetch.get(f"{later.url}/api/daily/{day}/3/results", timeout=10).json()
        assert {r["name"]: r["room_id"] for r in out["results"]} == {
            "Ann": ann["room_id"],
            "Dee": dee_room["room_id"],
        }
    finally:
        later.stop()


def test_the_current_matchs_deal_route_is_guarded_too(daily_server: ServerProcess) -> None:
    """``GET /api/rooms/{room}/deals/{n}`` (app/api/rooms.py: a deal of the room's
    current match) is the same record by another road: refused the same."""
    server = daily_server
    ann = start(server.url, "ann", HOME)
    run_async(play_out(server, ann, first_legal))
    path = f"/api/rooms/{ann['room_id']}/deals/1"
    stranger = httpx.Client(base_url=server.url, timeout=20)
    for key in (None, KEYS["bo"]):
        r = ask(stranger, "GET", path, key)
        assert refused(r), (key, r.status_code, r.text)
    r = ask(stranger, "GET", path, KEYS["ann"])
    assert r.status_code == 200 and len(r.json()["hands"]) == 3, r.text


async def _spectator_review(server: ServerProcess, room: dict[str, Any]) -> None:
    rid = room["room_id"]
    watcher = await Client(server.ws_url, rid, None).connect()
    player = await Client(server.ws_url, rid, room["token"]).connect()
    try:
        for c in (watcher, player):
            await c.wait_for(lambda m: m["type"] == "snapshot")
        # a spectator may not start a review of the day's deal (it shows every hand)
        await send(watcher, type="review_start", match_no=1, deal_no=1, key=review_key())
        assert (await error_of(watcher))["code"] == "daily_private"
        # the player may, and the spectator is shown nothing of it, nor may join it
        await send(player, type="review_start", match_no=1, deal_no=1, key=review_key())
        started = await review_of(player)
        assert started["review"]["steps"], "the player's own review shows the deal"
        await send(watcher, type="review_join", key=review_key())
        assert (await error_of(watcher))["code"] == "daily_private"
        assert not review_messages(watcher), "no hand of the day reached the spectator"
    finally:
        for c in (watcher, player):
            await c.close()


def test_a_spectator_is_shown_no_review_of_the_days_deal(daily_server: ServerProcess) -> None:
    """A shared review shows every hand of a finished deal: in a deal of the day's room,
    before the day is over, spectators neither start, join nor see one."""
    ann = start(daily_server.url, "ann", HOME)
    run_async(play_out(daily_server, ann, first_legal))
    run_async(_spectator_review(daily_server, ann))
