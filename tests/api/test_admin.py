"""The admin API against a real server: off without ADMIN_TOKEN_HASH, 401 without the
token or with a wrong one, rate limited after a few wrong ones, closing a room ends
it for the clients connected to it, and the room list is every room of the database
(finished, closed, not loaded since a restart), paged and searchable."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import pytest

from tests import fetch
from tests.conftest import run_async
from tests.server.harness import (
    ServerProcess,
    create_room,
    join,
    play_random,
    two_players,
    watch_until_finished,
)

TOKEN = "correct-horse-battery-staple-admin"
GOOD = {"Authorization": f"Bearer {TOKEN}"}


ADMIN_ENV = {"ADMIN_TOKEN_HASH": hashlib.sha256(TOKEN.encode()).hexdigest()}


@pytest.fixture
def admin_server(database_url: str, tmp_path) -> Iterator[ServerProcess]:  # type: ignore[no-untyped-def]
    proc = ServerProcess(database_url, env=ADMIN_ENV, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_without_a_token_hash_the_admin_api_and_page_are_not_there(server: ServerProcess) -> None:
    for path in ("/admin", "/api/admin/stats", "/api/admin/rooms"):
        r = fetch.get(server.url + path, headers=GOOD)
        assert r.status_code == 404 and r.json()["code"] == "not_found", path
    r = fetch.post(f"{server.url}/api/admin/rooms/{'a' * 32}/close", headers=GOOD)
    assert r.status_code == 404


WRONG: list[dict[str, str]] = [
    {},
    {"Authorization": "Bearer wrong"},
    {"Authorization": f"Basic {TOKEN}"},
    {"Authorization": f"Bearer {TOKEN}x"},
    {"Authorization": "Bearer"},
    {"Authorization": TOKEN},
]


def test_the_admin_api_refuses_a_missing_or_wrong_token(admin_server: ServerProcess) -> None:
    rid = create_room(admin_server.url, 2)["room_id"]
    for headers in WRONG[:3]:  # three calls each: 9 refusals, under the rate limit
        for method, path in (
            ("GET", "/api/admin/stats"),
            ("GET", "/api/admin/rooms"),
            ("POST", f"/api/admin/rooms/{rid}/close"),
        ):
            r = fetch.request(method, admin_server.url + path, headers=headers)
            assert r.status_code == 401, (headers, path, r.text)
            assert r.json()["code"] == "unauthorized" and r.json()["message"]
            assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert fetch.get(f"{admin_server.url}/api/rooms/{rid}").json()["closed"] is None
    assert fetch.get(admin_server.url + "/api/admin/stats", headers=GOOD).status_code == 200


def test_every_malformed_authorization_is_refused(admin_server: ServerProcess) -> None:
    for headers in WRONG:
        r = fetch.get(admin_server.url + "/api/admin/rooms", headers=headers)
        assert r.status_code == 401 and r.json()["code"] == "unauthorized", headers
    assert fetch.get(admin_server.url + "/admin").status_code == 200, "the page holds no secret"


def test_the_admin_page_has_the_game_pages_security_headers(admin_server: ServerProcess) -> None:
    """The page an admin token is pasted into may be neither framed by another site nor
    made to run a script from elsewhere: the same CSP and frame denial as the game's."""
    page = fetch.get(admin_server.url + "/admin")
    game = fetch.get(admin_server.url + "/")
    assert page.status_code == game.status_code == 200
    csp = page.headers["content-security-policy"]
    assert csp == game.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "default-src 'self'" in csp and "object-src 'none'" in csp
    assert page.headers["x-frame-options"] == game.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    assert page.headers["cache-control"] == "no-store"


