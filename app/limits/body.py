"""MAX_BODY_BYTES: request bodies are limited on the bytes actually received.

A ``Content-Length`` header is only a claim, and a chunked body carries none, so
the check that counts is made on the body as the application reads it: this
middleware wraps ``receive`` and counts.  Once the count passes the limit the read
raises ``BodyTooLarge`` (an HTTPException, so FastAPI's body parsing lets it
through to the 413 handler), and the response gets ``Connection: close``: uvicorn
then closes the connection instead of reading the rest of the body to find the
next request.  Before this, a 200 MB chunked body was read whole and grew the
server by 363 MB.

A declared ``Content-Length`` over the limit is refused before the application
runs at all, without reading a byte of the body.  Any response sent before the
body was read to its end (an endpoint that takes no body, or an error) closes the
connection too, for the same reason.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.asgi import HttpMiddleware

CLOSE = (b"connection", b"close")


class BodyTooLarge(HTTPException):
    """The body passed the limit while it was being read (413 too_large)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request bodies are limited to {limit} bytes")


def _declared_length(scope: Scope) -> tuple[int | None, bool]:
    """(Content-Length or None when absent or not a number, whether a body follows)."""
    length: int | None = None
    has_body = False
    for name, value in scope["headers"]:
        if name == b"content-length":
            length = int(value) if value.isdigit() else None
            has_body = has_body or value != b"0"
        elif name == b"transfer-encoding":
            has_body = True
    return length, has_body


class BodyLimit(HttpMiddleware):
    """Pure ASGI middleware (no BaseHTTPMiddleware: it would buffer bodies itself)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        super().__init__(app)
        self.max_bytes = max_bytes

    def _too_large(self) -> JSONResponse:
        return JSONResponse(
            {
                "code": "too_large",
                "message": f"request bodies are limited to {self.max_bytes} bytes",
            },
            status_code=413,
            headers={"Connection": "close"},
        )

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared, has_body = _declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._too_large()(scope, receive, send)
            return
        received = 0
        body_done = not has_body
        started = False

        async def counting_receive() -> Message:
            nonlocal received, body_done
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
                body_done = not message.get("more_body", False)
            else:  # http.disconnect
                body_done = True
            return message

        async def closing_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if not body_done:
                    message = {**message, "headers": [*message.get("headers", []), CLOSE]}
            await send(message)

        try:
            await self.app(scope, counting_receive, closing_send)
        except BodyTooLarge:
            # Raised where no exception handler turned it into a response.
            if started:
                raise
            await self._too_large()(scope, receive, send)
