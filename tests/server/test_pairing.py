"""Quick pairing through real server processes, on SQLite and PostgreSQL: two people
waiting on two different processes of one database are seated in one room, each once;
a crowd racing over both processes makes full tables and no double seats; bots fill a
table after the chosen time; cancel works; bad input is refused and changes nothing;
a signed-in account pairs with an anonymous player key, and ACCESS=accounts asks for an
account.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests import fetch
from tests.conftest import require_service, run_async
from tests.waiting import wait_until

from .harness import Client, ServerProcess, sql
from .test_accounts import Browser
from .test_multiprocess import REDIS_URL, _redis_available


@pytest.fixture
def two_servers(database_url: str, tmp_path) -> Iterator[tuple[ServerProcess, ServerProcess]]:  # type: ignore[no-untyped-def]
    """Two server processes on one database (with Redis between them on PostgreSQL,
    as a deployment of several processes has; SQLite's are two processes on one file)."""
    env: dict[str, str] = {}
    if database_url.startswith("postgresql"):
        require_service(_redis_available(), f"Redis not reachable at {REDIS_URL}")
        env = {"REDIS_URL": REDIS_URL}
    a = ServerProcess(database_url, env=env, log_path=tmp_path / "a.log").start()
    b = ServerProcess(database_url, env=env, log_path=tmp_path / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def key() -> str:
    return secrets.token_urlsafe(32)


def find(server: ServerProcess, player: str | None, **body: Any) -> httpx.Response:
    headers = {"X-Player-Key": player} if player else {}
    return fetch.post(server.url + "/api/pairing", json=body, headers=headers, timeout=20)


def ticket(server: ServerProcess, player: str, tid: str, method: str = "GET") -> httpx.Response:
    return fetch.request(
        method, f"{server.url}/api/pairing/{tid}", headers={"X-Player-Key": player}, timeout=20
    )


def seated(server: ServerProcess, player: str, tid: str) -> dict[str, Any]:
    """Poll the ticket as the browser does until it is matched."""

    def matched() -> dict[str, Any] | None:
        r = ticket(server, player, tid)
        assert r.status_code == 200, r.text
        return r.json() if r.json()["status"] == "matched" else None

    found = wait_until(matched, 30, interval=0.3, message="the ticket to be matched")
    assert found is not None
    return found


async def welcome_seat(server: ServerProcess, room_id: str, token: str) -> int:
    c = await Client(server.ws_url, room_id, token).connect()
    try:
        msg = await c.wait_for(lambda m: m["type"] in ("welcome", "error"))
    finally:
        await c.close()
    assert msg["type"] == "welcome", msg
    return int(msg["you"])


def test_two_people_on_two_processes_share_one_room(two_servers, database_url: str) -> None:  # type: ignore[no-untyped-def]
    a, b = two_servers
    ann, bo = key(), key()
    r = find(a, ann, players=2, pace="live", bots_after=None, name="Ann")
    assert r.status_code == 202, r.text
    first = r.json()
    assert first["status"] == "waiting" and first["token"] is None
    r = find(b, bo, players=2, pace="live", bots_after=None, name="Bo")
    assert r.status_code == 202, r.text
    mine, theirs = seated(a, ann, first["ticket"]), seated(b, bo, r.json()["ticket"])
    assert mine["room_id"] == theirs["room_id"]
    assert {mine["seat"], theirs["seat"]} == {0, 1} and mine["token"] != theirs["token"]
    assert run_async(welcome_seat(a, mine["room_id"], mine["token"])) == mine["seat"]
    assert run_async(welcome_seat(b, theirs["room_id"], theirs["token"])) == theirs["seat"]
    assert sql(database_url, "SELECT count(*) FROM rooms") == [(1,)]
    names = sql(database_url, "SELECT name FROM seats ORDER BY seat")
    assert sorted(n for (n,) in names) == ["Ann", "Bo"]
    # Their seats are in their browsers' "My games".
    games = fetch.get(a.url + "/api/me/games", headers={"X-Player-Key": bo}, timeout=10).json()
    assert [g["room_id"] for g in games["games"]] == [mine["room_id"]]
    # Asking again changes nothing; the ticket is read on either process.
    assert ticket(b, ann, first["ticket"]).json()["room_id"] == mine["room_id"]
    assert sql(database_url, "SELECT count(*) FROM rooms") == [(1,)]


def test_a_crowd_over_two_processes_is_seated_once_each(two_servers, database_url: str) -> None:  # type: ignore[no-untyped-def]
    a, b = two_servers
    people = [key() for _ in range(9)]

    def go(i: int) -> tuple[str, str, ServerProcess]:
        side = (a, b)[i % 2]
        r = find(side, people[i], players=3, pace="live", bots_after=None, name=f"P{i}")
        assert r.status_code == 202, r.text
        return people[i], r.json()["ticket"], side

    with ThreadPoolExecutor(9) as pool:
        tickets = list(pool.map(go, range(9)))
    with ThreadPoolExecutor(9) as pool:
        states = list(pool.map(lambda t: seated(t[2], t[0], t[1]), tickets))
    rooms: dict[str, list[int]] = {}
    for s in states:
        rooms.setdefault(s["room_id"], []).append(s["seat"])
    assert sorted(sorted(v) for v in rooms.values()) == [[0, 1, 2]] * 3
    assert sql(database_url, "SELECT count(*) FROM rooms") == [(3,)]
    assert sql(database_url, "SELECT count(*) FROM seats WHERE bot = :f", f=False) == [(9,)]


def test_bots_fill_after_the_chosen_time(server: ServerProcess) -> None:
    cy = key()
    r = find(server, cy, players=3, pace="live", bots_after=1, name="Cy")
    assert r.status_code == 202 and r.json()["bots_after"] == 1
    got = seated(server, cy, r.json()["ticket"])
    assert got["seat"] == 0 and got["waited_ms"] >= 1000
    summary = fetch.get(f"{server.url}/api/rooms/{got['room_id']}", timeout=10).json()
    assert [s["bot"] for s in summary["seats"]] == [False, True, True]
    assert summary["status"] == "playing"


def test_cancel_and_bad_input(server: ServerProcess, database_url: str) -> None:
    dan, eve = key(), key()
    r = find(server, dan, players=4, name="Dan", bots_after=None)
    assert r.status_code == 202 and r.json()["pace"] == "live"
    tid = r.json()["ticket"]
    again = find(server, dan, players=2, name="Dan")
    assert again.status_code == 409 and again.json()["code"] == "already_queued"
    assert ticket(server, eve, tid).status_code == 404, "another's ticket is not found"
    assert ticket(server, eve, tid, "DELETE").status_code == 404
    assert ticket(server, dan, tid, "DELETE").status_code == 204
    assert ticket(server, dan, tid).status_code == 404
    assert ticket(server, dan, tid, "DELETE").status_code == 404
    assert sql(database_url, "SELECT count(*) FROM pairing_tickets") == [(0,)]

    bad: list[tuple[str | None, dict[str, Any], int]] = [
        (None, {"players": 2, "name": "X"}, 401),
        ("not a key", {"players": 2, "name": "X"}, 422),
        (eve, {"players": 7, "name": "X"}, 422),
        (eve, {"players": 1, "name": "X"}, 422),
        (eve, {"players": "2", "name": "X"}, 422),
        (eve, {"players": 2, "name": "X", "pace": "correspondence"}, 422),
        (eve, {"players": 2, "name": "X", "bots_after": -1}, 422),
        (eve, {"players": 2, "name": "X", "bots_after": 99999}, 422),
        (eve, {"players": 2, "name": "X", "colour": "red"}, 422),
        (eve, {"players": 2}, 422),
        (eve, {"players": 2, "name": ""}, 422),
    ]
    for player, body, status in bad:
        r = find(server, player, **body)
        assert r.status_code == status, (body, r.text)
        assert set(r.json()) == {"code", "message"} and r.json()["message"], r.text
    assert ticket(server, eve, "no/such").status_code == 404
    assert ticket(server, eve, "x" * 40).status_code == 422
    assert sql(database_url, "SELECT count(*) FROM pairing_tickets") == [(0,)]
    assert sql(database_url, "SELECT count(*) FROM rooms") == [(0,)]


def test_polls_from_both_processes_at_once_make_one_room(two_servers, database_url: str) -> None:  # type: ignore[no-untyped-def]
    """Both people poll both processes as fast as they can while the table forms."""
    a, b = two_servers
    fay, gus = key(), key()
    tf = find(a, fay, players=2, name="Fay", bots_after=None).json()["ticket"]
    tg_answer = find(b, gus, players=2, name="Gus", bots_after=None)
    tg = tg_answer.json()["ticket"]

    async def hammer() -> list[Any]:
        def poll(side: ServerProcess, who: str, t: str) -> Any:
            return ticket(side, who, t).json()

        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(8) as pool:
            jobs = [
                loop.run_in_executor(pool, poll, side, who, t)
                for side in (a, b)
                for who, t in ((fay, tf), (gus, tg))
                for _ in range(2)
            ]
            return await asyncio.gather(*jobs)

    answers = run_async(hammer())
    rooms = {x["room_id"] for x in answers if x["status"] == "matched"}
    assert len(rooms) <= 1
    final = seated(a, fay, tf)
    assert seated(b, gus, tg)["room_id"] == final["room_id"]
    assert sql(database_url, "SELECT count(*) FROM rooms") == [(1,)]


def test_an_account_and_a_player_key_are_paired(two_servers, database_url: str) -> None:  # type: ignore[no-untyped-def]
    """A signed-in person (cookie and CSRF token, on one process) and an anonymous one
    (player key, on the other) sit at one table; the seat is the account's."""
    a, b = two_servers
    ann = Browser(a)
    try:
        assert ann.register("annika").status_code == 201
        r = ann.http.post("/api/pairing", json={"players": 2, "bots_after": None})
        assert (r.status_code, r.json()["code"]) == (403, "csrf_failed"), r.text
        r = ann.post("/api/pairing", {"players": 2, "bots_after": None})
        assert r.status_code == 202, r.text
        mine = r.json()["ticket"]
        again = ann.post("/api/pairing", {"players": 3, "name": "Other"})
        assert again.status_code == 409 and again.json()["code"] == "already_queued"
        bo = key()
        theirs = find(b, bo, players=2, name="Bo", bots_after=None).json()["ticket"]
        bo_seat = seated(b, bo, theirs)

        def ann_matched() -> dict[str, Any] | None:
            got = ann.http.get(f"/api/pairing/{mine}").json()
            return got if got["status"] == "matched" else None

        ann_seat = wait_until(ann_matched, 30, interval=0.3, message="the account's ticket")
        assert ann_seat is not None
        assert ann_seat["room_id"] == bo_seat["room_id"]
        rows = sql(
            database_url,
            "SELECT s.name, a.username FROM seats s JOIN accounts a ON a.id = s.account_id "
            "WHERE s.room_id = :r",
            r=ann_seat["room_id"],
        )
        assert rows == [("annika", "annika")], "the account's username, its seat"
        assert [g["room_id"] for g in ann.games()] == [ann_seat["room_id"]]
    finally:
        ann.close()


def test_with_access_accounts_pairing_needs_an_account(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(
        database_url, env={"ACCESS": "accounts"}, log_path=tmp_path / "accounts.log"
    ).start()
    try:
        r = find(server, key(), players=2, name="Anon")
        assert (r.status_code, r.json()["code"]) == (401, "sign_in_required"), r.text
        cy = Browser(server)
        try:
            assert cy.register("cyrus").status_code == 201
            assert cy.post("/api/pairing", {"players": 2}).status_code == 202
        finally:
            cy.close()
        assert sql(database_url, "SELECT count(*) FROM pairing_tickets") == [(1,)]
    finally:
        server.stop()
