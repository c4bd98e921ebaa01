"""Pure ASGI middleware that handles HTTP requests and adds nothing to a WebSocket's
life.

A middleware written as ``async def __call__`` that hands a WebSocket on with
``await self.app(...)`` keeps its own coroutine frame alive for as long as the socket
is open, which at a card table is hours: 250 to 550 bytes each, about 2 KB of every
idle socket for the six of ours (measured with tracemalloc; docs/benchmarks.md,
"Session 37").  Here ``__call__`` is a plain function: for a scope the middleware
leaves alone it returns the application's own awaitable, so no frame of this layer
exists while that awaitable runs, and for the rest it returns ``handle``'s coroutine.
ASGI servers and Starlette only ``await`` what an application returns, so the two
are the same to them.
"""

from __future__ import annotations

from collections.abc import Awaitable

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpMiddleware:
    """Base of a pure ASGI middleware: ``handle`` sees the scopes ``passes`` does not
    let straight through (by default: everything but HTTP requests passes)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def passes(self, scope: Scope) -> bool:
        """Whether ``scope`` goes straight to the application, untouched and frameless."""
        return bool(scope["type"] != "http")

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if self.passes(scope):
            return self.app(scope, receive, send)
        return self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """What the middleware does with a scope it does not pass."""
        raise NotImplementedError
