"""app/limits/headers.py in a real uvicorn server (in this process, on a thread):
the header clock and what it must not cut off.  The many-sockets case against
``krypkasino serve`` is in tests/server/test_http_limits.py."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from app.limits.headers import HeaderTimeoutProtocol, protocol_class
from tests.server.harness import free_port

TIMEOUT = 0.3
WAIT = 30.0


async def app(scope: Any, receive: Any, send: Any) -> None:
    """/slow answers after three header timeouts; anything else at once."""
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":
        await asyncio.sleep(3 * TIMEOUT)
    body = scope["path"].encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_config=None,
        lifespan="off",
        http=protocol_class(TIMEOUT),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.01)
    yield port
    server.should_exit = True
    thread.join(WAIT)


def read_to_end(s: socket.socket) -> bytes:
    data = b""
    while block := s.recv(65536):
        data += block
    return data


def test_the_class_carries_its_timeout() -> None:
    cls = protocol_class(2.5)
    assert issubclass(cls, HeaderTimeoutProtocol) and cls.header_timeout == 2.5


def test_a_silent_connection_is_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
        assert read_to_end(s) == b""


def test_the_clock_stops_for_a_slow_answer_and_a_pipelined_request_behind_it(port: int) -> None:
    """The second request is half sent while the first takes three timeouts to answer:
    the first is answered in full (not cut off), then the half-sent one is closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
        s.sendall(b"GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /next HTTP/1.1\r\nHo")
        answer = read_to_end(s)
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"/slow"), answer
    assert answer.count(b"HTTP/1.1") == 1


def test_a_slow_answer_on_complete_headers_is_not_timed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
        s.sendall(b"GET /slow HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert read_to_end(s).endswith(b"/slow")
