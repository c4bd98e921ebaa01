"""HTTP routes of optional accounts (issue 34): sign up, sign in, sign out, the signed-in
person, deletion and export.

The session lives in an HttpOnly cookie (app/api/session.py); the Origin and CSRF
checks of every state-changing request that carries it are the gate's
(app/api/session_gate.py).  Each sign-in also sets the device cookie, which lets this
browser keep trying its password while others fail at the same name
(app/accounts/attempts.py).
A browser's player keys (``X-Player-Key``) sent with sign-up or sign-in are taken
over by the account: their seats become its seats.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from app.accounts.access import SignInRequired
from app.accounts.attempts import TooManyAttempts
from app.accounts.names import BadAccountInput
from app.accounts.service import Account, AccountError, Accounts, SignedIn
from app.ratings.ratings import entries_json

from .account_answers import (
    AccountExport,
    AuthOptionsJson,
    ExportJson,
    MeJson,
    ProviderJson,
    SessionJson,
    SignedInJson,
)
from .clubs import ClubsDep
from .deps import ArchiveDep, client_of, get_services
from .errors import error
from .limits import RateLimited
from .oidc import LOGIN_PATH
from .players import KeyHeader, _keys
from .schemas import (
    AuthOptions,
    Credentials,
    Me,
    SessionBody,
    SignedInBody,
    SignedOut,
    refusals,
)
from .session import (
    AccountsDep,
    MaybeAccount,
    SignedInAccount,
    SignInRequiredHttp,
    clear_session,
    device_cookie,
    session_token,
    set_session,
)

router = APIRouter(prefix="/api", tags=["accounts"])
AUTH_ERRORS = refusals(
    {
        401: "``bad_credentials``",
        403: "``password_login_disabled``, ``csrf_failed`` or ``bad_origin``",
        409: "``username_taken``",
        422: "``bad_username``, ``weak_password``",
        429: "``too_many_attempts``; see Retry-After",
        503: "the database is not answering; try again",
    }
)
ME_ERRORS = refusals(
    {
        401: "``sign_in_required``: not signed in",
        403: "``csrf_failed`` or ``bad_origin``",
    }
)


def _me(request: Request, account: Account, csrf: str) -> MeJson:
    return {
        "username": account.username,
        "created_ms": account.created_ms,
        "ratings": {},
        "csrf": csrf,
        "password_login": get_services(request).settings.password_login,
    }


async def _signed_in(
    request: Request,
    response: Response,
    accounts: Accounts,
    signed: SignedIn,
    keys: list[str],
) -> SignedInJson:
    moved = signed.seats_moved
    for key in keys[1:]:  # a browser that received another device's key keeps both
        moved += await accounts.take_over_key(signed.account, key)
    set_session(response, request, signed)
    ratings = entries_json(await get_services(request).ratings.ratings_of(signed.account.id))
    return {**_me(request, signed.account, signed.csrf), "ratings": ratings, "seats_moved": moved}


@router.get("/auth/options", response_model=AuthOptions)
async def auth_options(request: Request) -> AuthOptionsJson:
    """How this server signs people in: its access mode, whether passwords are on, and
    its OpenID Connect provider, if any (its name for "Sign in with <name>", and where
    a browser goes to start: app/api/oidc.py)."""
    services = get_services(request)
    settings = services.settings
    providers: list[ProviderJson] = []
    if services.oidc is not None:
        providers.append({"name": services.oidc.config.name, "login_url": LOGIN_PATH})
    return {
        "access": settings.access,
        "password_login": settings.password_login,
        "providers": providers,
    }


@router.post("/auth/register", status_code=201, response_model=SignedInBody, responses=AUTH_ERRORS)
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    x_player_key: KeyHeader = None,
) -> SignedInJson:
    """Make an account and sign in (the session cookie is set); the player keys sent in
    X-Player-Key are taken over.  New accounts per address: REGISTER_PER_HOUR."""
    services = get_services(request)
    limiter = services.http_limits.register
    address = client_of(request)  # an IPv6 client by its network (IPV6_PREFIX)
    if not limiter.allow(address):
        services.metrics.refused("register")
        wait = limiter.retry_after(address)
        raise RateLimited(f"too many new accounts from your address; try again in {wait} s", wait)
    keys = _keys(x_player_key, required=False)
    signed = await accounts.register(
        body.username, body.password, keys[0] if keys else None, device_cookie(request)
    )
    return await _signed_in(request, response, accounts, signed, keys)


@router.post("/auth/login", response_model=SignedInBody, responses=AUTH_ERRORS)
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    x_player_key: KeyHeader = None,
) -> SignedInJson:
    """Sign in with a username and password (401 ``bad_credentials``; 429
    ``too_many_attempts`` after repeated failures at the name from this address, from
    this address at any name, or at the name from everywhere; a browser that signed in
    to the account before is limited on its own).
    The player keys sent in X-Player-Key are linked to the account: their rooms appear
    in this device's "My games", and the account's rooms too."""
    keys = _keys(x_player_key, required=False)
    signed = await accounts.login(
        body.username,
        body.password,
        keys[0] if keys else None,
        client_of(request),
        device_cookie(request),
    )
    return await _signed_in(request, response, accounts, signed, keys)


@router.post("/auth/logout", status_code=204, responses=ME_ERRORS)
async def logout(request: Request, accounts: AccountsDep) -> Response:
    """Sign this browser out (its session ends; the cookies are cleared).  Signed out
    already: 204 all the same."""
    response = Response(status_code=204)
    token = session_token(request)
    if token is not None:
        await accounts.logout(token)
    clear_session(response, request)
    return response


@router.post("/auth/logout-all", response_model=SignedOut, responses=ME_ERRORS)
async def logout_all(
    request: Request, response: Response, accounts: AccountsDep, account: SignedInAccount
) -> SignedOut:
    """Sign out everywhere: every session of the account ends, this one included."""
    ended = await accounts.logout_all(account)
    clear_session(response, request)
    return SignedOut(sessions_ended=ended)


async def _me_with_ratings(request: Request, accounts: Accounts, account: Account) -> MeJson:
    token = session_token(request)  # None: signed in by a personal access token
    csrf = "" if token is None else await accounts.csrf_of(token)
    ratings = await get_services(request).ratings.ratings_of(account.id)
    return {**_me(request, account, csrf), "ratings": entries_json(ratings)}


@router.get("/me", response_model=Me, responses=ME_ERRORS)
async def me(request: Request, accounts: AccountsDep, account: SignedInAccount) -> MeJson:
    """The signed-in person; 401 ``sign_in_required`` when signed out (for API clients;
    a page asks ``GET /api/session``)."""
    return await _me_with_ratings(request, accounts, account)


@router.get("/session", response_model=SessionBody)
async def session(request: Request, accounts: AccountsDep, account: MaybeAccount) -> SessionJson:
    """Who this browser is signed in as: ``{"account": <as GET /api/me>}``, or
    ``{"account": null}`` when signed out.  Always 200, so that a signed-out page's
    question is not a failed request on its console (issue 47)."""
    if account is None:
        return {"account": None}
    return {"account": await _me_with_ratings(request, accounts, account)}


@router.delete("/me", status_code=204, responses=ME_ERRORS)
async def delete_me(request: Request, accounts: AccountsDep, account: SignedInAccount) -> Response:
    """Delete the account: signed out everywhere, the name is free again, the games stay
    (its seats are shown as "deleted player")."""
    await accounts.delete(account)
    response = Response(status_code=204)
    clear_session(response, request)
    return response


@router.get("/me/export", response_model=AccountExport, responses=ME_ERRORS)
async def export(
    accounts: AccountsDep, archive: ArchiveDep, clubs: ClubsDep, account: SignedInAccount
) -> ExportJson:
    """Everything the server keeps about the signed-in person, as JSON."""
    stored = await accounts.stored_data(account)
    games = await archive.games([], account_id=account.id)
    memberships = await clubs.mine(account.id)
    return {
        "account": {"username": account.username, "created_ms": account.created_ms},
        "sessions": stored["sessions"],
        "identities": stored["identities"],
        "player_keys": stored["player_keys"],
        "access_tokens": stored["access_tokens"],
        "games": games,
        "clubs": memberships,
    }


def install(app: FastAPI) -> None:
    """The routes, and the JSON answer of each refusal of the accounts."""
    app.include_router(router)

    @app.exception_handler(AccountError)
    async def _account_error(_: Request, exc: AccountError) -> JSONResponse:
        return error(exc.status, exc.code, exc.message)

    @app.exception_handler(BadAccountInput)
    async def _bad_input(_: Request, exc: BadAccountInput) -> JSONResponse:
        return error(422, exc.code, exc.message)

    @app.exception_handler(SignInRequired)
    async def _sign_in(_: Request, exc: SignInRequired) -> JSONResponse:
        return error(401, exc.code, exc.message)

    @app.exception_handler(SignInRequiredHttp)
    async def _signed_out(_: Request, exc: SignInRequiredHttp) -> JSONResponse:
        return error(401, SignInRequired.code, exc.message)

    @app.exception_handler(TooManyAttempts)
    async def _attempts(_: Request, exc: TooManyAttempts) -> JSONResponse:
        response = error(429, exc.code, exc.message)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response


__all__ = ["install", "router"]
