"""The signed-in person of a request, as dependencies; the session cookies.

The session and device cookies are ``__Host-`` prefixed (and Secure) when the server
is reached over TLS: PUBLIC_URL is https, or the request is (as the trusted proxy
says in X-Forwarded-Proto), unless COOKIE_SECURE says otherwise; plain names over
plain http.  Either name is read (app/accounts/tokens.py).

``MaybeAccount`` is the account of the session cookie, or of the request's personal
access token (``Authorization: Bearer``, which the gate checked and kept in the
request's state: app/api/bearer.py), or None; ``SignedInAccount``
answers 401 ``sign_in_required`` without one.  ``CreateAccess``, ``JoinAccess`` and
``WatchAccess`` apply the instance's access mode (``ACCESS``, app/accounts/access.py)
to an action and hand the route the account, if any.  The CSRF check of every
state-changing request that carries the cookie is done once for all routes by the
gate (app/api/session_gate.py), before any of these run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated

from fastapi import Depends, Request, Response

from app.accounts import access
from app.accounts.access import AccessMode, Action, SignInRequired
from app.accounts.access_tokens import Bearer
from app.accounts.service import Account, Accounts, SignedIn
from app.accounts.tokens import (
    CSRF_COOKIE,
    DEVICE_COOKIE,
    DEVICE_DAYS,
    HOST_PREFIX,
    SESSION_COOKIE,
    cookie_name,
    cookie_names,
)
from app.config import Settings

from .deps import get_services


def _accounts(request: Request) -> Accounts:
    return get_services(request).accounts


AccountsDep = Annotated[Accounts, Depends(_accounts)]


_UNSET = object()


def read_cookie(cookies: Mapping[str, str], name: str) -> str | None:
    """A cookie under its ``__Host-`` name, else its plain one (older sessions)."""
    for each in cookie_names(name):
        found = cookies.get(each)
        if found:
            return found
    return None


def session_token(request: Request) -> str | None:
    return read_cookie(request.cookies, SESSION_COOKIE)


def device_cookie(request: Request) -> str | None:
    """The browser's device cookie (the accounts it signed in to before)."""
    return read_cookie(request.cookies, DEVICE_COOKIE)


def bearer_of(request: Request) -> Bearer | None:
    """The personal access token the request was signed in with (the gate's check), if any."""
    found = getattr(request.state, "bearer", None)
    return found if isinstance(found, Bearer) else None


async def _maybe(request: Request) -> Account | None:
    cached = getattr(request.state, "account", _UNSET)
    if cached is None or isinstance(cached, Account):  # the gate looked it up already
        return cached
    account = await get_services(request).accounts.current(session_token(request))
    request.state.account = account
    return account


async def _required(account: Annotated[Account | None, Depends(_maybe)]) -> Account:
    if account is None:
        raise SignInRequiredHttp()
    return account


class SignInRequiredHttp(Exception):
    """401 ``sign_in_required`` for a route that is about the signed-in person."""

    message = "you are not signed in"


MaybeAccount = Annotated[Account | None, Depends(_maybe)]
SignedInAccount = Annotated[Account, Depends(_required)]


def _access(action: Action) -> Callable[[Request, Account | None], Awaitable[Account | None]]:
    async def check(request: Request, account: MaybeAccount) -> Account | None:
        mode = AccessMode(get_services(request).settings.access)
        access.check(mode, action, account is not None)
        return account

    check.__name__ = f"access_{action.value}"
    return check


CreateAccess = Annotated[Account | None, Depends(_access(Action.CREATE))]
"""The account making a room, or None; SignInRequired when the mode wants one."""
JoinAccess = Annotated[Account | None, Depends(_access(Action.JOIN))]
WatchAccess = Annotated[Account | None, Depends(_access(Action.WATCH))]


def tls_cookies(scheme: str, settings: Settings) -> bool:
    """Whether cookies are Secure and ``__Host-`` named: COOKIE_SECURE, and on ``auto``
    when PUBLIC_URL is https or the request came over TLS."""
    if settings.cookie_secure != "auto":
        return settings.cookie_secure == "true"
    public = (settings.public_url or "").strip().lower()
    return scheme in ("https", "wss") or public.startswith("https:")


def set_csrf_cookie(response: Response, csrf: str, tls: bool, settings: Settings) -> None:
    """The CSRF cookie the page reads (its plain name: see app/accounts/tokens.py)."""
    age = int(settings.session_days * 86400)
    response.set_cookie(CSRF_COOKIE, csrf, max_age=age, httponly=False, secure=tls, samesite="lax")


def set_session(response: Response, request: Request, signed: SignedIn) -> None:
    """Set the session cookie (HttpOnly), the CSRF cookie (readable by the page) and the
    device cookie (HttpOnly, for DEVICE_DAYS): SameSite=Lax, Secure and
    ``__Host-`` named behind TLS, for the session's lifetime.  The OpenID Connect
    callback calls this too."""
    settings = get_services(request).settings
    age = int(settings.session_days * 86400)
    tls = tls_cookies(request.url.scheme, settings)
    response.set_cookie(
        cookie_name(SESSION_COOKIE, tls),
        signed.token,
        max_age=age,
        httponly=True,
        secure=tls,
        samesite="lax",
    )
    set_csrf_cookie(response, signed.csrf, tls, settings)
    if signed.device:
        response.set_cookie(
            cookie_name(DEVICE_COOKIE, tls),
            signed.device,
            max_age=DEVICE_DAYS * 86400,
            httponly=True,
            secure=tls,
            samesite="lax",
        )
    if tls:  # the plain names of before go: only the prefixed ones are read first
        for name in (SESSION_COOKIE, DEVICE_COOKIE):
            if name in request.cookies:
                response.delete_cookie(name, secure=True, httponly=True, samesite="lax")


def clear_session(response: Response, request: Request) -> None:
    """Sign this browser out: its session and CSRF cookies go (under both names); the
    device cookie stays (it only lets this browser keep trying its password)."""
    tls = tls_cookies(request.url.scheme, get_services(request).settings)
    names = [SESSION_COOKIE, CSRF_COOKIE] + ([HOST_PREFIX + SESSION_COOKIE] if tls else [])
    for name in names:
        response.delete_cookie(name, secure=tls, samesite="lax", httponly=name != CSRF_COOKIE)


__all__ = [
    "AccountsDep",
    "CreateAccess",
    "JoinAccess",
    "MaybeAccount",
    "SignInRequired",
    "SignInRequiredHttp",
    "SignedInAccount",
    "WatchAccess",
    "bearer_of",
    "clear_session",
    "device_cookie",
    "read_cookie",
    "session_token",
    "set_csrf_cookie",
    "set_session",
    "tls_cookies",
]
