"""The gate every HTTP request passes: CSRF for the session cookie, and ``members``.

CSRF (signed double-submit, app/accounts/tokens.py): a request with a method that
changes things (anything but GET, HEAD, OPTIONS) that carries the session cookie
must carry ``X-CSRF-Token`` bound to that cookie (but the one-click unsubscribe of
the mails, ``CSRF_FREE_PATHS``), or it is refused with 403
``csrf_failed`` before any route runs.  This holds for every route, present and
future, whether or not it looks at the account.  The check needs no database: the
token is derived from the cookie.  Sign-up and sign-in (which have no session yet)
are refused with 403 ``bad_origin`` when the browser says they come from another
site (``Origin``), so no site can sign a visitor in to an account of its choosing.

Members only (``ACCESS=members``): every ``/api/`` route but signing in, the rules,
the tutorial, the protocol, the admin's (its own token) and ``/api/me`` (401 by
itself) answers 401 ``sign_in_required`` without a signed-in account.  The
WebSocket checks the same in app/api/ws.py.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from app.accounts.access import SIGN_IN_REQUIRED, AccessMode
from app.accounts.tokens import CSRF_HEADER, SESSION_COOKIE, csrf_matches
from app.rooms.domain.errors import ServiceError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OPEN_PREFIXES = ("/api/auth/", "/api/admin/", "/api/rules/")
OPEN_PATHS = frozenset(
    {"/api/me", "/api/me/export", "/api/rules", "/api/tutorial", "/api/protocol.schema.json"}
)
"""What a members-only server still answers without an account."""
CSRF_FREE_PATHS = frozenset({"/notifications/email/unsubscribe"})
"""Paths whose POST proves itself without the session: the one-click unsubscribe of
every mail (RFC 8058), whose unguessable token is in its URL.  A mail client posts it
without cookies; the page's own button would carry them, but no CSRF token."""
_CSRF_HEADER = CSRF_HEADER.lower().encode("latin-1")


def cookie(scope: Scope, name: str) -> str | None:
    """A cookie of the request (HTTP or WebSocket), or None."""
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            found = cookie_parser(value.decode("latin-1")).get(name)
            if found:
                return found
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def members_only(path: str) -> bool:
    """Whether a members-only server wants an account for this path."""
    if not path.startswith("/api/") or path in OPEN_PATHS:
        return False
    return not path.startswith(OPEN_PREFIXES)


def foreign_origin(scope: Scope) -> bool:
    """The browser says the request comes from a page of another host."""
    origin = _header(scope, b"origin")
    if origin is None or origin == "null":
        return origin == "null"
    host = _header(scope, b"host")
    return host is None or urlsplit(origin).netloc.lower() != host.lower()


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"code": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class SessionGate:
    def __init__(self, app: ASGIApp, access: str) -> None:
        self.app = app
        self.mode = AccessMode(access)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = cookie(scope, SESSION_COOKIE)
        unsafe = scope["method"] not in SAFE_METHODS
        csrf_checked = unsafe and scope["path"] not in CSRF_FREE_PATHS
        if (
            csrf_checked
            and token is not None
            and not csrf_matches(token, _header(scope, _CSRF_HEADER))
        ):
            await _refuse(
                send,
                403,
                "csrf_failed",
                f"a signed-in request that changes something needs the {CSRF_HEADER} header",
            )
            return
        path: str = scope["path"]
        if unsafe and path.startswith("/api/auth/") and foreign_origin(scope):
            await _refuse(send, 403, "bad_origin", "sign-in is only possible from this site")
            return
        if self.mode is AccessMode.MEMBERS and members_only(path):
            try:
                account = await _account(scope, token)
            except ServiceError as exc:  # the database is away
                await _refuse(send, 503, exc.code, exc.message)
                return
            if account is None:
                await _refuse(
                    send, 401, SIGN_IN_REQUIRED, "sign in: this server is for its members only"
                )
                return
        await self.app(scope, receive, send)


async def _account(scope: Scope, token: str | None) -> Any:
    """The session's account, kept in the request's state for the routes."""
    if token is None:
        return None
    services = scope["app"].state.services
    account = await services.accounts.current(token)
    scope.setdefault("state", {})["account"] = account
    return account
