"""HTTP routes for rooms, seats and deal records, and the rule of every route that
makes a room (``MakesRoom``, ``FormsRooms``).

Every request that makes a room (POST /api/rooms, "Play now" among them; the deal of
the day and "Play this deal yourself"; "Find a game") passes one dependency before
anything else is read: the access mode's rule for making rooms (401
``sign_in_required`` for a guest with ACCESS=accounts or members), then
ROOM_CREATE_PER_MINUTE against its address, then the live-room caps of its address
(MAX_ROOMS_PER_IP) and of its account when signed in (MAX_ROOMS_PER_ACCOUNT): 429
``too_many_rooms``, saying what counts and how a place frees up.  A pairing ticket's
poll may form tables too (its own, or others'): it passes the access rule alone, its
room having been counted when the ticket was made.  tests/api/test_room_routes.py
finds every route that can make a room in the route table and checks it carries one
of the two."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, cast

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.accounts.service import Account, AccountError, Accounts
from app.botplay.service import BOTS_NOT_ALLOWED
from app.core.errors import ErrorCode, ServiceError
from app.engine.rules import RuleSet
from app.ratings import rated_rooms
from app.review.archive import Archive, GameEntry
from app.rooms.commands.seats import too_many_rooms
from app.rooms.domain import commands, results
from app.rooms.domain.correspondence import DEFAULT_DAYS_PER_MOVE
from app.rooms.domain.record_types import DealRecord
from app.rooms.domain.state import RoomOptions

from .clubs import ClubsDep
from .daily_access import DailyGuard
from .deps import ArchiveDep, PlayersDep, RatingsDep, ServiceDep, SettingsDep, client_of
from .limits import CodeLookupLimit, JoinLimit, RoomCreateLimit
from .schemas import (
    CodeLookup,
    CreateRoom,
    JoinRoom,
    RoomCreated,
    RoomSummary,
    SeatTaken,
    refusals,
)
from .session import AccountsDep, CreateAccess, JoinAccess

LIVE = ("waiting", "playing")

router = APIRouter(prefix="/api", tags=["rooms"])
RoomId = Path(pattern=r"^[0-9a-f]{32}$", description="the room's id")
ERRORS = refusals(
    {
        404: None,
        409: None,
        410: None,
        422: None,
        429: "too many requests or live rooms from your address",
        503: "the database is not answering; try again",
    }
)
LIMITED = {**ERRORS, **refusals({429: "too many from this address; see Retry-After"})}
MAKING = {
    **LIMITED,
    **refusals(
        {
            401: "sign_in_required: this server wants an account",
            403: "rated_account_required, bots_not_rated; club_members_only: a club-only "
            "room is made by a member of its club",
            429: "rate_limited (see Retry-After), or too_many_rooms: as many live "
            "rooms from this address or account as it may have",
        }
    ),
}
JOINING = {
    **LIMITED,
    **refusals(
        {
            403: "rated_account_required, bots_not_rated, bots_not_allowed; "
            "club_members_only: a club-only room's seats are its club's members'",
        }
    ),
}


@dataclass(frozen=True, slots=True)
class RoomMaker:
    """What a route that makes rooms is handed: the signed-in account, if any, and the
    address its rooms count against."""

    account: Account | None
    address: str


def _first_person(game: GameEntry) -> int | None:
    """The seat of a room's maker: the first seat a person holds (seat 0, or the one
    seat among bots of a replayed deal, or a table's first ticket)."""
    return next((s["seat"] for s in game["seats"] if s["name"] and not s["bot"]), None)


async def account_rooms(archive: Archive, account_id: str) -> int:
    """Live rooms the account made: those of its games in which it holds the maker's
    seat (a room it joined is someone else's)."""
    games = await archive.games([], account_id)
    return sum(1 for g in games if g["status"] in LIVE and g["seat"] == _first_person(g))


async def making_room(
    request: Request,
    account: CreateAccess,
    _: RoomCreateLimit,
    service: ServiceDep,
    archive: ArchiveDep,
    settings: SettingsDep,
) -> RoomMaker:
    """The rule of every route that makes a room, in this order: the access mode's,
    ROOM_CREATE_PER_MINUTE, then the live-room caps of the address and the account."""
    maker = RoomMaker(account, client_of(request))
    ends = settings.abandoned_room_minutes or None
    await service.check_room_caps(maker.address, ends)
    cap = settings.max_rooms_per_account
    cap = settings.max_rooms_per_ip if cap is None else cap
    if account is not None and cap:
        mine = await account_rooms(archive, account.id)
        if mine >= cap:
            raise too_many_rooms("your account", mine, cap, ends)
    return maker


async def forming_rooms(request: Request, account: CreateAccess) -> RoomMaker:
    """The access rule alone, for a route that may form rooms already asked for (a
    pairing ticket's poll)."""
    return RoomMaker(account, client_of(request))


MakesRoom = Annotated[RoomMaker, Depends(making_room)]
FormsRooms = Annotated[RoomMaker, Depends(forming_rooms)]
ROOM_RULES = (making_room, forming_rooms)
"""The dependencies that mark a route as one that makes rooms (each applies the
access mode's rule for making rooms first)."""


async def _not_an_account(accounts: Accounts, name: str, account: Account | None) -> None:
    """A name that is another person's username is theirs alone (422 ``name_reserved``)."""
    if await accounts.imitates(name, account):
        raise ServiceError(ErrorCode.NAME_RESERVED, "this name is another player's account")