def test_the_right_token_shows_the_rooms_connections_and_bot_load(
    admin_server: ServerProcess,
) -> None:
    async def scenario() -> None:
        rid, ann, bo = await two_players(admin_server)
        await play_random([ann, bo], 4, random.Random(1))
        stats = fetch.get(admin_server.url + "/api/admin/stats", headers=GOOD).json()
        assert stats["connections"] == 2 and stats["moves_committed"] == 4
        assert stats["rooms_in_memory"]["playing"] == 1
        assert stats["database"]["playing"] == 1 and stats["database"]["purged"] == 0
        assert stats["bots"]["thinking_total"] == 0 and stats["bots"]["strong_queued"] == 0
        rooms = fetch.get(admin_server.url + "/api/admin/rooms", headers=GOOD).json()["rooms"]
        [room] = [r for r in rooms if r["room_id"] == rid]
        assert room["status"] == "playing" and room["in_memory"] is True
        assert (room["match_no"], room["deal_no"]) == (1, 1)
        assert [s["name"] for s in room["seats"]] == ["Ann", "Bo"]
        live = room["live"]
        assert live["connections"] == 2 and [s["connections"] for s in live["seats"]] == [1, 1]
        assert live["bot_turn"] is False and room["closed"] is None
        none = fetch.get(admin_server.url + "/api/admin/rooms?status=waiting", headers=GOOD)
        assert [r for r in none.json()["rooms"] if r["room_id"] == rid] == []
        bad = fetch.get(admin_server.url + "/api/admin/rooms?status=gone", headers=GOOD)
        assert bad.status_code == 422 and bad.json()["code"] == "bad_request"
        for c in (ann, bo):
            await c.close()

    run_async(scenario())


async def close_ends_the_room(server: ServerProcess) -> None:
    rid, ann, bo = await two_players(server)
    await play_random([ann, bo], 4, random.Random(2))
    seq = ann.seq
    base = f"{server.url}/api/admin/rooms/{rid}/close"
    for body in ({"reason": 5}, {"reason": "x" * 201}, {"why": "no"}, [1]):
        r = fetch.post(base, headers=GOOD, json=body)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", body
    assert (
        fetch.post(f"{server.url}/api/admin/rooms/{'0' * 32}/close", headers=GOOD).status_code
        == 404
    )
    assert fetch.post(f"{server.url}/api/admin/rooms/nope/close", headers=GOOD).status_code == 422
    await ann.drain(0.2)
    assert ann.seq == seq, "refused requests changed nothing"

    r = fetch.post(base, headers=GOOD, json={"reason": "server maintenance"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished" and r.json()["closed"]["reason"] == "server maintenance"
    for c in (ann, bo):
        await c.wait_seq(seq + 1)
        assert c.view["status"] == "finished" and c.view["to_move"] is None
        assert c.view["closed"]["reason"] == "server maintenance" and c.view["legal"] == []
    # It can no longer be played, by anyone, and says why.
    hand = ann.view["hand"][0]
    err = await ann.play(hand, [])
    assert err["type"] == "error" and err["code"] == "closed"
    assert "server maintenance" in err["message"]
    await bo.ws.send('{"type": "rematch"}')
    err = await bo.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "closed"
    again = fetch.post(base, headers=GOOD)
    assert again.status_code == 409 and again.json()["code"] == "closed"
    summary = fetch.get(f"{server.url}/api/rooms/{rid}").json()
    assert summary["status"] == "finished" and summary["closed"]["reason"] == "server maintenance"
    await ann.drain(0.2)
    assert ann.seq == seq + 1, "only the close event was written"
    # A closed waiting room takes no more seats.
    waiting = create_room(server.url, 3)["room_id"]
    assert (
        fetch.post(
            f"{server.url}/api/admin/rooms/{waiting}/close", headers=GOOD, json={}
        ).status_code
        == 200
    )
    r = fetch.post(f"{server.url}/api/rooms/{waiting}/seats", json={"name": "Cy"})
    assert r.status_code == 409 and r.json()["code"] == "closed"
    for c in (ann, bo):
        await c.close()


def test_closing_a_room_ends_it_for_its_connected_clients(admin_server: ServerProcess) -> None:
    run_async(close_ends_the_room(admin_server))


def test_wrong_tokens_are_rate_limited_even_before_the_right_one(
    admin_server: ServerProcess,
) -> None:
    url = admin_server.url + "/api/admin/stats"
    codes = [
        fetch.get(url, headers={"Authorization": f"Bearer guess{i}"}).status_code for i in range(12)
    ]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]
    limited = fetch.get(url, headers=GOOD)
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) > 0
    metrics = fetch.get(admin_server.url + "/metrics").text
    assert 'krypkasino_rate_limited_total{kind="admin_token"} 3.0' in metrics


