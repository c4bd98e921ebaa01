"""The lobby's list of public rooms (issue 12): open seats and live games, paginated;
private rooms never appear; the list has its own per-address rate limit."""

from __future__ import annotations

import httpx

from tests import fetch
from tests.conftest import run_async

from .harness import Client, ServerProcess, create_room


def listing(server: ServerProcess, **params: object) -> httpx.Response:
    return fetch.get(f"{server.url}/api/rooms/public", params=params, timeout=10)


def test_public_rooms_are_listed_newest_first_a_page_at_a_time(server: ServerProcess) -> None:
    made = [create_room(server.url, 3, public=True)["room_id"] for _ in range(3)]
    private = create_room(server.url, 3)["room_id"]
    first = listing(server, kind="open", limit=2).json()
    assert [r["room_id"] for r in first["rooms"]] == made[::-1][:2]
    assert first["next"]
    second = listing(server, kind="open", limit=2, cursor=first["next"]).json()
    assert [r["room_id"] for r in second["rooms"]] == [made[0]]
    assert second["next"] is None
    entry = second["rooms"][0]
    assert entry["players"] == 3 and entry["free_seats"] == 2 and entry["status"] == "waiting"
    assert entry["seats"][0]["name"] == "Ann" and entry["spectators"] == 0
    everything = [r["room_id"] for r in listing(server, kind="open", limit=50).json()["rooms"]]
    assert private not in everything
    assert listing(server, kind="live").json()["rooms"] == []
    for bad in ({"cursor": "nonsense"}, {"kind": "secret"}, {"limit": 0}):
        r = listing(server, **bad)
        assert r.status_code == 422 and r.json()["code"] == "bad_request", bad


async def live_game(server: ServerProcess) -> None:
    room = create_room(server.url, 2, bots=1, public=True, bot_delay=5)
    rid = room["room_id"]
    me = await Client(server.ws_url, rid, room["token"]).connect()
    await me.wait_for(lambda m: m["type"] == "snapshot")
    watcher = await Client(server.ws_url, rid, None).connect()
    await me.wait_for(lambda m: m["type"] == "presence" and m.get("watching") == 1)
    live = listing(server, kind="live").json()["rooms"]
    assert [r["room_id"] for r in live] == [rid]
    assert live[0]["deal_no"] == 1 and live[0]["spectators"] == 1
    assert [s["bot"] for s in live[0]["seats"]] == [False, True]
    assert rid not in [r["room_id"] for r in listing(server, kind="open").json()["rooms"]]
    for c in (me, watcher):
        await c.close()


def test_live_public_games_show_deal_and_spectators(server: ServerProcess) -> None:
    run_async(live_game(server))


def test_the_public_list_is_rate_limited_per_address(database_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server = ServerProcess(
        database_url, env={"PUBLIC_LIST_PER_MINUTE": "3"}, log_path=tmp_path / "server.log"
    ).start()
    try:
        codes = [listing(server).status_code for _ in range(4)]
        assert codes[:3] == [200, 200, 200]
        refused = listing(server)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
    finally:
        server.stop()
