"""The gate every HTTP request passes: Origin and CSRF for the session cookie, and
``members``.

Origin (``origin_allowed``): a request that changes something (anything but GET,
HEAD, OPTIONS) and carries the session cookie, and every sign-up and sign-in, is
refused with 403 ``bad_origin`` when the browser says it comes from a page of
another site: its ``Origin`` must be PUBLIC_URL's, one of ALLOWED_ORIGINS, or, on a
server without PUBLIC_URL (a local one), the request's own host.  ``Origin: null``
is foreign.  A request without ``Origin`` is not a browser's cross-site request
(browsers name the origin of every such request, and a bot or a test sends none),
unless ``Sec-Fetch-Site`` says it came from another site.  The WebSocket applies
the same rule to an upgrade that carries the session cookie (app/api/ws.py).

CSRF (signed double-submit, app/accounts/tokens.py): a request that changes things
and carries the session cookie must carry ``X-CSRF-Token`` equal to the session's
CSRF value, an HMAC of the cookie under the server's secret (but the one-click
unsubscribe of the mails, ``CSRF_FREE_PATHS``), or it is refused with 403
``csrf_failed`` before any route runs.  This holds for every route, present and
future, whether or not it looks at the account.  The check needs no database once
the secret is read.  A request whose readable CSRF cookie does not fit its session
(one signed in before the secret existed, say) gets the right one set on the way
back, so the page's next request passes.

Personal access tokens (``Authorization: Bearer``, issue 51): app/api/bearer.py
checks every ``/api/`` request that carries one (but the admin's) before anything
else, and keeps its account in the request's state for the routes.  Such a request
needs no CSRF header and no Origin: a browser never attaches an Authorization header
by itself, so no other site can make it send one (app/api/bearer.py says more).

Members only (``ACCESS=members``): every ``/api/`` route but signing in, the rules,
the tutorial, the protocol, the admin's (its own token), ``/api/session`` (which
says who is signed in) and ``/api/me`` (401 by itself) answers 401
``sign_in_required`` without a signed-in account.  The WebSocket checks the same in
app/api/ws.py.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import cookie_parser
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.accounts.access import SIGN_IN_REQUIRED, AccessMode
from app.accounts.access_tokens import Bearer
from app.accounts.tokens import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    cookie_names,
    csrf_matches,
    csrf_token,
)
from app.core.asgi import HttpMiddleware
from app.core.errors import ServiceError

from . import bearer
from .session import set_csrf_cookie, tls_cookies

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OPEN_PREFIXES = ("/api/auth/", "/api/admin/", "/api/rules/")
OPEN_PATHS = frozenset(
    {
        "/api/me",
        "/api/me/export",
        "/api/session",
        "/api/rules",
        "/api/tutorial",
        "/api/protocol.schema.json",
    }
)
"""What a members-only server still answers without an account."""
CSRF_FREE_PATHS = frozenset({"/notifications/email/unsubscribe"})
"""Paths whose POST proves itself without the session: the one-click unsubscribe of
every mail (RFC 8058), whose unguessable token is in its URL.  A mail client posts it
without cookies; the page's own button would carry them, but no CSRF token."""
_CSRF_HEADER = CSRF_HEADER.lower().encode("latin-1")
CSRF_MESSAGE = f"a signed-in request that changes something needs the {CSRF_HEADER} header"


def cookie(scope: Scope, name: str) -> str | None:
    """A cookie of the request (HTTP or WebSocket), or None."""
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            found = cookie_parser(value.decode("latin-1")).get(name)
            if found:
                return found
    return None


def session_cookie(scope: Scope) -> str | None:
    """The session token of a request or socket, under its ``__Host-`` name or its plain one."""
    for name in cookie_names(SESSION_COOKIE):
        found = cookie(scope, name)
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


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower case and without a default port; None
    for anything but http and https."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" + ("" if port in (None, default) else f":{port}")


@lru_cache(maxsize=16)
def allowed_origins(public_url: str | None, extra: str | None) -> frozenset[str]:
    """PUBLIC_URL's origin and ALLOWED_ORIGINS."""
    found = (origin_of(url) for url in [public_url or "", *(extra or "").split(",")] if url)
    return frozenset(origin for origin in found if origin is not None)