@router.post("/rooms", status_code=201, response_model=RoomCreated, responses=MAKING)
async def create_room(
    maker: MakesRoom,
    body: CreateRoom,
    service: ServiceDep,
    players: PlayersDep,
    accounts: AccountsDep,
    settings: SettingsDep,
    clubs: ClubsDep,
) -> results.RoomCreated:
    """Create a room and take its first seat; bot seats are taken at once.  An address
    may have MAX_ROOMS_PER_IP rooms waiting or in play, an account MAX_ROOMS_PER_ACCOUNT
    (429 ``too_many_rooms``).  With ACCESS=accounts or members, only a signed-in account
    may (401 ``sign_in_required``).  A rated room only a signed-in person may make (403
    ``rated_account_required``), a bot account only with ALLOW_RATED_BOTS (403
    ``bots_not_rated``).  With ``club_id``, a club-only room: made by a member of that
    open club (403 ``club_members_only``, 404 ``no_such_club``, 409 ``club_closed``),
    never public (422)."""
    account = maker.account
    await _not_an_account(accounts, body.name, account)
    if body.club_id is not None:  # a club-only room: made by a member (issue 49)
        if body.public:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, "a club-only room is not listed in the public lobby"
            )
        await clubs.check_seat(body.club_id, None if account is None else account.id)
    rules = RuleSet.from_dict(cast(BaseModel, body.rules).model_dump())  # a made model
    if body.rated:
        rated_rooms.check_create(account is not None, rules.partnership)
        rated_rooms.check_bot(account is not None and account.bot, settings.allow_rated_bots)
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
        club_id=body.club_id,
    )
    plan = commands.NewRoom(
        body.players,
        body.name,
        rules,
        body.bots,
        options,
        creator=maker.address,
        outside_bot=account is not None and account.bot,  # marked a bot's seat (issue 51)
    )
    made = await service.execute(plan)
    if body.player is not None:  # for "My games": only the key's hash is stored
        await players.link(made.room_id, made.seat, made.token, body.player)
    if account is not None:
        await accounts.link_seat(account, made.room_id, made.seat, made.token)
    return made


@router.post("/rooms/{room_id}/seats", status_code=201, response_model=SeatTaken, responses=JOINING)
async def join_room(
    body: JoinRoom,
    service: ServiceDep,
    _: JoinLimit,
    players: PlayersDep,
    account: JoinAccess,
    accounts: AccountsDep,
    ratings: RatingsDep,
    settings: SettingsDep,
    clubs: ClubsDep,
    room_id: str = RoomId,
) -> results.SeatGiven:
    """Take the next free seat; 409 room_full when none is left.  A name that looks like
    a seated player's (same skeleton: app/names.py) is refused (422 ``name_reserved``).
    A rated room takes only signed-in people (403 ``rated_account_required``), each once
    (409 ``rated_already_seated``), and a bot account only with ALLOW_RATED_BOTS (403
    ``bots_not_rated``).  A bot account takes a public room's seat by itself only with
    OUTSIDE_BOTS_IN_PUBLIC_ROOMS (403 ``bots_not_allowed``).  A club-only room's seats
    are its club's members' (403 ``club_members_only``, 409 ``club_closed``)."""
    await _not_an_account(accounts, body.name, account)
    room = await service.options(room_id)
    if room.club_id is not None:  # a club-only room's seats are its members' (issue 49)
        await clubs.check_seat(room.club_id, None if account is None else account.id)
    if account is not None and account.bot and room.public:
        check_outside_bot(settings.outside_bots_in_public_rooms)
    if room.rated:
        seated = await ratings.seated_accounts(room_id)
        rated_rooms.check_join(None if account is None else account.id, seated)
        rated_rooms.check_bot(account is not None and account.bot, settings.allow_rated_bots)
    # no look-alike of a seated person's name (issue 46)
    outside_bot = account is not None and account.bot  # marked a bot's seat (issue 51)
    join = commands.JoinRoom(room_id, body.name, distinct=True, outside_bot=outside_bot)
    taken = await service.execute(join)
    if body.player is not None:
        await players.link(room_id, taken.seat, taken.token, body.player)
    if account is not None:
        await accounts.link_seat(account, room_id, taken.seat, taken.token)
    return taken


def check_outside_bot(allowed: bool) -> None:
    """A bot account takes a public room's seat by itself only where the host lets
    outside bots in (OUTSIDE_BOTS_IN_PUBLIC_ROOMS): 403 ``bots_not_allowed``."""
    if not allowed:
        raise AccountError(
            403,
            BOTS_NOT_ALLOWED,
            "bot accounts do not take seats of public rooms on this server by themselves: "
            "a room's player may seat one by name (POST /api/rooms/{id}/bots)",
        )


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
    service: ServiceDep,
    refused: DailyGuard,
    room_id: str = RoomId,
    deal_no: int = Path(ge=1, le=1000),
) -> DealRecord | JSONResponse:
    """A finished deal of the current match as a replayable scenario, with seed and
    commitment; 403 ``daily_private`` for a deal of the day's room before the day is
    over, but to its player (``DailyGuard``)."""
    if refused is not None:
        return refused
    return await service.deal_record(room_id, deal_no)
