"""Commands on the match as a whole: a rematch once it is over, a seat handed to a
bot (autoplay) or taken back, and an operator closing the room."""

from __future__ import annotations

from datetime import UTC, datetime

from ..domain.errors import ErrorCode, ServiceError, refuse_closed
from ..domain.events import AutoplaySet, RoomClosed
from ..domain.specs import Spec, match_spec
from ..domain.state import FINISHED, PLAYING, RoomState
from ..registry import runtime
from ..unit import RoomsUnit
from ..writes import WritePath


async def rematch(unit: RoomsUnit, writes: WritePath, room_id: str, seat: int | None) -> None:
    """A seated player starts the next match once this one is over."""
    rt = await runtime(unit, room_id)

    def make(st: RoomState) -> list[Spec]:
        if seat is None:
            raise ServiceError(ErrorCode.UNAUTHORIZED, "spectators cannot start a rematch")
        refuse_closed(st)  # ops
        if st.status != FINISHED:
            raise ServiceError(ErrorCode.NOT_FINISHED, "the match is still being played")
        return [match_spec(st)]

    await writes.write(rt, make)


async def set_autoplay(
    unit: RoomsUnit, writes: WritePath, room_id: str, seat: int, on: bool
) -> None:
    """A bot plays for a person's seat (``on``: they are away or out of time), or
    stops (they are back)."""
    rt = await runtime(unit, room_id)

    def make(st: RoomState) -> list[Spec]:
        s = st.seats[seat]
        if s.bot or s.autoplay == on or (on and st.status != PLAYING):
            return []
        return [Spec(AutoplaySet(seat, on))]

    await writes.write(rt, make)


async def close_room(unit: RoomsUnit, writes: WritePath, room_id: str, reason: str) -> None:
    """End a room for everyone: a ``close`` event written like any other change, so
    every connection, on every process, gets the final state with ``closed`` set;
    seats, plays and rematches are refused from then on (app/ops, app/api/admin.py)."""
    rt = await runtime(unit, room_id)
    at = datetime.now(UTC).isoformat(timespec="seconds")

    def make(st: RoomState) -> list[Spec]:
        if st.closed is not None:
            raise ServiceError(ErrorCode.CLOSED, "the room is already closed")
        return [Spec(RoomClosed(reason, at))]

    await writes.write(rt, make)