def test_join_of_a_full_room_still_works_as_before(admin_server: ServerProcess) -> None:
    """The closed-room checks leave the ordinary refusals alone."""
    rid = create_room(admin_server.url, 2)["room_id"]
    join(admin_server.url, rid, "Bo")
    r = fetch.post(f"{admin_server.url}/api/rooms/{rid}/seats", json={"name": "Cy"})
    assert r.status_code == 409 and r.json()["code"] == "room_full"


def _rooms(base: str, query: str = "") -> dict:  # type: ignore[type-arg]
    r = fetch.get(f"{base}/api/admin/rooms{query}", headers=GOOD)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_the_list_holds_every_stored_room_after_a_restart(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Rooms a server finished, closed or left waiting are listed, found and paged by
    the next server on the same database, which has loaded none of them."""
    first = ServerProcess(database_url, env=ADMIN_ENV, log_path=tmp_path / "a.log").start()
    try:
        done = create_room(
            first.url,
            2,
            bots=1,
            name="Zed Finisher",
            rules={"single_pack": True, "match_deals": 1},
            grace=0,
            bot_delay=0,
        )
        watch_until_finished(first.url, done["room_id"])
        waiting = create_room(first.url, 3, name="Wanda")
        shut = create_room(first.url, 3, name="Cleo")
        close = f"{first.url}/api/admin/rooms/{shut['room_id']}/close"
        assert fetch.post(close, headers=GOOD, json={"reason": "test"}).status_code == 200
    finally:
        first.stop()

    second = ServerProcess(database_url, env=ADMIN_ENV, log_path=tmp_path / "b.log").start()
    try:
        base = second.url
        listed = _rooms(base)
        assert listed["total"] == 3 and listed["next_offset"] is None
        by_id = {r["room_id"]: r for r in listed["rooms"]}
        newest_first = [shut["room_id"], waiting["room_id"], done["room_id"]]
        assert [r["room_id"] for r in listed["rooms"]] == newest_first
        assert all(r["in_memory"] is False and r["live"] is None for r in listed["rooms"])
        finished = by_id[done["room_id"]]
        assert finished["status"] == "finished" and finished["match_no"] == 1
        assert finished["deal_no"] == 1 and finished["seats"][0]["name"] == "Zed Finisher"
        assert finished["seats"][1]["bot"] is True
        assert by_id[waiting["room_id"]]["status"] == "waiting"
        assert by_id[shut["room_id"]]["status"] == "closed"
        assert by_id[shut["room_id"]]["closed"]["reason"] == "test"

        def found(query: str) -> list[str]:
            return [r["room_id"] for r in _rooms(base, query)["rooms"]]

        assert found("?q=finisher") == [done["room_id"]], "by a part of a name"
        assert found(f"?q={waiting['code'].lower()}") == [waiting["room_id"]], "by code"
        assert found(f"?q={shut['room_id'][:10]}") == [shut["room_id"]], "by id"
        assert found("?q=%25") == [] and found("?q=_") == [], "wildcards are literal"
        assert found("?status=finished") == [done["room_id"]]
        assert found("?status=closed") == [shut["room_id"]]
        assert found("?status=waiting&q=wanda") == [waiting["room_id"]]

        one, two = _rooms(base, "?limit=2"), _rooms(base, "?limit=2&offset=2")
        assert one["next_offset"] == 2 and two["next_offset"] is None
        assert [r["room_id"] for r in one["rooms"] + two["rooms"]] == newest_first

        # Asking for a room loads it into this process: the list then says so.
        assert fetch.get(f"{base}/api/rooms/{waiting['room_id']}").status_code == 200
        [loaded] = _rooms(base, f"?q={waiting['code']}")["rooms"]
        assert loaded["in_memory"] is True and loaded["live"]["connections"] == 0
    finally:
        second.stop()


BAD_QUERIES = (
    "?status=gone",
    "?limit=0",
    "?limit=101",
    "?limit=x",
    "?offset=-1",
    "?q=" + "a" * 101,
)


def test_a_bad_list_query_is_refused_with_a_code(admin_server: ServerProcess) -> None:
    for query in BAD_QUERIES:
        r = fetch.get(f"{admin_server.url}/api/admin/rooms{query}", headers=GOOD)
        assert r.status_code == 422, (query, r.text)
        assert r.json()["code"] == "bad_request" and r.json()["message"], query
