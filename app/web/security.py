"""Security headers: a strict Content-Security-Policy on the client's pages, and two
headers on every HTTP response.

The client is served from this origin alone and has no inline script, no inline event
handler and no ``<style>`` element (Preact sets the few dynamic styles through the CSSOM,
which a CSP does not govern), so its pages can forbid everything else. The browser test
``tests/browser/test_csp.py`` plays under this policy and fails on any reported
violation.
"""

from __future__ import annotations

import re

from starlette.types import Message, Receive, Scope, Send

from app.core.asgi import HttpMiddleware

EVERY_RESPONSE = {
    # Never guess a type: a JSON body must not be run as a script.
    b"x-content-type-options": b"nosniff",
    # Room URLs are invitations: do not hand them to any other site.
    b"referrer-policy": b"no-referrer",
}

_HOST = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")


def content_security_policy(host: str | None) -> str:
    """The policy of the client's pages, for a request that named ``host``.

    ``connect-src 'self'`` covers the WebSocket in current browsers (CSP level 3), but
    older ones (Safari before 15.4) do not count ws: and wss: as 'self': the page's own
    host is spelled out for them. A Host header that is not a plain host[:port] is left
    out rather than echoed.
    """
    sockets = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            f"connect-src 'self'{sockets}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def page_headers(host: str | None) -> dict[str, str]:
    """The headers of an HTML page of the client (on top of EVERY_RESPONSE)."""
    return {
        "Content-Security-Policy": content_security_policy(host),
        # frame-ancestors for browsers that predate it.
        "X-Frame-Options": "DENY",
    }


class SecurityHeaders(HttpMiddleware):
    """Pure ASGI middleware adding EVERY_RESPONSE's headers to HTTP responses that lack them.

    Pure ASGI rather than BaseHTTPMiddleware: it only rewrites the start message, so
    streaming bodies and WebSocket connections pass through untouched.
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in EVERY_RESPONSE.items() if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
