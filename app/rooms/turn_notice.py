"""Telling a player whose page is closed that their turn has come (issue 32).

When a turn starts for a person (not a bot, not a stand-in) and none of their
connections is open here or on another process, the room asks its ``TurnNotices``
(app/notify, Web Push) to tell them.  It waits ``notice_delay`` first, so that a
reload or a phone switching networks does not ring; it runs like every room timer
(``timer_loop.py``): in the process holding the room's lease, while someone is at
the room (a live room nobody is at is paused: nothing is due of anyone).  The
notifier keeps a row per (room, seq, seat), so a turn rings once even when the
lease changes hands.
"""

from __future__ import annotations

from .leases import now_ms
from .runtime import RoomRuntime
from .timer_loop import run_when_due
from .unit import RoomsUnit, TurnNotices


async def turn_notice(
    unit: RoomsUnit, notices: TurnNotices, rt: RoomRuntime, seq: int, seat: int
) -> None:
    """Tell ``seat`` of the turn that started at ``seq`` if it is still theirs after
    the delay and they are connected nowhere.  The delay counts from the stored time
    of the change that gave them the turn: the same in every process."""
    room_id = rt.state.room_id
    due = rt.state.changed_at + int(unit.settings.notice_delay * 1000)

    def moved_on() -> bool:
        st = rt.state
        return (
            unit.closing or rt.evicted or (not rt.stale and (st.seq != seq or st.to_move != seat))
        )

    async def seconds_left() -> float:
        return (due - now_ms()) / 1000

    async def notify() -> bool:
        st = rt.state
        if rt.hub.connected_seats(st.players)[seat]:
            return True
        if (await unit.broker.remote_presence(room_id, st.players))[seat]:
            return True
        await notices.turn_started(room_id, seq, seat)
        return True

    await run_when_due(
        unit, rt, moved_on=moved_on, seconds_left=seconds_left, act=notify, what="turn notice"
    )
