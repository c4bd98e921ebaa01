"""The timer that withdraws a rematch offer nobody answered in time (issue 33).

An open offer's deadline is its event's time plus the timeout stored with it, so it
is the same in every process and after a restart.  The timer runs like the other
timers (``automation.py``, ``pacing.py``): only while someone is connected, only in
the process that holds the room's lease, retried until written; a room nobody is in
writes the expiry once someone comes back (the offer has lapsed meanwhile: a Rematch
then makes a new one, app/rooms/commands/rematch.py).
"""

from __future__ import annotations

from app.core.clock import now_ms

from .commands.rematch import expire
from .runtime import RoomRuntime
from .timer_loop import run_when_due
from .unit import RoomsUnit
from .writes import WritePath


async def rematch_expiry(unit: RoomsUnit, writes: WritePath, rt: RoomRuntime, seq: int) -> None:
    """Write the expiry of the room's open offer at its deadline; ends when the room
    moved on (an answer, a new match, a close)."""
    s = unit

    def moved_on() -> bool:
        return (
            s.closing
            or rt.evicted
            or rt.state.seq != seq
            or not (rt.stale or rt.state.rematch is not None)
        )

    async def seconds_left() -> float:
        offer = rt.state.rematch
        return (offer.deadline - now_ms()) / 1000 if offer is not None else 0

    async def withdraw() -> bool:
        await writes.write(rt, lambda st: expire(st, now_ms()) if st.seq == seq else [])
        return True

    await run_when_due(
        s, rt, moved_on=moved_on, seconds_left=seconds_left, act=withdraw, what="rematch expiry"
    )
