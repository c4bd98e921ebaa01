"""A seat's vacation in a correspondence room (issue 32): switched on, the seat's clock
stands still until it is switched off, the seat moves, or its days run out
(app/rooms/domain/correspondence.py).  A ``vacation`` event, so every process and every
replay agrees on each deadline."""

from __future__ import annotations

from app.core.clock import now_ms
from app.core.errors import ErrorCode, ServiceError

from ..domain.commands import SetVacation
from ..domain.errors import RoomCode, refuse_closed
from ..domain.events import VacationSet
from ..domain.specs import Spec
from ..domain.state import FINISHED, PLAYING, RoomState
from ..registry import runtime
from .context import Context, handles


def check_vacation(st: RoomState, seat: int | None, on: bool, now: int) -> list[Spec]:
    """The event to write, none when nothing would change; refuses a spectator, a live
    room, a room not in play and a seat with no vacation left (nothing changes)."""
    if seat is None:
        raise ServiceError(ErrorCode.UNAUTHORIZED, "only a seated player may go on vacation")
    corr = st.corr
    if corr is None:
        raise ServiceError(
            RoomCode.NOT_CORRESPONDENCE, "vacations are for correspondence rooms only"
        )
    refuse_closed(st)
    if st.status != PLAYING:
        if st.status == FINISHED:
            raise ServiceError(RoomCode.DEAL_OVER, "the match is over")
        raise ServiceError(RoomCode.NOT_YOUR_TURN, "the game has not started")
    vacation = corr.vacations[seat]
    if on:
        if vacation.left_at(now) <= 0:
            raise ServiceError(RoomCode.NO_VACATION_LEFT, "no vacation left in this match")
        if vacation.since is not None:
            return []  # on vacation already
    elif vacation.since is None:
        return []
    return [Spec(VacationSet(seat, on))]


@handles(SetVacation)
async def set_vacation(ctx: Context, cmd: SetVacation) -> None:
    rt = await runtime(ctx.unit, cmd.room_id)
    await ctx.writes.write(rt, lambda st: check_vacation(st, cmd.seat, cmd.on, now_ms()))
