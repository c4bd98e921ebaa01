"""HEADER_TIMEOUT: a client has so long to send its request headers, then it is cut off.

uvicorn has no such timeout: a client that connects and sends half a request line
(or nothing) is held for ever, and a few hundred of them hold as many sockets and
file descriptors (slowloris).  This is uvicorn's httptools protocol with one timer
per connection:

- started when the connection is made, and again at the first byte of each later
  request on a kept-alive connection (httptools' ``on_message_begin``);
- cancelled when that request's headers are complete (``on_headers_complete``),
  so a request body, the application's work and WebSocket connections are not
  timed by it;
- on expiry the connection is closed, unless a response to an earlier request on
  it is still being made (pipelining): then the clock starts again.

Idle kept-alive connections between requests are uvicorn's own
``timeout_keep_alive`` (IDLE_TIMEOUT).  ``krypkasino serve`` passes this class
as ``uvicorn.Config(http=...)``, so there is no fallback to the h11
implementation: httptools is a dependency of the package.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes connections whose request headers do not arrive
    within ``header_timeout`` seconds."""

    header_timeout: float = 10.0

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],  # uvicorn's own type
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._header_timer: asyncio.TimerHandle | None = None

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            # A pipelined request waits for the one before it: not the client's fault.
            self._start_header_timer()
            return
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:  # the first request keeps the connection's deadline
            self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)


def protocol_class(header_timeout: float) -> type[HeaderTimeoutProtocol]:
    """A HeaderTimeoutProtocol subclass with this timeout (uvicorn makes the instances)."""
    return type(
        "HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": header_timeout}
    )
