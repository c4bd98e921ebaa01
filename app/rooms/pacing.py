"""Between deals: the next deal waits until everyone has seen the last one (issue 12).

No player's clock may run while that player cannot see the deal in play.  So when a
room has a between-deals pause (``RoomOptions.deal_pause``), the play that ends a
deal is not followed by the next deal at once (``domain.specs.followup``): the room waits
until every connected person at the table has pressed Continue (a ``ready`` event
each) or the pause has run out, and only then writes the ``deal`` event.  The first
clock of the new deal counts from that event, and bots wait too (nothing is to move
until it exists).  Seats a bot plays (a bot seat, or a stand-in for an absent player)
are never waited for; a room where nobody at the table is a connected person deals
after ``bots_only_delay``.

The timer runs like the other timers (``automation.py``): only while someone is
connected, only in the process that holds the room's lease, retried until written.
"""

from __future__ import annotations

from app.core.clock import now_ms

from .domain.specs import deal_spec, everyone_ready
from .runtime import RoomRuntime
from .sync import RoomSync
from .timer_loop import run_when_due
from .unit import RoomsUnit
from .writes import WritePath

RECHECK_SECONDS = 1.0
"""How often a waiting room looks again at who is connected (someone who leaves no
longer holds the next deal up)."""


async def next_deal_timer(
    unit: RoomsUnit, writes: WritePath, sync: RoomSync, rt: RoomRuntime, seq: int
) -> None:
    """Deal when the pause runs out, or at once when every connected person is ready
    (someone who was waited for left); ends when the room moved on."""
    s = unit

    def moved_on() -> bool:
        return (
            s.closing
            or rt.evicted
            or rt.state.seq != seq
            or not (rt.stale or rt.state.between_deals)
        )

    async def seconds_left() -> float:
        st = rt.state
        due = st.next_deal_due()
        if not rt.stale:
            connected = await sync.connected(rt)
            if everyone_ready(st, connected):
                due = min(due, st.deal_ended_at + int(s.settings.bots_only_delay * 1000))
        return min((due - now_ms()) / 1000, RECHECK_SECONDS)

    async def deal() -> bool:
        await writes.write(
            rt, lambda st: [deal_spec(st)] if st.seq == seq and st.between_deals else []
        )
        return True

    await run_when_due(
        s, rt, moved_on=moved_on, seconds_left=seconds_left, act=deal, what="next deal"
    )
