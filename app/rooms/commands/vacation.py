"""A seat's vacation in a correspondence room (issue 32): switched on, the seat's clock
stands still until it is switched off, the seat moves, or its days run out
(app/rooms/domain/correspondence.py).  A ``vacation`` event, so every process and every
replay agrees on each deadline."""

from __future__ import annotations

from ..domain.errors import ErrorCode, ServiceError, refuse_closed
from ..domain.events import VacationSet
from ..domain.specs import Spec
from ..domain.state import FINISHED, PLAYING, RoomState
from ..leases import now_ms
from ..registry import runtime
from ..unit import RoomsUnit
from ..writes import WritePath


def check_vacation(st: RoomState, seat: int | None, on: bool, now: int) -> list[Spec]:
    """The event to write, none when nothing would change; refuses a spectator, a live
    room, a room not in play and a seat with no vacation left (nothing changes)."""
    if seat is None:
        raise ServiceError(ErrorCode.UNAUTHORIZED, "only a seated player may go on vacation")
    corr = st.corr
    if corr is None:
        raise ServiceError(
            ErrorCode.NOT_CORRESPONDENCE, "vacations are for correspondence rooms only"
        )
    refuse_closed(st)
    if st.status != PLAYING:
        if st.status == FINISHED:
            raise ServiceError(ErrorCode.DEAL_OVER, "the match is over")
        raise ServiceError(ErrorCode.NOT_YOUR_TURN, "the game has not started")
    vacation = corr.vacations[seat]
    if on:
        if vacation.left_at(now) <= 0:
            raise ServiceError(ErrorCode.NO_VACATION_LEFT, "no vacation left in this match")
        if vacation.since is not None:
            return []  # on vacation already
    elif vacation.since is None:
        return []
    return [Spec(VacationSet(seat, on))]


async def set_vacation(
    unit: RoomsUnit, writes: WritePath, room_id: str, seat: int | None, on: bool
) -> None:
    rt = await runtime(unit, room_id)
    await writes.write(rt, lambda st: check_vacation(st, seat, on, now_ms()))
