"""Who gets the client's page for an unknown path, and who the JSON 404.

A person who follows a bad link should see the client's own "not found" screen in
their language (with the way back to the lobby), not a line of JSON; a program (an
API client, a health check, ``fetch`` in the client itself) keeps the JSON
``{"code": "not_found", "message"}`` every other error has.  The line between them is
the request: a browser navigating asks for ``text/html`` with GET or HEAD, and the
API's, the static files' and the socket's paths never get the page.
"""

from __future__ import annotations

NEVER_A_PAGE = ("/api/", "/static/", "/ws/", "/metrics")
"""Paths whose unknown URLs stay JSON, whatever the client accepts."""


def accepts_html(accept: str) -> bool:
    """Whether an Accept header names ``text/html`` (not refused with ``q=0``)."""
    for item in accept.split(","):
        media, _, params = item.strip().partition(";")
        if media.strip().lower() != "text/html":
            continue
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    return float(value) > 0
                except ValueError:
                    return False
        return True
    return False


def wants_page(method: str, path: str, accept: str) -> bool:
    """Whether an unknown ``path`` is answered with the client's page (and 404)."""
    if method not in ("GET", "HEAD"):
        return False
    if path in ("/api", "/ws", "/static") or path.startswith(NEVER_A_PAGE):
        return False
    return accepts_html(accept)
