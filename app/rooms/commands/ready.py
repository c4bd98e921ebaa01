"""Continue: a player has seen the deal that ended (issue 12).

The room waits between deals until every connected person at the table pressed
Continue or the pause ran out (app/rooms/pacing.py); the last Continue deals.
"""

from __future__ import annotations

from ..domain.events import ReadyPressed
from ..domain.specs import Spec, deal_spec, everyone_ready
from ..domain.state import RoomState
from ..registry import runtime
from ..sync import RoomSync
from ..unit import RoomsUnit
from ..writes import WritePath


async def press_continue(
    unit: RoomsUnit, writes: WritePath, sync: RoomSync, room_id: str, seat: int | None
) -> None:
    """Record a player's Continue, and deal when they were the last one.  A spectator's
    Continue, one outside a pause, or a second one, changes nothing."""
    if seat is None:
        return
    rt = await runtime(unit, room_id)
    connected = await sync.connected(rt)

    def make(st: RoomState) -> list[Spec]:
        if not st.between_deals or seat in st.ready:
            return []
        specs = [Spec(ReadyPressed(seat))]
        if everyone_ready(st, connected, st.ready | {seat}):
            specs.append(deal_spec(st))
        return specs

    await writes.write(rt, make)
