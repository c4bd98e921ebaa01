"""The address a request or WebSocket comes from, for per-client limits.

uvicorn rewrites the connection's client address from ``X-Forwarded-For`` only
when the direct peer is one of the trusted proxies (``TRUSTED_PROXIES``), taking
the nearest address that is not itself a trusted proxy.  So the address here is
the one a client cannot choose by sending a header.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

UNKNOWN = "unknown"


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's IP address from an ASGI scope (HTTP or WebSocket)."""
    client = scope.get("client")
    if client and client[0]:
        return str(client[0])
    return UNKNOWN
