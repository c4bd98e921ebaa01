"""A bot account's seat marked where no badge of the table stands beside it (issue 51):
the room's history names it "(Bot account)" in the head of its column, the replay of a
deal shows the badge beside its hand.  The bot takes its seat with its token over
HTTP and plays over the WebSocket from Python; the person's seat too; the pages are
then opened in Chromium."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.clients.test_listen_bot import bot_account
from tests.conftest import run_async
from tests.server.harness import Client, create_room, settle_turn
from tests.server.token_people import bearer

pytestmark = pytest.mark.browser


def played_room(server: Any) -> tuple[str, str]:
    """A finished one-deal room of a person (seat 0) and a bot account (seat 1)."""
    url = server.url
    name, token = bot_account(server)
    room = create_room(url, 2, rules={"match_deals": 1, "single_pack": True})
    rid = room["room_id"]
    taken = httpx.post(f"{url}/api/rooms/{rid}/seats", json={"name": name},
                       headers=bearer(token), timeout=10)  # fmt: skip
    assert taken.status_code == 201, taken.text
    ws_url = url.replace("http://", "ws://", 1)

    async def play_out() -> None:
        person = await Client(ws_url, rid, room["token"]).connect()
        bot = await Client(ws_url, rid, taken.json()["token"], bearer(token)).connect()
        for client in (person, bot):
            await client.wait_for(lambda m: m["type"] == "snapshot")
        while (view := await settle_turn([person, bot]))["status"] != "finished":
            mover = (person, bot)[view["to_move"]]
            move = mover.view["legal"][0]
            assert (await mover.play(move["card"], move["take"]))["type"] == "ack"
        for client in (person, bot):
            await client.close()

    run_async(play_out())
    return rid, name


def test_the_history_and_the_replay_mark_a_bot_accounts_seat(new_page, server) -> None:
    rid, name = played_room(server)
    page: Any = new_page()
    page.goto(f"/r/{rid}/history")
    heads = page.locator("[data-testid=history-seat]")
    heads.first.wait_for()
    assert heads.nth(0).text_content() == "Ann"
    assert heads.nth(1).text_content() == f"{name} (Bot account)"
    page.goto(f"/r/{rid}/replay/1/1")
    hand = page.locator("[data-testid=replay-hand][data-seat='1']")
    hand.wait_for()
    assert hand.locator("[data-testid=outside-bot]").count() == 1
    other = page.locator("[data-testid=replay-hand][data-seat='0']")
    assert other.locator("[data-testid=outside-bot]").count() == 0
    assert page.errors == []
