"""Sign-in through the host's OpenID Connect provider (issue 34): its routes.

- ``GET /api/auth/options``: how this server signs people in (access mode,
  passwords on or off, the provider's name for the account panel's button).
- ``GET /auth/oidc/login``: starts a sign-in and redirects the browser to the
  provider; the sign-in's state goes into a short-lived HttpOnly cookie that only
  the callback's path receives (SameSite=Lax: the provider's redirect back is a
  top-level GET, which carries it).
- ``GET /auth/oidc/callback``: the provider's redirect back.  The flow
  (app/accounts/oidc_client.py) checks the state against the cookie and uses it
  up, exchanges the code and checks the ID token; the accounts then sign the
  identity in (its account made on first sign-in) and the session cookies are
  set, and the browser goes to the lobby, which then hands the account this
  browser's player keys (``POST /api/me/keys``).  A refusal is a short page for a browser
  (``Accept: text/html``) or JSON ``{"code", "message"}`` for anything else, with
  the refusal's status; no account or session is made.
"""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from app.accounts.oidc import OIDC_OFF, PENDING_SECONDS, OidcError, OidcFlow
from app.accounts.service import AccountError
from app.limits.clients import client_address

from .deps import get_services
from .errors import error
from .players import KeyHeader, _keys
from .schemas import AuthOptions, ErrorBody, KeysTaken
from .session import AccountsDep, SignedInAccount, set_session

router = APIRouter(tags=["accounts"])

STATE_COOKIE = "kk_oidc_state"
LOGIN_PATH = "/auth/oidc/login"
CALLBACK_PATH = "/auth/oidc/callback"
BACK_HOME = "/?signin=provider"
"""Where a signed-in browser lands: the lobby, told to hand its player keys over."""
NO_STORE = {"Cache-Control": "no-store"}
ERROR_PAGE_HEADERS = {
    **NO_STORE,
    "Content-Security-Policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
}


def _flow(request: Request) -> OidcFlow:
    flow = get_services(request).oidc
    if flow is None:
        raise OidcError(OIDC_OFF, "this server has no OpenID Connect provider", 404)
    return flow


def _redirect_uri(request: Request) -> str:
    """Where the provider sends the browser back: under PUBLIC_URL when it is set (what
    the host registered at the provider), else as this request reached the server
    (the trusted proxy's X-Forwarded-Proto and Host taken into account)."""
    public = get_services(request).settings.public_url
    if public:
        return public.rstrip("/") + CALLBACK_PATH
    return str(request.base_url).rstrip("/") + CALLBACK_PATH


def _secure(request: Request, redirect_uri: str) -> bool:
    """The state cookie's Secure flag: as COOKIE_SECURE says for the session cookie, and
    on ``auto`` whenever this request or the callback is HTTPS."""
    chosen = get_services(request).settings.cookie_secure
    if chosen != "auto":
        return chosen == "true"
    return request.url.scheme == "https" or redirect_uri.startswith("https:")


def refusal(request: Request, status: int, code: str, message: str) -> Response:
    """A refused sign-in: a page a person can read, or the API's JSON error."""
    accept = request.headers.get("accept", "")
    if "text/html" not in accept:
        return error(status, code, message)
    page = (
        '<!doctype html><html lang="en"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Sign-in failed · Krypkasino</title>"
        "<h1>Sign-in failed</h1>"
        f"<p>{html.escape(message)}</p>"
        f'<p>(<code id="error-code">{html.escape(code)}</code>)</p>'
        '<p><a href="/auth/oidc/login">Try again</a> · <a href="/">Back to the lobby</a></p>'
    )
    return HTMLResponse(page, status_code=status, headers=ERROR_PAGE_HEADERS)


def _forget_state(response: Response, secure: bool) -> None:
    response.delete_cookie(
        STATE_COOKIE, path=CALLBACK_PATH, secure=secure, httponly=True, samesite="lax"
    )


@router.get("/api/auth/options", response_model=AuthOptions)
async def options(request: Request) -> JSONResponse:
    """How this server signs people in, for the account panel: the access mode, whether
    passwords are on, and the OpenID Connect provider (its name for "Sign in with
    <name>", and where a browser goes to start)."""
    services = get_services(request)
    providers = []
    if services.oidc is not None:
        providers.append({"name": services.oidc.config.name, "login_url": LOGIN_PATH})
    body = AuthOptions(
        access=services.settings.access,
        password_login=services.settings.password_login,
        providers=providers,
    )
    return JSONResponse(body.model_dump(), headers=NO_STORE)


@router.post(
    "/api/me/keys",
    response_model=KeysTaken,
    responses={
        401: {"model": ErrorBody, "description": "``sign_in_required``"},
        403: {"model": ErrorBody, "description": "``csrf_failed``"},
    },
)
async def take_over_keys(
    accounts: AccountsDep, account: SignedInAccount, x_player_key: KeyHeader = None
) -> dict[str, int]:
    """This browser's player keys become the signed-in account's: their seats move to it.

    Signing up or in with a password sends the keys along; a sign-in through the
    provider is a chain of redirects that carries no header, so the page sends them
    here once it is back (it comes back to ``/?signin=provider``)."""
    moved = 0
    for key in _keys(x_player_key, required=True):
        moved += await accounts.take_over_key(account, key)
    return {"seats_moved": moved}


@router.get(LOGIN_PATH, include_in_schema=False)
async def login(request: Request) -> Response:
    services = get_services(request)
    limiter = services.http_limits.oidc_login
    address = client_address(request.scope)
    if not limiter.allow(address):
        services.metrics.refused("oidc_login")
        wait = limiter.retry_after(address)
        response = refusal(
            request,
            429,
            "rate_limited",
            f"too many sign-ins from your address; try again in {wait} s",
        )
        response.headers["Retry-After"] = str(wait)
        return response
    try:
        flow = _flow(request)
        redirect_uri = _redirect_uri(request)
        url, state = await flow.begin(redirect_uri)
    except OidcError as exc:
        return refusal(request, exc.status, exc.code, exc.message)
    response = RedirectResponse(url, status_code=302, headers=NO_STORE)
    response.set_cookie(
        STATE_COOKIE,
        state,
        max_age=PENDING_SECONDS,
        path=CALLBACK_PATH,
        httponly=True,
        secure=_secure(request, redirect_uri),
        samesite="lax",
    )
    return response


@router.get(CALLBACK_PATH, include_in_schema=False)
async def callback(request: Request) -> Response:
    params: dict[str, Any] = dict(request.query_params)
    secure = _secure(request, str(request.url))
    try:
        flow = _flow(request)
        identity = await flow.finish(request.cookies.get(STATE_COOKIE), params)
        signed = await get_services(request).accounts.sign_in_external(
            identity.issuer, identity.subject, identity.preferred_username, None
        )
    except OidcError as exc:
        response = refusal(request, exc.status, exc.code, exc.message)
    except AccountError as exc:
        response = refusal(request, exc.status, exc.code, exc.message)
    else:
        response = RedirectResponse(BACK_HOME, status_code=303, headers=NO_STORE)
        set_session(response, request, signed)
    _forget_state(response, secure)
    return response