def origin_allowed(scope: Scope, public_url: str | None, extra: str | None = None) -> bool:
    """Whether a request (or WebSocket upgrade) may be a browser's from one of our pages:
    its Origin is PUBLIC_URL's or in ALLOWED_ORIGINS, or, without PUBLIC_URL, the
    request's own host.  No Origin: not a browser's cross-site request, unless its
    Sec-Fetch-Site says so."""
    origin = _header(scope, b"origin")
    if origin is None:
        return _header(scope, b"sec-fetch-site") not in ("cross-site", "same-site")
    if origin == "null":
        return False
    if origin_of(origin) in allowed_origins(public_url or None, extra):
        return True
    if public_url:
        return False
    host = _header(scope, b"host")
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


async def _refuse(
    send: Send,
    status: int,
    code: str,
    message: str,
    extra: list[tuple[bytes, bytes]] | None = None,
) -> None:
    body = json.dumps({"code": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(extra or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _csrf_cookie(scope: Scope, settings: Any, csrf: str) -> list[tuple[bytes, bytes]]:
    """The Set-Cookie header of the CSRF cookie that fits the request's session."""
    response = Response()
    set_csrf_cookie(response, csrf, tls_cookies(scope.get("scheme", "http"), settings), settings)
    return [(k, v) for k, v in response.raw_headers if k == b"set-cookie"]


def _adding(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *headers]}
        await send(message)

    return wrapped


class SessionGate(HttpMiddleware):
    def __init__(self, app: ASGIApp, access: str) -> None:
        super().__init__(app)
        self.mode = AccessMode(access)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        services = getattr(scope["app"].state, "services", None) if "app" in scope else None
        if services is None:  # before the server has started
            await self.app(scope, receive, send)
            return
        token = session_cookie(scope)
        path: str = scope["path"]
        found = await _bearer(scope, services, token is not None)
        if isinstance(found, bearer.Refusal):
            await _refuse(send, found.status, found.code, found.message, found.headers)
            return
        unsafe = scope["method"] not in SAFE_METHODS
        checked = unsafe and path not in CSRF_FREE_PATHS
        settings = services.settings
        if (
            checked
            and (token is not None or path.startswith("/api/auth/"))
            and not origin_allowed(scope, settings.public_url, settings.allowed_origins)
        ):
            await _refuse(
                send,
                403,
                "bad_origin",
                "sign-in is only possible from this site"
                if token is None
                else "a signed-in request that changes something must come from this site",
            )
            return
        if token is not None:
            try:
                secret = await services.accounts.secret()
            except ServiceError as exc:  # the database is away, before the secret was read
                if checked:
                    await _refuse(send, 503, exc.code, exc.message)
                    return
                secret = None
            if secret is not None:
                csrf = csrf_token(secret, token)
                fix = (
                    []
                    if cookie(scope, CSRF_COOKIE) == csrf
                    else _csrf_cookie(scope, settings, csrf)
                )
                if checked and not csrf_matches(secret, token, _header(scope, _CSRF_HEADER)):
                    await _refuse(
                        send,
                        403,
                        "csrf_failed",
                        CSRF_MESSAGE,
                        fix,
                    )
                    return
                if fix and not unsafe and path.startswith("/api/"):
                    send = _adding(send, fix)  # the page's next request passes
        if self.mode is AccessMode.MEMBERS and members_only(path):
            try:
                account = found.account if found is not None else await _account(scope, token)
            except ServiceError as exc:  # the database is away
                await _refuse(send, 503, exc.code, exc.message)
                return
            if account is None:
                await _refuse(
                    send, 401, SIGN_IN_REQUIRED, "sign in: this server is for its members only"
                )
                return
        await self.app(scope, receive, send)


async def _bearer(scope: Scope, services: Any, cookie: bool) -> Bearer | bearer.Refusal | None:
    """The token of a request with ``Authorization`` (its account kept in the request's
    state, as the session's is), or why it is refused; None without one."""
    path: str = scope["path"]
    values = bearer.authorization(scope.get("headers", ()))
    if not values or not bearer.looks_at(path):
        return None
    found = await bearer.check(services, scope, values, cookie, scope["method"], path)
    if isinstance(found, bearer.Refusal):
        return found
    state = scope.setdefault("state", {})
    state["account"], state["bearer"] = found.account, found
    return found


async def _account(scope: Scope, token: str | None) -> Any:
    """The session's account, kept in the request's state for the routes."""
    if token is None:
        return None
    services = scope["app"].state.services
    account = await services.accounts.current(token)
    scope.setdefault("state", {})["account"] = account
    return account
