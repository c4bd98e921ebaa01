"""HTTP routes of the deal of the day and "Play this deal yourself" (issue 32,
app/daily/; docs/protocol.md, docs/daily.md).

Who plays is a browser's player key (``X-Player-Key``; only its hash is kept): the
deal of the day is played once per key and deal, so a request without one is 401.
A signed-in account plays each deal once too, whatever key it sends.  The results
name a play's room (its replay) only once the day is over or to its own player: a
replay shows every card of the day's deal (and is its player's alone till then).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.accounts.service import AccountError
from app.botplay.service import BOTS_NOT_ALLOWED
from app.core.errors import ErrorCode, ServiceError
from app.daily.service import DayInfo, Results
from app.players.players import player_hash
from app.rooms.domain import results
from app.wire import Name

from .coach import DEAL_NOT_OVER_STATUS
from .daily_access import DailyGuard
from .deps import DailyDep, PlayersDep, SoloDep
from .errors import error
from .history import DealNo, MatchNo
from .pairing import KeyHeader, player_key
from .rooms import ERRORS, MAKING, MakesRoom, RoomId, _not_an_account
from .schemas import RoomCreated, Strict, refusals
from .session import AccountsDep, MaybeAccount

router = APIRouter(prefix="/api", tags=["daily"])
RESPONSES = {
    **MAKING,
    **refusals(
        {
            401: "no player key (X-Player-Key), or sign_in_required",
            403: "bots_not_allowed: a bot account's token",
        }
    ),
}
DEFAULT_NAME = "Player"


class PlayDaily(Strict):
    name: Name | None = None
    """The name the results show (default ``Player``)."""


class PlaySolo(Strict):
    seat: int | None = Field(default=None, ge=0, le=5)
    """The seat to play from; default: the one the player key held in that room, else 0."""
    name: Name | None = None


class DealSummary(BaseModel):
    players: int
    commitment: str
    played: int
    """Plays of it finished."""
    seed: str | None
    """Null until the day is over."""


class DaySummary(BaseModel):
    date: str
    deals: list[DealSummary]


class PastDays(BaseModel):
    days: list[DaySummary]


class ResultEntry(BaseModel):
    name: str
    points: int
    rank: int
    percentile: float
    room_id: str | None
    you: bool
    ranked: bool
    """False for a play past DAILY_RANKED_PER_ADDRESS plays of the deal from one address."""


class DayResults(BaseModel):
    date: str
    players: int
    commitment: str
    seed: str | None
    results: list[ResultEntry]
    you: ResultEntry | None


def _required_key(header: str | None) -> str:
    key = player_key(header)
    if key is None:
        raise HTTPException(401, "send your player key in X-Player-Key")
    return key


@router.get("/daily", response_model=DaySummary, responses=ERRORS)
async def today(daily: DailyDep) -> DayInfo:
    """Today's deals (UTC): per player count its seed's SHA-256 commitment (published
    from the start of the day; the seed itself once the day is over) and how many
    have finished it."""
    return await daily.overview()


@router.get("/daily/days", response_model=PastDays, responses=ERRORS)
async def past_days(daily: DailyDep) -> dict[str, list[DayInfo]]:
    """The latest 30 days before today that had deals, newest first, with their seeds."""
    return {"days": await daily.past_days()}


@router.post("/daily/{players}", status_code=201, response_model=RoomCreated, responses=RESPONSES)
async def play(
    maker: MakesRoom,
    daily: DailyDep,
    players_dep: PlayersDep,
    accounts: AccountsDep,
    players: int = Path(description="the table's size (GET /api/daily lists them)"),
    body: PlayDaily | None = None,
    x_player_key: KeyHeader = None,
) -> results.RoomCreated:
    """Seat the player at today's deal against strong bots: 201 with the room, seat and
    token; 409 ``already_played`` when this key, or this signed-in account (whatever
    key it sends), has played it; 401 without a key; 404 for a player count without a
    deal of the day; 403 ``bots_not_allowed`` for a bot account.  A new room: the rule
    of every route that makes one applies first (app/api/rooms.py, ``MakesRoom``)."""
    account = maker.account
    if account is not None and account.bot:  # its results rank people (issue 51)
        raise AccountError(
            403,
            BOTS_NOT_ALLOWED,
            "the deal of the day ranks people; a bot measures itself on the bot ladder",
        )
    key = _required_key(x_player_key)
    name = (body.name if body is not None else None) or DEFAULT_NAME
    await _not_an_account(accounts, name, account)
    account_id = None if account is None else account.id  # one play per account too
    made = await daily.play(players, player_hash(key), name, maker.address, account_id)
    await players_dep.link(made.room_id, made.seat, made.token, key)
    if account is not None:
        await accounts.link_seat(account, made.room_id, made.seat, made.token)
    return made


@router.get("/daily/{date}/{players}/results", response_model=DayResults, responses=ERRORS)
async def day_results(
    daily: DailyDep,
    account: MaybeAccount,
    date: str = Path(pattern=r"^\d{4}-\d{2}-\d{2}$", description="the UTC date"),
    players: int = Path(),
    x_player_key: KeyHeader = None,
) -> Results:
    """The finished ranked plays of that day's deal, best (fewest points) first: rank
    (ties share it) and percentile (docs/daily.md); ``seed`` once the day is over;
    ``you`` for the asking player key or account, ranked or not."""
    key = player_key(x_player_key)
    mine = player_hash(key) if key is not None else None
    return await daily.results(date, players, mine, None if account is None else account.id)


@router.post(
    "/rooms/{room_id}/matches/{match_no}/deals/{deal_no}/solo",
    status_code=201,
    response_model=RoomCreated,
    responses=MAKING,
)
async def play_yourself(
    maker: MakesRoom,
    refused: DailyGuard,
    solo: SoloDep,
    players_dep: PlayersDep,
    accounts: AccountsDep,
    room_id: str = RoomId,
    match_no: int = MatchNo,
    deal_no: int = DealNo,
    body: PlaySolo | None = None,
    x_player_key: KeyHeader = None,
) -> Any:
    """ "Play this deal yourself": a new room against bots on that finished deal's
    shuffled pack and dealer, from ``seat`` (default: the seat this player key held
    there, else 0).  404 for no such deal, 409 ``deal_not_over`` while it is played,
    403 ``daily_private`` for a deal of the day not over yet but to its player.
    A new room: the rule of every route that makes one applies first (``MakesRoom``)."""
    if refused is not None:
        return refused
    account = maker.account
    key = player_key(x_player_key)
    name = (body.name if body is not None else None) or DEFAULT_NAME
    await _not_an_account(accounts, name, account)
    try:
        made = await solo.play_again(
            room_id,
            match_no,
            deal_no,
            seat=body.seat if body is not None else None,
            player_hash=player_hash(key) if key is not None else None,
            name=name,
            creator=maker.address,
        )
    except ServiceError as exc:
        if exc.code == ErrorCode.DEAL_NOT_OVER:
            return error(DEAL_NOT_OVER_STATUS, exc.code, exc.message)
        raise
    if key is not None:
        await players_dep.link(made.room_id, made.seat, made.token, key)
    if account is not None:
        await accounts.link_seat(account, made.room_id, made.seat, made.token)
    shown = RoomCreated(room_id=made.room_id, code=made.code, seat=made.seat, token=made.token)
    return JSONResponse(shown.model_dump(), status_code=201)
