"""What comes in and what goes out over HTTP, as pydantic models (validated, size-bounded).

The WebSocket's messages are in ``app/wire.py``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.wire import Name


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Rules(Strict):
    partnership: bool = False
    single_pack: bool = False
    nordic: bool = False
    no_forced_sweep: bool = False
    bordstabbe: bool = False
    strict_capture: bool = False
    four_card_deal: bool = False
    match_deals: int | None = Field(default=None, ge=1, le=100)
    match_limit: int | None = Field(default=None, ge=1, le=1000)


PlayerKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{22,64}$")]
"""A browser's player key (app/rooms/players.py): base64url, at least 128 bits."""


class CreateRoom(Strict):
    players: int = Field(ge=2, le=6)
    name: Name
    rules: Rules = Field(default_factory=Rules)
    bots: int = Field(default=0, ge=0, le=5)
    bot_level: Literal["random", "greedy", "strong"] = "greedy"
    bot_delay: float | None = Field(default=None, ge=0, le=10)
    turn_clock: float | None = Field(default=None, ge=1, le=600)
    grace: float | None = Field(default=None, ge=0, le=3600)
    player: PlayerKey | None = None
    """The creator's player key: the seat is listed in its "My games" (only a hash is kept)."""


class RoomCreated(BaseModel):
    room_id: str
    code: str
    seat: int
    token: str


class JoinRoom(Strict):
    name: Name
    player: PlayerKey | None = None
    """The player's key, as for CreateRoom."""


class SeatTaken(BaseModel):
    seat: int
    token: str


class ErrorBody(BaseModel):
    code: str
    message: str


class SeatSummary(BaseModel):
    seat: int
    name: str | None
    bot: bool
    connected: bool


class Closed(BaseModel):
    reason: str
    at: str | None
    """When (ISO 8601, UTC) an operator closed the room."""


class RoomSummary(BaseModel):
    room_id: str
    code: str
    status: Literal["waiting", "playing", "finished"]
    players: int
    seats: list[SeatSummary]
    rules: dict[str, Any]
    options: dict[str, Any]
    deal_no: int
    deals_total: int | None
    cumulative: list[int]
    match_no: int
    closed: Closed | None = None
    """Set once an operator closed the room (it is then ``finished`` for good)."""


class CodeLookup(BaseModel):
    room_id: str
