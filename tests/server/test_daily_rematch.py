"""No rematch in the deal of the day (issue 47, finding 12), against a real server on
SQLite and PostgreSQL.  Before, the finished deal's Rematch started a "Match 2" against
the day's strong bots in the daily room, a game off the record that the results never
show.  Now the server refuses it (``no_rematch``, nothing written) whatever a client
sends, and the view says the room is a challenge (``options.challenge``) so that the
page offers no Rematch at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_async

from .daily_play import first_legal, play_out, start_daily
from .harness import Client, ServerProcess, create_room, fresh_snapshot
from .test_review import send


@pytest.fixture
def daily_server(database_url: str, tmp_path: Path) -> Any:
    env = {"DAILY_BOT_WORLDS": "4", "DAILY_PLAYERS": "3"}
    proc = ServerProcess(database_url, env=env, log_path=tmp_path / "server.log").start()
    try:
        yield proc
    finally:
        proc.stop()


async def _finished(server: ServerProcess, room: dict[str, Any]) -> None:
    """Until the room's one deal is over and its match finished (V8)."""
    c = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    try:
        await c.wait_until(lambda: c.view is not None and c.view["status"] == "finished")
    finally:
        await c.close()


async def _ask_rematch(server: ServerProcess, room: dict[str, Any]) -> None:
    seq, view = await fresh_snapshot(server, room["room_id"], room["token"])
    assert view["status"] == "finished" and view["match_no"] == 1
    assert view["options"]["challenge"] is True
    c = await Client(server.ws_url, room["room_id"], room["token"]).connect()
    try:
        await c.wait_for(lambda m: m["type"] == "snapshot")
        for i in range(2):  # an offer, then (had one opened) its acceptance
            await send(c, type="rematch")
            await c.wait_until(lambda n=i: len(c.errors) > n or c.view["match_no"] > 1)
            assert c.view["match_no"] == 1, "the rematch started a Match 2"
            assert c.errors[i]["code"] == "no_rematch", c.errors
    finally:
        await c.close()
    after_seq, after = await fresh_snapshot(server, room["room_id"], room["token"])
    assert after_seq == seq, "a refused rematch writes nothing"
    assert after["match_no"] == 1 and after["rematch"] is None and after["status"] == "finished"


def test_the_deal_of_the_day_refuses_a_rematch(daily_server: ServerProcess) -> None:
    r = start_daily(daily_server.url, 3, "ann")
    assert r.status_code == 201, r.text
    room = r.json()
    run_async(play_out(daily_server, room, first_legal))
    run_async(_finished(daily_server, room))
    run_async(_ask_rematch(daily_server, room))


def test_any_other_room_is_no_challenge(daily_server: ServerProcess) -> None:
    room = create_room(daily_server.url, 2, bots=1)
    _, view = run_async(fresh_snapshot(daily_server, room["room_id"], room["token"]))
    assert view["options"]["challenge"] is False
