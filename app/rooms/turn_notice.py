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

import asyncio
import logging

from app.broker import BrokerUnavailable

from .leases import now_ms
from .runtime import RoomRuntime
from .timer_loop import run_when_due
from .unit import RoomsUnit, TurnNotices

log = logging.getLogger("krypkasino.rooms")


async def turn_notice(
    unit: RoomsUnit, notices: TurnNotices, rt: RoomRuntime, seq: int, seat: int
) -> None:
    """Tell ``seat`` of the turn that started at ``seq`` if it is still theirs after
    the delay and they are connected nowhere.  The delay counts from the change that
    gave them the turn, or from now when their page closed later (armed then by
    ``Automation._live_notice``): a reload never rings, and the notifier's row per
    turn keeps it to one notice whichever process sends it."""
    room_id = rt.state.room_id
    due = max(rt.state.changed_at, now_ms()) + int(unit.settings.notice_delay * 1000)

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


async def correspondence_notice(
    unit: RoomsUnit, notices: TurnNotices, rt: RoomRuntime, turn_seq: int, seat: int
) -> None:
    """In a correspondence room (issue 32) a player is told of their turn whenever no
    connection of theirs is open, with nobody at the room too: nobody is expected to
    be.  The task outlives the room leaving memory (it holds its runtime until told);
    whether the turn is still theirs it asks of the room in memory, or else of the
    database (the room's seq moved on: not told)."""
    room_id = rt.state.room_id
    corr = rt.state.corr
    if corr is None:
        return
    seen = rt.state.seq
    due = corr.turn_at + int(unit.settings.notice_delay * 1000)
    try:
        while (wait := (due - now_ms()) / 1000) > 0:
            await asyncio.sleep(wait)
        if unit.closing:
            return
        held = unit.rooms.get(room_id)
        if held is not None and not held.stale:
            st = held.state
            if st.corr is None or st.corr.turn_seq != turn_seq or st.to_move != seat:
                return
            if held.hub.connected_seats(st.players)[seat]:
                return
        elif (await unit.store.room_seqs([room_id])).get(room_id) != seen:
            return
        try:
            if (await unit.broker.remote_presence(room_id, rt.state.players))[seat]:
                return
        except BrokerUnavailable:
            pass  # nobody known elsewhere: told
        await notices.turn_started(room_id, turn_seq, seat)
    except asyncio.CancelledError:
        raise
    except Exception:  # a task boundary: a turn not told is no lost move
        log.exception("turn notice failed", extra={"room": room_id})
