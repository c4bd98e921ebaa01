"""Sign-in through the host's OpenID Connect provider (issue 34): its routes.

- ``GET /api/auth/options`` (app/api/accounts.py) names the provider for the
  account panel's button: ``{"name", "login_url"}``.
- ``GET /auth/oidc/login``: starts a sign-in and redirects the browser to the
  provider; the sign-in's state goes into a short-lived HttpOnly cookie that only
  the callback's path receives (SameSite=Lax: the provider's redirect back is a
  top-level GET, which carries it).
- ``GET /auth/oidc/callback``: the provider's redirect back.  The flow
  (app/accounts/oidc_client.py) checks the state against the cookie and uses it
  up, exchanges the code and checks the ID token; the accounts then sign the
  identity in (its account made on first sign-in) and the session cookies are
  set, and the browser goes to the lobby, which then hands the account this
  browser's player keys (``POST /api/me/keys``).  A refused sign-in sends a browser
  (``Accept: text/html``) back to the lobby with the refusal's code
  (``/?signin_error=<code>``), said there in the page's language; anything else
  gets JSON ``{"code", "message"}`` with the refusal's status.  Either way no
  account or session is made.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.accounts.oidc import OIDC_OFF, PENDING_SECONDS, OidcError, OidcFlow
from app.accounts.service import AccountError

from .deps import client_of, get_services
from .errors import error
from .players import KeyHeader, _keys
from .schemas import ErrorBody, KeysTaken
from .session import AccountsDep, SignedInAccount, device_cookie, set_session

router = APIRouter(tags=["accounts"])

STATE_COOKIE = "kk_oidc_state"
LOGIN_PATH = "/auth/oidc/login"
CALLBACK_PATH = "/auth/oidc/callback"
LOBBY = "/"
BACK_HOME = "/?signin=provider"
"""Where a signed-in browser lands: the lobby, told to hand its player keys over."""
PUBLIC_URL_NEEDED = "public_url_needed"
"""A sign-in started at an address other than PUBLIC_URL's on a server without one."""
ERROR_PARAM = "signin_error"
"""The lobby's query parameter naming why a sign-in was refused (a wire code)."""
NO_STORE = {"Cache-Control": "no-store"}


def _flow(request: Request) -> OidcFlow:
    flow = get_services(request).oidc
    if flow is None:
        raise OidcError(OIDC_OFF, "this server has no OpenID Connect provider", 404)
    return flow


def _redirect_uri(request: Request) -> str:
    """Where the provider sends the browser back: under PUBLIC_URL (what the host
    registered at the provider).  The settings want PUBLIC_URL with OIDC_ISSUER unless
    the server listens on loopback only; there, a request that names this machine
    (localhost, 127.0.0.1, ::1) gets its own address, and any other is refused: the
    callback never follows a Host header someone else chose."""
    public = get_services(request).settings.public_url
    if public:
        return public.rstrip("/") + CALLBACK_PATH
    if not _loopback(request.url.hostname or ""):
        raise OidcError(
            PUBLIC_URL_NEEDED, "this server signs in through its provider only at PUBLIC_URL", 503
        )
    return str(request.base_url).rstrip("/") + CALLBACK_PATH


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _secure(request: Request, redirect_uri: str) -> bool:
    """The state cookie's Secure flag: as COOKIE_SECURE says for the session cookie, and
    on ``auto`` whenever this request or the callback is HTTPS."""
    chosen = get_services(request).settings.cookie_secure
    if chosen != "auto":
        return chosen == "true"
    return request.url.scheme == "https" or redirect_uri.startswith("https:")


def refusal(request: Request, status: int, code: str, message: str) -> Response:
    """A refused sign-in: a browser goes back to the lobby, which says why in its own
    language (``/?signin_error=<code>``); anything else gets the API's JSON error with
    the refusal's status."""
    if "text/html" not in request.headers.get("accept", ""):
        return error(status, code, message)
    return RedirectResponse(f"{LOBBY}?{ERROR_PARAM}={quote(code)}", 303, headers=NO_STORE)


def _forget_state(response: Response, secure: bool) -> None:
    response.delete_cookie(
        STATE_COOKIE, path=CALLBACK_PATH, secure=secure, httponly=True, samesite="lax"
    )


@router.post(
    "/api/me/keys",
    response_model=KeysTaken,
    responses={
        401: {"model": ErrorBody, "description": "``sign_in_required``"},
        403: {"model": ErrorBody, "description": "``csrf_failed`` or ``bad_origin``"},
    },
)
async def take_over_keys(
    accounts: AccountsDep, account: SignedInAccount, x_player_key: KeyHeader = None
) -> dict[str, int]:
    """This browser's player keys become the signed-in account's: their seats move to it.

    Signing up or in with a password sends the keys along; a sign-in through the
    provider is a chain of redirects that carries no header, so the page sends them
    here once it is back (it comes back to ``/?signin=provider``).  As every request
    that carries the session cookie and changes something, it must come from one of
    this site's pages (Origin) with the CSRF header (app/api/session_gate.py)."""
    moved = 0
    for key in _keys(x_player_key, required=True):
        moved += await accounts.take_over_key(account, key)
    return {"seats_moved": moved}


@router.get(LOGIN_PATH, include_in_schema=False)
async def login(request: Request) -> Response:
    services = get_services(request)
    limiter = services.http_limits.oidc_login
    address = client_of(request)  # an IPv6 client by its network (IPV6_PREFIX)
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
    params: dict[str, str] = dict(request.query_params)
    secure = _secure(request, str(request.url))
    try:
        flow = _flow(request)
        identity = await flow.finish(request.cookies.get(STATE_COOKIE), params)
        signed = await get_services(request).accounts.sign_in_external(
            identity.issuer,
            identity.subject,
            identity.preferred_username,
            None,
            device_cookie(request),
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
