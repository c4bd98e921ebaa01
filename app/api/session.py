"""The signed-in person of a request, as dependencies; the session cookies.

``MaybeAccount`` is the account of the session cookie or None; ``SignedInAccount``
answers 401 ``sign_in_required`` without one.  ``CreateAccess``, ``JoinAccess`` and
``WatchAccess`` apply the instance's access mode (``ACCESS``, app/accounts/access.py)
to an action and hand the route the account, if any.  The CSRF check of every
state-changing request that carries the cookie is done once for all routes by the
gate (app/api/session_gate.py), before any of these run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request, Response

from app.accounts import access
from app.accounts.access import AccessMode, Action, SignInRequired
from app.accounts.service import Account, Accounts, SignedIn
from app.accounts.tokens import CSRF_COOKIE, SESSION_COOKIE
from app.config import Settings

from .deps import get_services


def _accounts(request: Request) -> Accounts:
    return get_services(request).accounts


AccountsDep = Annotated[Accounts, Depends(_accounts)]


_UNSET = object()


def session_token(request: Request) -> str | None:
    return request.cookies.get(SESSION_COOKIE) or None


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


def _secure(request: Request, settings: Settings) -> bool:
    if settings.cookie_secure == "auto":
        return request.url.scheme == "https"
    return settings.cookie_secure == "true"


def set_session(response: Response, request: Request, signed: SignedIn) -> None:
    """Set the session cookie (HttpOnly) and the CSRF cookie (readable by the page):
    SameSite=Lax, Secure behind TLS (COOKIE_SECURE), for the session's lifetime.
    The OpenID Connect callback calls this too."""
    settings = get_services(request).settings
    age = int(settings.session_days * 86400)
    secure = _secure(request, settings)
    response.set_cookie(
        SESSION_COOKIE, signed.token, max_age=age, httponly=True, secure=secure, samesite="lax"
    )
    response.set_cookie(
        CSRF_COOKIE, signed.csrf, max_age=age, httponly=False, secure=secure, samesite="lax"
    )


def clear_session(response: Response, request: Request) -> None:
    secure = _secure(request, get_services(request).settings)
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, secure=secure, samesite="lax", httponly=name == SESSION_COOKIE)


__all__ = [
    "AccountsDep",
    "CreateAccess",
    "JoinAccess",
    "MaybeAccount",
    "SignInRequired",
    "SignInRequiredHttp",
    "SignedInAccount",
    "WatchAccess",
    "clear_session",
    "session_token",
    "set_session",
]
