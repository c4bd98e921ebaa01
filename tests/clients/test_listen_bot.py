"""The example bot in listen mode (issue 51): started with a bot account's token and
``--listen`` (no room), it waits on its event stream.  A person makes a room and
seats it by name; the stream tells it the game, it takes the seat with hello
``own`` and plays the match to the end.  Two example bots listening, one accepting
challenges: the other's token challenges it, both play the room made for them."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests import fetch
from tests.clients.outside import BotProcess, play_as_creator
from tests.conftest import run_async
from tests.server.harness import Client, ServerProcess, create_room
from tests.waiting import wait_until


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    return shared_server


def bot_account(server: ServerProcess) -> tuple[str, str]:
    """A new bot account's name and ``bot:play`` token, made as its browser makes them."""
    with httpx.Client(base_url=server.url, headers={"Origin": server.url}, timeout=20) as web:
        name = f"lis_{secrets.token_hex(3)}"
        r = web.post("/api/auth/register", json={"username": name, "password": "corr3ct horse!"})
        assert r.status_code == 201, r.text
        csrf = {"X-CSRF-Token": r.json()["csrf"]}
        assert web.post("/api/me/bot", headers=csrf).status_code == 200
        r = web.post("/api/tokens", json={"name": "listen", "scopes": ["bot:play"]}, headers=csrf)
        assert r.status_code == 201, r.text
        return name, str(r.json()["token"])


def when_online(server: ServerProcess, bot: BotProcess, act: Callable[[], httpx.Response]) -> Any:
    """``act`` (a request that needs the bot online) once the bot's stream is open: a
    refusal ``bot_offline`` changes nothing, so it is asked again until it passes."""

    def tried() -> httpx.Response | None:
        assert bot.proc.poll() is None, f"the bot exited:\n{bot.log()}"
        r = act()
        if r.status_code == 409 and r.json()["code"] == "bot_offline":
            return None
        assert r.status_code in (200, 201), r.text
        return r

    return wait_until(tried, 60, 0.1, "the bot's stream to open").json()


def test_a_listening_bot_is_seated_by_name_and_plays_the_match(
    server: ServerProcess, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    name, token = bot_account(server)
    bot = BotProcess("random_bot.py", server.url, None, tmp_path, "--listen", "--games", "1",
                     "--token", token)  # fmt: skip
    try:
        room = create_room(server.url, 2, rules={"match_deals": 1}, grace=120)
        rid = room["room_id"]
        body = {"name": name, "token": room["token"]}
        seated = when_online(
            server, bot, lambda: httpx.post(f"{server.url}/api/rooms/{rid}/bots", json=body)
        )
        assert seated == {"room_id": rid, "seat": 1, "name": name}

        async def scenario() -> dict[str, Any]:
            me = await Client(server.ws_url, rid, room["token"]).connect()
            try:
                await play_as_creator(me, bot, random.Random(7))
            finally:
                await me.close()
            return await bot.finished()

        summary = run_async(scenario())
    finally:
        bot.stop()
    assert (summary["room_id"], summary["status"], summary["seat"]) == (rid, "finished", 1)
    assert summary["errors"] == [] and summary["plays"] > 10
    final = fetch.get(f"{server.url}/api/rooms/{rid}", timeout=10).json()
    assert final["status"] == "finished" and final["seats"][1]["name"] == name


def test_two_listening_bots_play_the_room_a_challenge_made(server: ServerProcess, tmp_path) -> None:  # type: ignore[no-untyped-def]
    host, host_token = bot_account(server)
    guest, guest_token = bot_account(server)
    common = ("--listen", "--games", "1")
    accepting = BotProcess("random_bot.py", server.url, None, tmp_path, *common,
                           "--accept-challenges", "--name", "A", "--token", host_token)  # fmt: skip
    challenger = BotProcess("random_bot.py", server.url, None, tmp_path, *common,
                            "--name", "B", "--token", guest_token)  # fmt: skip
    try:
        auth = {"Authorization": f"Bearer {guest_token}"}
        body = {"opponent": host, "players": 2, "rules": {"match_deals": 1}}
        when_online(
            server,
            accepting,
            lambda: httpx.post(f"{server.url}/api/bot/challenges", json=body, headers=auth),
        )

        async def both() -> list[dict[str, Any]]:
            return [await challenger.finished(120), await accepting.finished(120)]

        ours, theirs = run_async(both())
    finally:
        accepting.stop()
        challenger.stop()
    assert ours["room_id"] == theirs["room_id"]
    assert (ours["seat"], theirs["seat"]) == (0, 1), "the challenger in seat 0"
    assert ours["status"] == theirs["status"] == "finished"
    final = fetch.get(f"{server.url}/api/rooms/{ours['room_id']}", timeout=10).json()
    assert [s["name"] for s in final["seats"]] == [guest, host]
