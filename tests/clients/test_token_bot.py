"""The example bot with a personal access token (issue 51): a person signs up, makes
the account a bot account and a ``bot:play`` token; the example, given ``--token``,
sends it as ``Authorization: Bearer`` on its HTTP calls and its WebSocket, and plays
the match.  A token the server does not know ends the example at once with the
server's reason (exit 1), and takes no seat."""

from __future__ import annotations

import random
import secrets

import httpx
import pytest

from tests import fetch
from tests.clients.outside import BotProcess, play_as_creator
from tests.conftest import run_async
from tests.server.harness import Client, ServerProcess, create_room


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    return shared_server


def _bot_token(server: ServerProcess) -> str:
    """A ``bot:play`` token of a new bot account, made as its browser makes it."""
    with httpx.Client(base_url=server.url, headers={"Origin": server.url}, timeout=20) as web:
        name = f"robo_{secrets.token_hex(3)}"
        r = web.post("/api/auth/register", json={"username": name, "password": "corr3ct horse!"})
        assert r.status_code == 201, r.text
        csrf = {"X-CSRF-Token": r.json()["csrf"]}
        r = web.post("/api/me/bot", headers=csrf)
        assert r.status_code == 200, r.text
        r = web.post("/api/tokens", json={"name": "example", "scopes": ["bot:play"]}, headers=csrf)
        assert r.status_code == 201, r.text
        token: str = r.json()["token"]
    assert token.startswith("kkp_")
    return token


def test_the_example_plays_with_a_personal_access_token(server: ServerProcess, tmp_path) -> None:
    token = _bot_token(server)
    room = create_room(server.url, 2, rules={"match_deals": 1}, grace=120)
    bot = BotProcess("random_bot.py", server.url, room["code"], tmp_path, "--token", token)

    async def scenario() -> dict:
        me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
        try:
            await play_as_creator(me, bot, random.Random(4))
        finally:
            await me.close()
        return await bot.finished()

    try:
        summary = run_async(scenario())
    finally:
        bot.stop()
    assert (summary["status"], summary["seat"], summary["errors"]) == ("finished", 1, [])
    assert summary["plays"] > 10


def test_an_unknown_token_stops_the_example_before_it_takes_a_seat(
    server: ServerProcess, tmp_path
) -> None:
    room = create_room(server.url, 2, rules={"match_deals": 1})
    bogus = "kkp_" + "A" * 43
    bot = BotProcess("random_bot.py", server.url, room["room_id"], tmp_path, "--token", bogus)
    try:
        code = bot.proc.wait(60)
    finally:
        bot.stop()
    assert code == 1, bot.log()
    assert "bad_token" in bot.log() and "Traceback" not in bot.log()
    assert bot.out.read_text() == ""
    summary = fetch.get(f"{server.url}/api/rooms/{room['room_id']}", timeout=10).json()
    assert summary["status"] == "waiting" and summary["seats"][1]["name"] is None
