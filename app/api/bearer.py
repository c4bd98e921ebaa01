"""``Authorization: Bearer <token>``: a personal access token signs a request in as its
account (issue 51, app/accounts/access_tokens.py).

The session gate (app/api/session_gate.py) asks ``check`` for every ``/api/`` request
but the admin's (``/api/admin/`` has its own bearer, the admin token), and the
WebSocket (app/api/ws.py) for every upgrade.  What is refused, before any route runs
and without changing anything:

- a token and the session cookie on one request: 400 ``ambiguous_credentials`` (which
  of the two should it be?);
- a header that is not ``Bearer <token>``, a token of the wrong shape, unknown,
  revoked or of a deleted account: 401 ``bad_token``, never a fall back to anonymous;
- more than TOKEN_REQUESTS_PER_MINUTE of one token in one process: 429
  ``rate_limited`` with Retry-After (counted by the token, so its owner's other
  clients and everyone else go on); looked-up tokens that do not exist count against
  the client's address (BAD_TOKEN_PER_MINUTE, as the seat tokens of WebSocket hellos);
- the routes that make or spend credentials (``SESSION_ONLY``: the tokens
  themselves, ``/api/me/bot``, the account's deletion and export, sign-in and out)
  take the session cookie alone: 403 ``session_required``, so that a stolen token
  cannot make more tokens, keep itself alive or delete the account;
- a request that changes something (anything but GET, HEAD, OPTIONS) with a token
  without the ``bot:play`` scope: 403 ``insufficient_scope``.

A request with a token needs neither the CSRF header nor an allowed Origin: those
protect the cookie, which a browser attaches to any site's request by itself; it
never attaches an Authorization header by itself, so another site's page cannot make
a visitor's browser send someone's token (it would have to know it, and then it needs
no browser).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from app.accounts.access_tokens import BOT_PLAY, Bearer
from app.core.errors import ServiceError
from app.core.tokens import hash_token
from app.limits.clients import client_key
from app.services import Services

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEADER_MAX = 200
"""An Authorization header longer than this is no token of ours (401 without a look)."""
ADMIN_PREFIX = "/api/admin/"
SESSION_ONLY_PREFIXES = ("/api/auth/", "/api/tokens/")
SESSION_ONLY_PATHS = frozenset({"/api/tokens", "/api/me/bot", "/api/me/export"})
AMBIGUOUS = "ambiguous_credentials"
BAD_TOKEN = "bad_token"
SESSION_REQUIRED = "session_required"
INSUFFICIENT_SCOPE = "insufficient_scope"
CHALLENGE = (b"www-authenticate", b'Bearer error="invalid_token"')


@dataclass(frozen=True, slots=True)
class Refusal:
    """What a request with a token is answered instead of its route."""

    status: int
    code: str
    message: str
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)


def authorization(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    """Every Authorization header of a request (latin-1, as HTTP has it)."""
    return [value.decode("latin-1") for key, value in headers if key == b"authorization"]


def bearer_token(values: list[str]) -> str | None:
    """The token of one ``Bearer <token>`` header; None for anything else (no header
    is not asked here)."""
    if len(values) != 1 or len(values[0]) > HEADER_MAX:
        return None
    scheme, _, token = values[0].strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or not token.isascii():
        return None
    return token


def session_only(method: str, path: str) -> bool:
    """Whether a route takes the session cookie alone (no token)."""
    if path in SESSION_ONLY_PATHS or path.startswith(SESSION_ONLY_PREFIXES):
        return True
    return path == "/api/me" and method == "DELETE"


def looks_at(path: str) -> bool:
    """Whether the gate reads a request's Authorization as a personal token: every API
    path but the admin's, whose bearer is the admin token."""
    return path.startswith("/api/") and not path.startswith(ADMIN_PREFIX)


async def check(
    services: Services,
    scope: Mapping[str, object],
    values: list[str],
    has_cookie: bool,
    method: str,
    path: str,
) -> Bearer | Refusal:
    """The account a request's token signs in, or why it is refused (see the module's
    docstring).  ``method`` is ``GET`` for a WebSocket upgrade: what a socket may do
    is the socket's business (app/api/ws.py)."""
    if has_cookie:
        return Refusal(
            400, AMBIGUOUS, "send either the session cookie or an Authorization token, not both"
        )
    token = bearer_token(values)
    if token is None:
        return Refusal(401, BAD_TOKEN, "Authorization must be 'Bearer <token>'", [CHALLENGE])
    limits, metrics = services.http_limits.token_requests, services.metrics
    held = hash_token(token)
    if not limits.allow(held):
        metrics.refused("token_requests")
        wait = limits.retry_after(held)
        return Refusal(
            429,
            "rate_limited",
            f"too many requests with this token; try again in {wait} s",
            [(b"retry-after", str(wait).encode())],
        )
    address = client_key(scope, services.settings.ipv6_prefix)
    misses = services.sockets.bad_tokens
    if not misses.available(address):
        metrics.refused("bad_token")
        return Refusal(
            429,
            "rate_limited",
            "too many unknown tokens from your address; try again in a minute",
            [(b"retry-after", b"60")],
        )
    try:
        found = await services.tokens.authenticate(token)
    except ServiceError as exc:  # the database is away
        return Refusal(503, exc.code, exc.message)
    if found is None:
        misses.allow(address)  # counts the miss
        return Refusal(401, BAD_TOKEN, "unknown or revoked token", [CHALLENGE])
    if session_only(method, path):
        return Refusal(
            403,
            SESSION_REQUIRED,
            "this needs the signed-in browser (the session cookie), not a token",
        )
    if method not in SAFE_METHODS and not found.may(BOT_PLAY):
        return Refusal(
            403, INSUFFICIENT_SCOPE, f"this token may only read: changing things needs {BOT_PLAY}"
        )
    return found
