"""Whether anyone is at a room, and what the room's timers do when nobody is.

Timers (bot turns, the clock, grace, the pause between deals) run only while
someone, a player or a spectator, is connected to the room on any process: a
game everyone has left pauses, and goes on when someone comes back.  A room made
to play unattended (a ladder room) runs them regardless.
"""

from __future__ import annotations

import logging

from app.broker import BrokerUnavailable

from .runtime import RoomRuntime
from .unit import RoomsUnit

log = logging.getLogger("krypkasino.rooms")


async def attended(unit: RoomsUnit, rt: RoomRuntime) -> bool:
    """Someone is connected to the room, here or on another process (while Redis is
    away only this process's connections count: a process with people of its own
    takes the room over)."""
    if rt.hub.connection_count():
        return True
    try:
        return await unit.broker.remote_people(rt.state.room_id) > 0
    except BrokerUnavailable:  # as if nobody were elsewhere (see above)
        return False


async def timers_may_run(unit: RoomsUnit, rt: RoomRuntime) -> bool:
    """Whether the room's timers go on now: someone is at it, or it is a room that
    plays unattended (``RoomOptions.plays_unattended``: a ladder room)."""
    return rt.state.options.plays_unattended or await attended(unit, rt)


async def room_attended(unit: RoomsUnit, room_id: str) -> bool:
    """``attended`` for a room that need not be in this process's memory (one that is
    not has nobody connected here)."""
    rt = unit.rooms.get(room_id)
    if rt is not None:
        return await attended(unit, rt)
    try:
        return await unit.broker.remote_people(room_id) > 0
    except BrokerUnavailable:
        return False


async def pause(unit: RoomsUnit, rt: RoomRuntime) -> None:
    """Nobody is here: stop, and give the room's lease up so that a process where
    someone comes back can run it at once (connecting schedules the timers again)."""
    await unit.leases.release([rt.state.room_id])  # if that fails, it runs out by itself
    log.info("room paused: nobody connected", extra={"room": rt.state.room_id})
