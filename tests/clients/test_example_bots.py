"""The example bots of clients/python, run as real processes against a real server.

A three-seat room: the test plays the creator's seat through the harness's client
(random legal moves, Continue between deals), one seat is the server's own bot, and
the example takes the third seat itself from the room's code or invite link.  The
match has two deals and a long pause between them (300 s): it ends within the test's
waits only if the example says Continue too.  Each test waits on events (the room's
messages, the process's exit), never on the clock.
"""

from __future__ import annotations

import random

import pytest

from tests import fetch
from tests.clients.outside import BotProcess, play_as_creator, seat_plays
from tests.conftest import run_async
from tests.server.harness import Client, ServerProcess, create_room
from tests.server.proxy import TcpProxy

DEALS = 2


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    return shared_server


def _room(server: ServerProcess) -> dict:
    return create_room(
        server.url, 3, bots=1, rules={"match_deals": DEALS}, deal_pause=300, grace=120
    )


def _bot_seat(view: dict, name: str) -> int:
    (seat,) = [s["seat"] for s in view["seats"] if s["name"] == name]
    assert not view["seats"][seat]["bot"], "an outside bot's seat is a player's seat"
    return seat


def _check_match(server: ServerProcess, room: dict, summary: dict, seat: int) -> None:
    """The room is finished, the bot saw no error, and every play of its seat in the
    stored records is its own (none made by the server's clock or stand-in)."""
    rid = room["room_id"]
    assert fetch.get(f"{server.url}/api/rooms/{rid}", timeout=10).json()["status"] == "finished"
    assert summary["errors"] == [], summary["errors"]
    assert (summary["room_id"], summary["seat"], summary["status"]) == (rid, seat, "finished")
    assert summary["deal_no"] == DEALS and len(summary["cumulative"]) == 3
    plays = seat_plays(server.url, rid, seat, DEALS)
    assert len(plays) >= 20, "about a third of two deals' plays"
    assert all("by" not in p for p in plays), [p for p in plays if "by" in p]
    assert summary["plays"] == len(plays), "one acknowledged play per turn, no more"
    assert summary["fallbacks"] == 0


def test_the_random_example_takes_a_seat_and_plays_a_whole_match(
    server: ServerProcess, tmp_path
) -> None:
    room = _room(server)
    bot = BotProcess("random_bot.py", server.url, room["code"].lower(), tmp_path, "--name", "Randy")

    async def scenario() -> tuple[dict, dict]:
        me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
        try:
            view = await play_as_creator(me, bot, random.Random(1))
        finally:
            await me.close()
        return view, await bot.finished()

    try:
        view, summary = run_async(scenario())
    finally:
        bot.stop()
    seat = _bot_seat(view, "Randy")
    _check_match(server, room, summary, seat)
    assert summary["cumulative"] == view["cumulative"] and summary["winners"] == view["winners"]
    assert (summary["connections"], summary["snapshots"]) == (1, 1)


def test_the_strong_example_plays_a_whole_match(server: ServerProcess, tmp_path) -> None:
    room = _room(server)
    link = f"{server.url}/r/{room['room_id']}"
    argv = ("--name", "Sterling", "--budget", "0.05", "--seed", "3")
    bot = BotProcess("strong_bot.py", server.url, link, tmp_path, *argv)

    async def scenario() -> tuple[dict, dict]:
        me = await Client(server.ws_url, room["room_id"], room["token"]).connect()
        try:
            view = await play_as_creator(me, bot, random.Random(2), timeout=120)
        finally:
            await me.close()
        return view, await bot.finished()

    try:
        view, summary = run_async(scenario())
    finally:
        bot.stop()
    _check_match(server, room, summary, _bot_seat(view, "Sterling"))


def test_the_bot_resumes_after_its_connection_is_cut_mid_deal(
    server: ServerProcess, tmp_path
) -> None:
    """Between the bot and the server, a TCP proxy is stopped (every connection reset,
    new ones refused) once the bot has played a few times; the test plays on while the
    bot is away, then starts the proxy again: the bot comes back with its last seq, is
    sent what it missed, and plays the rest of the match itself."""
    room = _room(server)
    proxy = TcpProxy("127.0.0.1", server.port).start()
    bot = BotProcess("random_bot.py", f"http://127.0.0.1:{proxy.port}", room["code"], tmp_path)
    cut = False

    async def scenario() -> tuple[dict, dict]:
        me = await Client(server.ws_url, room["room_id"], room["token"]).connect()

        async def cut_once(view: dict) -> bool:
            nonlocal cut
            seat = _bot_seat(view, "Randy")
            if cut or sum(p["seat"] == seat for p in view["log"]) < 3:
                return False
            cut = True
            proxy.stop()
            await me.wait_until(lambda: me.presence is not None and not me.presence[seat])
            move = view["legal"][0]  # played while the bot is away: a patch it missed
            assert (await me.play(move["card"], move["take"]))["type"] == "ack"
            proxy.start()
            return True

        try:
            view = await play_as_creator(me, bot, random.Random(3), each_turn=cut_once)
        finally:
            await me.close()
        return view, await bot.finished()

    try:
        view, summary = run_async(scenario())
    finally:
        bot.stop()
        proxy.stop()
    assert cut, "the connection was cut mid-deal"
    _check_match(server, room, summary, _bot_seat(view, "Randy"))
    assert summary["connections"] >= 2 and summary["reconnects"] >= 1
    assert summary["snapshots"] == 1, "it resumed from its last seq: patches, no snapshot"
