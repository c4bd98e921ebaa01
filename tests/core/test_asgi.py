"""A WebSocket carries no frame of our middleware for its life (app/core/asgi.py).

Each frame kept by a middleware that awaited the application cost an idle socket
250 to 550 bytes; six of them were about 2 KB of every socket a table keeps open.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable
from pathlib import Path

from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from app.config import Settings
from app.core.asgi import HttpMiddleware
from app.main import create_app
from tests.conftest import run_async

APP = str(Path(__file__).resolve().parents[2] / "app") + "/"


def test_a_scope_that_passes_gets_the_applications_own_awaitable() -> None:
    handled: list[str] = []
    awaitables: list[Awaitable[None]] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        handled.append("inner " + scope["type"])

    def app(scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        awaitables.append(inner(scope, receive, send))
        return awaitables[-1]

    class Noting(HttpMiddleware):
        async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
            handled.append("handled " + scope["type"])
            await self.app(scope, receive, send)

    async def receive() -> dict[str, str]:
        return {}

    async def send(message: object) -> None:
        return None

    middleware = Noting(app)
    passed = middleware({"type": "websocket"}, receive, send)
    assert passed is awaitables[0], "the application's awaitable itself, no layer around it"
    run_async(passed)
    run_async(middleware({"type": "http"}, receive, send))
    assert handled == ["inner websocket", "handled http", "inner http"]


def test_a_websocket_through_the_whole_application_holds_no_frame_of_app() -> None:
    """The server's own stack (every middleware it installs): from inside a WebSocket
    endpoint, the chain of frames awaiting it reaches Starlette but nothing of app/."""
    app = create_app(Settings())
    chains: list[list[str]] = []

    async def endpoint(ws: WebSocket) -> None:
        frame = sys._getframe(1)
        chain = []
        while frame is not None:
            chain.append(frame.f_code.co_filename)
            frame = frame.f_back
        chains.append(chain)
        await ws.accept()
        await ws.close()

    app.add_api_websocket_route("/ws/frames", endpoint)
    sent: list[str] = []

    async def receive() -> dict[str, str]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(str(message["type"]))

    scope = {
        "type": "websocket",
        "path": "/ws/frames",
        "raw_path": b"/ws/frames",
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "scheme": "ws",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 40000),
        "subprotocols": [],
    }
    run_async(app(scope, receive, send))
    assert sent == ["websocket.accept", "websocket.close"]
    [chain] = chains
    assert any("/starlette/" in name for name in chain), "the walk reaches the stack"
    assert [name for name in chain if name.startswith(APP)] == []
