"""HTTP routes for a player who changes devices: "My games", seat transfers, rejoining.

A player is known by the key its browser made (``X-Player-Key``, see
``app/players/players.py``); the server keeps only the key's hash.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from fastapi import APIRouter, Header, HTTPException
from pydantic import BaseModel, Field, StringConstraints

from app.engine.rules import RuleValues
from app.players import players as players_feature
from app.players.players import KEY_PATTERN, MAX_KEYS, player_hash
from app.rooms.domain.results import SeatGiven

from .deps import ArchiveDep, PlayersDep
from .history import MatchEntry, SeatEntry
from .limits import CodeLookupLimit, JoinLimit
from .rooms import ERRORS, RoomId
from .schemas import SeatTaken, Strict
from .session import MaybeAccount

router = APIRouter(prefix="/api", tags=["players"])
_KEY = re.compile(KEY_PATTERN)


def _keys(header: str | None, required: bool) -> list[str]:
    keys = [k.strip() for k in (header or "").split(",") if k.strip()]
    if not keys:
        if required:
            raise HTTPException(401, "send your player key in X-Player-Key")
        return []
    if len(keys) > MAX_KEYS or not all(_KEY.fullmatch(k) for k in keys):
        raise HTTPException(
            422,
            f"X-Player-Key: 1 to {MAX_KEYS} keys, comma-separated, "
            "each base64url of 22 to 64 characters",
        )
    return keys


KeyHeader = Annotated[
    str | None,
    Header(
        alias="X-Player-Key",
        description=(
            "the browser's player key; a browser that received another device's key may send "
            "both, comma-separated"
        ),
    ),
]


class GameEntry(BaseModel):
    room_id: str
    code: str
    status: str
    players: int
    rules: RuleValues
    seat: int
    """The seat this player holds."""
    seats: list[SeatEntry]
    updated_at: str
    matches: list[MatchEntry]
    pace: Literal["live", "correspondence"]
    """Played while its players sit at it, or over days (issue 32)."""
    to_move: bool
    """The room waits for this player's move (a correspondence room's deadline runs)."""
    deadline: int | None
    """When the move the room waits for falls due (Unix ms), whichever person's it is;
    null in a live room, while a bot is to move and when no move is awaited."""


class Games(BaseModel):
    games: list[GameEntry]
    """The rooms where it is this player's move first, the soonest deadline first, then
    the rest, the most recently changed first."""


class TransferRequest(Strict):
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    """The seat's token: proof that the asker holds the seat."""
    sealed: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32,128}$")] | None = None
    """The player key XOR a pad the link carries (hex): handed to the claimer, unread."""


class TransferMade(BaseModel):
    code: str
    room_id: str
    seat: int
    expires_at: int
    """Unix ms after which the code is refused."""
    seconds: int


class ClaimRequest(Strict):
    code: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{16,64}$")]


class Claimed(BaseModel):
    room_id: str
    seat: int
    token: str
    """The seat's new token: the old device's token no longer works."""
    sealed: str | None = Field(description="the sealed player key, to open with the pad")


@router.get("/me/games", response_model=Games, responses=ERRORS)
async def my_games(
    archive: ArchiveDep, account: MaybeAccount, x_player_key: KeyHeader = None
) -> Games:
    """The rooms this player sat in (newest first), each with the seat held and its
    matches' standings; rooms still in play can be rejoined.  Signed in, the account's
    rooms too, from whichever device (the key is then optional)."""
    keys = _keys(x_player_key, required=account is None)
    hashes = [player_hash(k) for k in keys]
    found = await archive.games(hashes, account.id if account else None)
    return Games.model_validate({"games": found})


@router.post(
    "/rooms/{room_id}/transfers", status_code=201, response_model=TransferMade, responses=ERRORS
)
async def make_transfer(
    body: TransferRequest,
    players: PlayersDep,
    _: JoinLimit,
    room_id: str = RoomId,
    x_player_key: KeyHeader = None,
) -> players_feature.TransferMade:
    """A one-time code that moves this seat to another device within five minutes
    (counted with seat requests against JOIN_PER_MINUTE)."""
    keys = _keys(x_player_key, required=False)
    return await players.create_transfer(
        room_id, body.token, body.sealed, keys[0] if keys else None
    )


@router.post("/transfers/claim", response_model=Claimed, responses=ERRORS)
async def claim_transfer(
    body: ClaimRequest, players: PlayersDep, _: CodeLookupLimit
) -> players_feature.SeatClaimed:
    """Use a transfer code (once): the seat gets a new token, returned here; the old
    device's connections of the seat get a ``seat_moved`` error and are closed.  410
    ``transfer_used`` or ``transfer_expired``, 404 for an unknown code (claims count
    against CODE_LOOKUP_PER_MINUTE)."""
    return await players.claim(body.code)


@router.post("/rooms/{room_id}/seats/reclaim", response_model=SeatTaken, responses=ERRORS)
async def reclaim_seat(
    players: PlayersDep,
    _: JoinLimit,
    account: MaybeAccount,
    room_id: str = RoomId,
    x_player_key: KeyHeader = None,
) -> SeatGiven:
    """Take up this player's seat in the room from a device without its token: a new
    token; connections with the old one are moved off (``seat_moved``).  Signed in, a
    seat of the account is taken up too (no key needed)."""
    keys = _keys(x_player_key, required=account is None)
    return await players.reclaim(room_id, keys, account.id if account else None)


class OwnSeat(BaseModel):
    seat: int | None
    """The seat this browser's player holds in the room (its signed-in account, or one
    of its player keys), or null: it may only watch, or take a free seat."""


@router.get("/rooms/{room_id}/seats/mine", response_model=OwnSeat, responses=ERRORS)
async def my_seat(
    players: PlayersDep,
    account: MaybeAccount,
    room_id: str = RoomId,
    x_player_key: KeyHeader = None,
) -> OwnSeat:
    """Which seat of the room is this player's, without taking it or changing its token
    (issue 47): a page opens the room seated (the WebSocket hello's ``own``), and the
    replay and the coach know whose deal it is.  Signed in, the account's seat; else
    the seat of one of the player keys sent.  Null for anyone else."""
    keys = _keys(x_player_key, required=False)
    return OwnSeat(seat=await players.held_seat(room_id, keys, account.id if account else None))
