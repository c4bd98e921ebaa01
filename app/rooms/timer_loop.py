"""The one loop every room timer runs: wait until due, then write once, under the lease.

A bot turn, the turn clock, the pause between deals and a rematch offer's expiry all
follow the same discipline (docs/architecture.md, "Timers"): they act only while
someone is connected to the room (else the room pauses and gives its lease up), only
in the process that holds the room's lease, never while this process's copy of the
room is stale, and they retry with backoff until the write is made or the room has
moved on.  Keeping that discipline in one place means a new timer cannot forget a
step of it (issue 33 found the same twenty lines written three times).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.core.errors import RETRYABLE, ServiceError

from .attendance import pause, timers_may_run
from .runtime import RoomRuntime
from .unit import RoomsUnit

log = logging.getLogger("krypkasino.rooms")


async def run_when_due(
    unit: RoomsUnit,
    rt: RoomRuntime,
    *,
    moved_on: Callable[[], bool],
    seconds_left: Callable[[], Awaitable[float]],
    act: Callable[[], Awaitable[bool]],
    what: str,
) -> None:
    """Call ``act`` once it is due and this process may act for the room.

    ``moved_on`` says the timer's moment has passed (the room changed, closed or was
    evicted); ``seconds_left`` how long to wait still (looked at again after each
    wait, so it may shorten); ``act`` does the write and answers True when the timer
    is done, False to look again at once (it found the room moved on meanwhile).
    A refusal that retrying cannot cure ends the timer; anything else is retried
    with backoff: a timer task is the boundary where failures stop.
    """
    room_id = rt.state.room_id
    settings = unit.settings
    backoff = settings.retry_first
    while not moved_on():
        wait = await seconds_left()
        if wait > 0:
            await asyncio.sleep(wait)
            continue
        if rt.stale:
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, settings.retry_max)
            continue
        if not await timers_may_run(unit, rt):
            await pause(unit, rt)
            return
        if not await unit.leases.acquire(room_id):
            await asyncio.sleep(settings.lease_poll)
            continue
        try:
            if await act():
                return
            continue
        except asyncio.CancelledError:
            raise
        except ServiceError as exc:
            if exc.code not in RETRYABLE:
                log.info(f"{what} refused", extra={"room": room_id, "code": exc.code})
                return
            log.info(f"{what} failed; retrying", extra={"room": room_id, "code": exc.code})
        except Exception:  # a timer task's boundary: retried with backoff
            log.exception(f"{what} failed; retrying", extra={"room": room_id})
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, settings.retry_max)
