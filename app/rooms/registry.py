"""The rooms held in memory: loaded on first use, dropped when idle or purged.

Rooms are not loaded at start: nothing moves in a room nobody is connected to,
so each is rebuilt from its events when someone first opens it (a restart with
thousands of stored rooms is as quick as one with none).  A long-running server
would otherwise keep every room it ever served; an idle one leaves memory and
is rebuilt from its stored events the next time anyone asks for it.
"""

from __future__ import annotations

import logging
import time

from app import wire
from app.core.errors import ErrorCode, ServiceError, Unavailable, unavailable
from app.realtime.hub import Hub

from .domain.errors import RoomPurged
from .runtime import RoomRuntime
from .unit import RoomsUnit

log = logging.getLogger("krypkasino.rooms")


async def runtime(unit: RoomsUnit, room_id: str) -> RoomRuntime:
    """The room in memory, loaded from the store (and its timers armed) if need be."""
    rt = unit.rooms.get(room_id)
    if rt is not None:
        return rt
    async with unit.load_lock:
        rt = unit.rooms.get(room_id)
        if rt is not None:
            return rt
        try:
            state = await unit.store.load_state(room_id)
        except Unavailable as exc:
            raise unavailable() from exc
        if state is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "no such room")
        rt = RoomRuntime(state=state, hub=Hub(unit.settings.history))
        unit.rooms[room_id] = rt
        unit.scheduler.schedule(rt)
        return rt


def evict_idle(unit: RoomsUnit, now: float | None = None) -> list[str]:
    """Drop the runtimes of rooms idle for ``idle_evict`` seconds; returns their ids.

    A client that reconnects to such a room gets a snapshot instead of the patches
    it missed.  Synchronous, so no other coroutine runs between the check and the
    removal."""
    now = time.monotonic() if now is None else now
    gone = [
        room_id for room_id, rt in unit.rooms.items() if rt.is_idle(now, unit.settings.idle_evict)
    ]
    for room_id in gone:
        rt = unit.rooms.pop(room_id)
        rt.evicted = True
        if rt.recovery is not None:
            rt.recovery.cancel()
    if gone:
        log.info("rooms left memory", extra={"rooms": len(gone)})
    return gone


def forget_purged(unit: RoomsUnit, purged: list[RoomPurged]) -> int:
    """Purged rooms leave memory too: their connections get the refusal as an
    ``error`` and are closed.  Synchronous, like ``evict_idle``.  Returns how many
    rooms this process held."""
    held = 0
    for refusal in purged:
        rt = unit.rooms.pop(refusal.room_id, None)
        if rt is None:
            continue
        held += 1
        rt.evicted = True
        unit.scheduler.cancel_all(rt)
        error = wire.error_message(refusal.code, refusal.message)
        for sink in rt.hub.sinks():
            sink.send_text(error)
            sink.close(1000)
    return held


def unload_if_unattended(unit: RoomsUnit, room_id: str) -> bool:
    """A correspondence room nobody here is connected to leaves memory at once (issue
    32: such a room is held by no process; it is loaded again when someone connects or
    one of its deadlines falls due).  Not while a change of it is in flight.  A turn
    notice already on its way keeps its own reference until it is told.  Synchronous,
    like ``evict_idle``.  Returns whether it left."""
    rt = unit.rooms.get(room_id)
    if (
        rt is None
        or rt.state.corr is None
        or rt.hub.connection_count()
        or rt.lock.locked()
        or rt.stale
    ):
        return False
    del unit.rooms[room_id]
    rt.evicted = True
    for task in (rt.turn_task, rt.recovery, *rt.grace_tasks.values()):
        if task is not None and not task.done():
            task.cancel()
    return True
