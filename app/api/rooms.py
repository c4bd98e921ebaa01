"""HTTP routes for rooms, seats and deal records."""

from __future__ import annotations

from typing import Any, cast

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel

from app.accounts.service import Account, Accounts
from app.engine.rules import RuleSet
from app.ratings import rated_rooms
from app.rooms.domain import results
from app.rooms.domain.correspondence import DEFAULT_DAYS_PER_MOVE
from app.rooms.domain.errors import ErrorCode, ServiceError
from app.rooms.domain.record_types import DealRecord
from app.rooms.domain.state import RoomOptions

from .deps import PlayersDep, RatingsDep, ServiceDep, client_of
from .limits import CodeLookupLimit, JoinLimit, RoomCreateLimit
from .schemas import (
    CodeLookup,
    CreateRoom,
    ErrorBody,
    JoinRoom,
    RoomCreated,
    RoomSummary,
    SeatTaken,
)
from .session import AccountsDep, CreateAccess, JoinAccess

router = APIRouter(prefix="/api", tags=["rooms"])
RoomId = Path(pattern=r"^[0-9a-f]{32}$", description="the room's id")
ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody},
    409: {"model": ErrorBody},
    410: {"model": ErrorBody},
    422: {"model": ErrorBody},
    429: {"model": ErrorBody, "description": "too many requests or live rooms from your address"},
    503: {"model": ErrorBody, "description": "the database is not answering; try again"},
}
LIMITED: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    429: {"model": ErrorBody, "description": "too many from this address; see Retry-After"},
}


async def _not_an_account(accounts: Accounts, name: str, account: Account | None) -> None:
    """A name that is another person's username is theirs alone (422 ``name_reserved``)."""
    if await accounts.imitates(name, account):
        raise ServiceError(ErrorCode.NAME_RESERVED, "this name is another player's account")


@router.post("/rooms", status_code=201, response_model=RoomCreated, responses=LIMITED)
async def create_room(
    body: CreateRoom,
    service: ServiceDep,
    request: Request,
    _: RoomCreateLimit,
    players: PlayersDep,
    account: CreateAccess,
    accounts: AccountsDep,
) -> results.RoomCreated:
    """Create a room and take its first seat; bot seats are taken at once.  An address
    may have MAX_ROOMS_PER_IP rooms waiting or in play (429 ``too_many_rooms``).  With
    ACCESS=accounts or members, only a signed-in account may (401 ``sign_in_required``).
    A rated room only a signed-in person may make (403 ``rated_account_required``)."""
    await _not_an_account(accounts, body.name, account)
    rules = RuleSet.from_dict(cast(BaseModel, body.rules).model_dump())  # a made model
    if body.rated:
        rated_rooms.check_create(account is not None, rules.partnership)
    correspondence = body.pace == "correspondence"  # played over days (issue 32)
    options = RoomOptions(
        bot_level=body.bot_level,
        bot_delay=service.settings.default_bot_delay if body.bot_delay is None else body.bot_delay,
        turn_clock=body.turn_clock,
        grace=service.settings.default_grace if body.grace is None else body.grace,
        deal_pause=(
            0.0
            if correspondence  # a deal's end waits for nobody
            else service.settings.default_deal_pause
            if body.deal_pause is None
            else body.deal_pause
        ),
        time_bank=body.time_bank,
        time_increment=body.time_increment,
        public=body.public,
        spectator_chat=body.spectator_chat,
        takeback=body.takeback,
        hints=body.hints,
        rated=body.rated,
        pace=body.pace,
        days_per_move=(body.days_per_move or DEFAULT_DAYS_PER_MOVE) if correspondence else None,
        day_seconds=service.settings.day_seconds,
    )
    made = await service.create_room(
        body.players, body.name, rules, body.bots, options, creator=client_of(request)
    )
    if body.player is not None:  # for "My games": only the key's hash is stored
        await players.link(made["room_id"], made["seat"], made["token"], body.player)
    if account is not None:
        await accounts.link_seat(account, made["room_id"], made["seat"], made["token"])
    return made


@router.post("/rooms/{room_id}/seats", status_code=201, response_model=SeatTaken, responses=LIMITED)
async def join_room(
    body: JoinRoom,
    service: ServiceDep,
    _: JoinLimit,
    players: PlayersDep,
    account: JoinAccess,
    accounts: AccountsDep,
    ratings: RatingsDep,
    room_id: str = RoomId,
) -> results.SeatGiven:
    """Take the next free seat; 409 room_full when none is left.  A rated room takes only
    signed-in people (403 ``rated_account_required``), each once (409
    ``rated_already_seated``)."""
    await _not_an_account(accounts, body.name, account)
    if (await service.options(room_id)).rated:
        seated = await ratings.seated_accounts(room_id)
        rated_rooms.check_join(None if account is None else account.id, seated)
    taken = await service.join(room_id, body.name)
    if body.player is not None:
        await players.link(room_id, taken["seat"], taken["token"], body.player)
    if account is not None:
        await accounts.link_seat(account, room_id, taken["seat"], taken["token"])
    return taken


@router.get("/rooms/{room_id}", response_model=RoomSummary, responses=ERRORS)
async def room_summary(service: ServiceDep, room_id: str = RoomId) -> results.RoomSummary:
    """The public summary: status, seats (with presence), rules, deal number, totals."""
    return await service.summary(room_id)


@router.get("/codes/{code}", response_model=CodeLookup, responses=LIMITED)
async def room_for_code(
    service: ServiceDep, _: CodeLookupLimit, code: str = Path(pattern=r"^[A-Za-z0-9]{4,12}$")
) -> CodeLookup:
    """Find a room by its short code (case-insensitive)."""
    return CodeLookup(room_id=await service.room_id_for_code(code))


@router.get("/rooms/{room_id}/deals/{deal_no}", response_model=None, responses=ERRORS)
async def deal_record(
    service: ServiceDep, room_id: str = RoomId, deal_no: int = Path(ge=1, le=1000)
) -> DealRecord:
    """A finished deal of the current match as a replayable scenario, with seed and commitment."""
    return await service.deal_record(room_id, deal_no)
