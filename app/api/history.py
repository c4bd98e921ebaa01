"""HTTP routes for a room's history: its matches, a whole match, any finished deal.

Read from the stored rows (``app/review/archive.py``): they answer the same after a
rematch and after a restart.  A deal that is not over answers 404, and nothing
about it (hands, stock, seed) is in any answer here.

A room that played the deal of the day shows every card of that day's deal once its
deal is over: until the day is over (UTC, as the deal of the day's clock) its records,
replays, analyses and "Play this deal yourself" are its player's alone (the player key
that played it, in ``X-Player-Key``, or the signed-in account that did), and anyone
else gets 403 ``daily_private`` (``DailyGuard``: app/api/daily_access.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.engine.rules import RuleValues
from app.review import archive as history
from app.rooms.domain.record_types import DealRecord

from .daily_access import DailyGuard
from .deps import ArchiveDep
from .rooms import ERRORS, RoomId
from .schemas import refusals

router = APIRouter(prefix="/api", tags=["history"])


MatchNo = Path(ge=1, le=100000, description="the match's number in the room (1 first)")
DealNo = Path(ge=1, le=1000, description="the deal's number in its match (1 first)")

PRIVATE = {**ERRORS, **refusals({403: "daily_private: a deal of the day not over yet"})}
"""The answers of a route that takes ``DailyGuard`` (app/api/daily_access.py)."""


class SeatEntry(BaseModel):
    seat: int
    name: str | None
    bot: bool
    outside_bot: bool = False
    """Held by a bot account (issue 51): a program, not a person, played it."""


class DealEntry(BaseModel):
    deal_no: int
    dealer: int
    scores: list[dict[str, int]]
    """Per seat, as the view's ``scores``: card points, sweeps made and conceded, total."""
    totals: list[int]


class MatchEntry(BaseModel):
    match_no: int
    status: str
    """``finished``, ``playing``, or ``closed`` (the room was closed before its end)."""
    rules: RuleValues
    players: int
    seats: list[SeatEntry]
    first_dealer: int
    deals_total: int | None
    """Deals the match lasts; null when it runs to a points limit."""
    deals_played: int
    deals: list[DealEntry]
    """Its finished deals, in order; a deal in play is not listed."""
    cumulative: list[int]
    team_cumulative: list[int] | None
    winners: list[int]
    """Seats that won (ties share); empty until the match is finished."""


class MatchDownload(MatchEntry):
    room_id: str
    code: str
    records: list[Mapping[str, object]]
    """The record of each finished deal, as GET .../matches/{m}/deals/{n} without
    positions: each one replays with ``krypkasino scenario``.  (A ``DealRecord``,
    app/rooms/domain/record_types.py: a ``TypedDict`` with keys that are sent only
    when set, which a pydantic model here would send as nulls.)"""


@router.get("/rooms/{room_id}/matches", response_model=list[MatchEntry], responses=ERRORS)
async def matches(archive: ArchiveDep, room_id: str = RoomId) -> list[history.MatchEntry]:
    """Every match the room played, oldest first: seats, each finished deal's scores,
    cumulative totals and winners.  Kept across rematches and restarts."""
    return await archive.matches(room_id)


@router.get("/rooms/{room_id}/matches/{match_no}", response_model=MatchDownload, responses=PRIVATE)
async def match(
    archive: ArchiveDep,
    refused: DailyGuard,
    room_id: str = RoomId,
    match_no: int = MatchNo,
    download: bool = Query(False, description="send as a file to save"),
) -> Any:
    """One match with the records of all its finished deals (one JSON file).  403
    ``daily_private`` for a deal of the day's room before the day is over, but to its
    player."""
    if refused is not None:
        return refused
    body = await archive.match(room_id, match_no)
    if not download:
        return body
    name = f"krypkasino-{body['code']}-match-{match_no}.json"
    return JSONResponse(
        MatchDownload.model_validate(body).model_dump(mode="json"),
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/rooms/{room_id}/matches/{match_no}/deals/{deal_no}", response_model=None, responses=PRIVATE
)
async def deal(
    archive: ArchiveDep,
    refused: DailyGuard,
    room_id: str = RoomId,
    match_no: int = MatchNo,
    deal_no: int = DealNo,
    positions: bool = Query(
        False, description="add every position of the deal, replayed by the server's engine"
    ),
) -> DealRecord | JSONResponse:
    """Finished deal n of match m: a scenario of the exchange format (``players``,
    ``dealer``, ``rules``, the opening ``hands``, ``table``, ``stock``, ``moves``) plus
    ``scores``, ``totals``, ``award``, ``seed``, ``commitment`` and ``seats``; with
    ``positions=true`` also ``positions``: after each move, every hand, the table,
    the stock count, set-aside pictures, sweep markers, running scores and what the
    move did.  404 until the deal is over; 403 ``daily_private`` for a deal of the
    day's room before the day is over, but to its player."""
    if refused is not None:
        return refused
    return await archive.deal(room_id, match_no, deal_no, positions)
