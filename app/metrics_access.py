"""Who may read /metrics: only the callers of a separate listener, or only callers with a
token, and anyone only when the host opts in (METRICS_PUBLIC).

Metrics tell an outsider how many games run, how busy the bots are and which limits
turn people away: worth keeping to one's monitoring.  So with none of the three
settings, /metrics answers 404 on the main port (with a message naming them).

``METRICS_PORT``: ``krypkasino serve`` opens a second socket on METRICS_HOST:METRICS_PORT
(``app/cli.py``) that serves the same application; this middleware tells the two apart
by the address the connection came in on (the ASGI ``server`` field) and lets the
second one reach /metrics and nothing else, while /metrics on the main port answers
404. One process, one event loop, one shutdown: nothing new to supervise.

``METRICS_TOKEN``: /metrics (wherever it is served) wants ``Authorization: Bearer
<token>`` and answers 401 otherwise.
"""

from __future__ import annotations

import hmac

from starlette.types import ASGIApp, Receive, Scope, Send

from .api.errors import error
from .core.asgi import HttpMiddleware

METRICS_PATH = "/metrics"


class MetricsAccess(HttpMiddleware):
    """Pure ASGI middleware in front of the whole application."""

    def __init__(
        self, app: ASGIApp, *, port: int | None, token: str | None, public: bool = False
    ) -> None:
        super().__init__(app)
        self.port = port
        self.token = token.encode() if token else None
        self.public = public
        """METRICS_PUBLIC: /metrics on the main port for anyone (without port or token)."""

    def _on_metrics_listener(self, scope: Scope) -> bool:
        server = scope.get("server")
        return server is not None and server[1] == self.port

    def _authorized(self, scope: Scope) -> bool:
        if self.token is None:
            return True
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                scheme, _, given = value.partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(
                    given.strip(), self.token
                )
        return False

    def passes(self, scope: Scope) -> bool:
        """The lifespan, and a WebSocket anywhere but on the metrics listener."""
        kind = scope["type"]
        if kind == "websocket":
            return self.port is None or not self._on_metrics_listener(scope)
        return bool(kind != "http")

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        is_metrics = scope["type"] == "http" and scope["path"] == METRICS_PATH
        if self.port is not None and self._on_metrics_listener(scope) != is_metrics:
            # /metrics on the main port, or anything but /metrics on the metrics port.
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await error(404, "not_found", "not found")(scope, receive, send)
            return
        if is_metrics and self.port is None and self.token is None and not self.public:
            await error(
                404,
                "not_found",
                "/metrics is served on METRICS_PORT, or with METRICS_TOKEN, or to anyone "
                "with METRICS_PUBLIC=true (docs/deploy.md)",
            )(scope, receive, send)
            return
        if is_metrics and not self._authorized(scope):
            response = error(401, "unauthorized", "/metrics wants Authorization: Bearer <token>")
            response.headers["WWW-Authenticate"] = 'Bearer realm="metrics"'
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
