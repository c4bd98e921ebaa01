"""Commands on the match as a whole: a seat handed to a bot (autoplay) or taken back,
and an operator closing the room (a rematch: app/rooms/commands/rematch.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from app.core.errors import ServiceError

from ..domain.commands import CloseRoom, SetAutoplay
from ..domain.errors import RoomCode
from ..domain.events import AutoplaySet, RoomClosed
from ..domain.specs import Spec
from ..domain.state import PLAYING, RoomState
from ..registry import runtime
from .context import Context, handles


@handles(SetAutoplay)
async def set_autoplay(ctx: Context, cmd: SetAutoplay) -> None:
    """A bot plays for a person's seat (``on``: they are away or out of time), or
    stops (they are back)."""
    seat, on = cmd.seat, cmd.on
    rt = await runtime(ctx.unit, cmd.room_id)

    def make(st: RoomState) -> list[Spec]:
        s = st.seats[seat]
        if s.bot or s.autoplay == on or (on and st.status != PLAYING):
            return []
        return [Spec(AutoplaySet(seat, on))]

    await ctx.writes.write(rt, make)


@handles(CloseRoom)
async def close_room(ctx: Context, cmd: CloseRoom) -> None:
    """End a room for everyone: a ``close`` event written like any other change, so
    every connection, on every process, gets the final state with ``closed`` set;
    seats, plays and rematches are refused from then on (app/ops, app/api/admin.py)."""
    rt = await runtime(ctx.unit, cmd.room_id)
    at = datetime.now(UTC).isoformat(timespec="seconds")

    def make(st: RoomState) -> list[Spec]:
        if st.closed is not None:
            raise ServiceError(RoomCode.CLOSED, "the room is already closed")
        return [Spec(RoomClosed(cmd.reason, at))]

    await ctx.writes.write(rt, make)
