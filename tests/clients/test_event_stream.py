"""The client's reader of the bot event stream (clients/python, ``EventStream``)
against a real server: it yields the ``game`` of a room the bot was seated in; when
its connection is cut (a TCP proxy between it and the server resets every
connection), it opens the stream again and is told the live game again; a token the
server refuses ends it with ``ApiError`` rather than retrying forever."""

from __future__ import annotations

import queue
import threading

import httpx
import pytest
from krypkasino_client import ApiError, EventStream
from krypkasino_client.jsontypes import JsonMap

from tests.clients.test_listen_bot import bot_account
from tests.server.harness import ServerProcess, create_room
from tests.server.proxy import TcpProxy
from tests.waiting import wait_until


@pytest.fixture(scope="module")
def server(shared_server: ServerProcess) -> ServerProcess:
    return shared_server


def reading(stream: EventStream) -> queue.Queue[JsonMap | Exception]:
    """The stream's events (or the error that ended it), read on a thread."""
    got: queue.Queue[JsonMap | Exception] = queue.Queue()

    def read() -> None:
        try:
            for event in stream.events():
                got.put(event)
        except Exception as exc:  # noqa: BLE001 - handed to the test
            got.put(exc)

    threading.Thread(target=read, daemon=True).start()
    return got


def test_the_stream_is_read_again_after_its_connection_is_cut(server: ServerProcess) -> None:
    name, token = bot_account(server)
    proxy = TcpProxy("127.0.0.1", server.port).start()
    stream = EventStream(f"http://127.0.0.1:{proxy.port}", token)
    try:
        got = reading(stream)
        room = create_room(server.url, 2, rules={"match_deals": 1})
        body = {"name": name, "token": room["token"]}

        def seated() -> bool:
            r = httpx.post(f"{server.url}/api/rooms/{room['room_id']}/bots", json=body)
            assert r.status_code in (201, 409), r.text
            return r.status_code == 201

        wait_until(seated, 30, 0.1, "the bot's stream to open")
        first = got.get(timeout=30)
        assert first == {"type": "game", "room_id": room["room_id"], "seat": 1,
                         "code": room["code"]}  # fmt: skip
        assert stream.opened == 1
        proxy.stop()  # every connection reset, as a network that went away
        proxy.start()
        again = got.get(timeout=60)
        assert again == first, "a new stream tells the live game again"
        assert stream.opened >= 2
    finally:
        stream.stop()
        proxy.stop()


def test_a_refused_token_ends_the_stream_with_the_servers_reason(server: ServerProcess) -> None:
    stream = EventStream(server.url, "kkp_" + "B" * 43)
    error = reading(stream).get(timeout=30)
    assert isinstance(error, ApiError)
    assert (error.status, error.code) == (401, "bad_token")
