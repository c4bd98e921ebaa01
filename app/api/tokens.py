"""HTTP routes of personal access tokens and bot accounts (issue 51).

``POST /api/tokens``, ``GET /api/tokens``, ``DELETE /api/tokens/{id}`` and ``POST
/api/me/bot`` are the signed-in browser's: the gate refuses them a request with a
token (403 ``session_required``, app/api/bearer.py), so that a stolen token can neither
make more nor outlive its revocation.  ``GET /api/bots`` is public.  The rules (names,
scopes, how many, who may be a bot) are app/accounts/access_tokens.py's.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Path, Request, Response
from pydantic import BaseModel, Field, StringConstraints

from app.accounts.access_tokens import MAX_TOKENS, AccessTokens
from app.accounts.token_store import TokenRow

from .deps import get_services
from .schemas import Strict, refusals
from .session import SignedInAccount

router = APIRouter(prefix="/api", tags=["tokens and bots"])


def _tokens(request: Request) -> AccessTokens:
    return get_services(request).tokens


TokensDep = Annotated[AccessTokens, Depends(_tokens)]

SESSION_ONLY = {
    401: "``sign_in_required``, or ``bad_token``: an unknown or revoked token",
    403: "``session_required``: a token was sent (these routes take the session "
    "cookie alone); ``csrf_failed`` or ``bad_origin``",
    503: "the database is not answering; try again",
}
CREATE_ERRORS = refusals(
    {
        **SESSION_ONLY,
        403: "``not_a_bot_account``: ``bot:play`` is for bot accounts (POST /api/me/bot); "
        "``session_required``, ``csrf_failed`` or ``bad_origin``",
        409: f"``too_many_tokens``: the account holds {MAX_TOKENS} live tokens already",
        422: "``bad_token_name`` (1 to 60 characters), ``bad_scopes`` (one or more of "
        "``bot:play``, ``read``), ``bad_request``",
    }
)
LIST_ERRORS = refusals(SESSION_ONLY)
DELETE_ERRORS = refusals(
    {
        **SESSION_ONLY,
        404: "``token_not_found``: no live token of the account has this id (unknown, "
        "revoked, or another account's: never told apart)",
    }
)
BOT_ERRORS = refusals({**SESSION_ONLY, 409: "``has_rated_games``: the account played rated games"})


class NewTokenBody(Strict):
    """POST /api/tokens."""

    name: Annotated[str, StringConstraints(max_length=200)]
    """What the token is for, 1 to 60 characters (the service checks)."""
    scopes: Annotated[list[Annotated[str, StringConstraints(max_length=40)]], Field(max_length=8)]
    """``bot:play`` (a bot account's: make and join rooms, play, read) and/or ``read``
    (GET requests only)."""


class TokenInfo(BaseModel):
    """A live token as listed: never the token itself."""

    id: str
    name: str
    scopes: list[str]
    created_ms: int
    last_used_ms: int | None
    """When it was last used, to the nearest 30 seconds; null: never."""


class TokenMade(BaseModel):
    """The token just made: ``token`` is shown this once (only its hash is kept)."""

    id: str
    token: str
    name: str
    scopes: list[str]
    created_ms: int


class TokenList(BaseModel):
    tokens: list[TokenInfo]


class BotMade(BaseModel):
    bot: bool
    bot_since_ms: int


class BotInfo(BaseModel):
    name: str
    bot_since_ms: int
    online: bool
    """One of its tokens was used within the last two minutes."""


class BotList(BaseModel):
    bots: list[BotInfo]
    """Online bots first, then the most recently used; at most 200."""


def _info(row: TokenRow) -> TokenInfo:
    return TokenInfo(
        id=row.id,
        name=row.name,
        scopes=list(row.scopes),
        created_ms=row.created_ms,
        last_used_ms=row.last_used_ms,
    )


@router.post("/tokens", status_code=201, response_model=TokenMade, responses=CREATE_ERRORS)
async def create_token(
    body: NewTokenBody, tokens: TokensDep, account: SignedInAccount
) -> TokenMade:
    """Make a personal access token for the signed-in account: a program sends it as
    ``Authorization: Bearer <token>``.  The answer holds the token, this once."""
    made = await tokens.create(account, body.name, body.scopes)
    row = made.row
    return TokenMade(
        id=row.id,
        token=made.token,
        name=row.name,
        scopes=list(row.scopes),
        created_ms=row.created_ms,
    )


@router.get("/tokens", response_model=TokenList, responses=LIST_ERRORS)
async def list_tokens(tokens: TokensDep, account: SignedInAccount) -> TokenList:
    """The signed-in account's live tokens, oldest first, with their last use."""
    return TokenList(tokens=[_info(row) for row in await tokens.tokens(account)])


@router.delete("/tokens/{token_id}", status_code=204, responses=DELETE_ERRORS)
async def revoke_token(
    tokens: TokensDep,
    account: SignedInAccount,
    token_id: str = Path(max_length=64, description="the token's id"),
) -> Response:
    """Revoke one of the account's tokens: every server process refuses it from the
    next request on (401 ``bad_token``)."""
    await tokens.revoke(account, token_id)
    return Response(status_code=204)


@router.post("/me/bot", response_model=BotMade, responses=BOT_ERRORS)
async def become_bot(tokens: TokensDep, account: SignedInAccount) -> BotMade:
    """Make the signed-in account a bot account, for good: it may then hold ``bot:play``
    tokens, and it is shown as a bot.  Refused (409 ``has_rated_games``) to an account
    that played rated games; asked again, the same answer."""
    return BotMade(bot=True, bot_since_ms=await tokens.make_bot(account))


@router.get("/bots", response_model=BotList)
async def list_bots(tokens: TokensDep) -> BotList:
    """The bot accounts, online ones first (a token of theirs used in the last two
    minutes), at most 200."""
    return BotList(
        bots=[
            BotInfo(name=b.name, bot_since_ms=b.bot_since_ms, online=b.online)
            for b in await tokens.bots()
        ]
    )


def install(app: FastAPI) -> None:
    """The routes (their refusals are AccountError, answered by app/api/accounts.py)."""
    app.include_router(router)


__all__ = ["install", "router"]
