"""What the rooms' commands and reads answer, typed (the API serves them as they are)."""

from __future__ import annotations

from typing import TypedDict

from app.engine.rules import RuleValues
from app.wire.view import ClosedView, RoomOptionsView


class PlayAnswer(TypedDict):
    """A committed play's seq; ``duplicate`` when its id had been played already."""

    seq: int
    duplicate: bool


class SeatGiven(TypedDict):
    """A seat and its secret token (only its hash is stored)."""

    seat: int
    token: str


class RoomCreated(SeatGiven):
    room_id: str
    code: str


class SeatSummary(TypedDict):
    seat: int
    name: str | None
    bot: bool
    connected: bool


class RoomSummary(TypedDict):
    """GET /api/rooms/{id}: the room as anyone may see it."""

    room_id: str
    code: str
    status: str
    players: int
    seats: list[SeatSummary]
    rules: RuleValues
    options: RoomOptionsView
    deal_no: int
    deals_total: int | None
    cumulative: list[int]
    match_no: int
    closed: ClosedView | None


class HintAnswer(TypedDict):
    """A hint (issue 33): the strong bot's move for the asking person's position, and the
    room's seq it is for.  Sent to the asking connection only: it names a card in hand."""

    seq: int
    card: str
    take: list[str]
