"""The timer that withdraws a rematch offer nobody answered in time (issue 33).

An open offer's deadline is its event's time plus the timeout stored with it, so it
is the same in every process and after a restart.  The timer runs like the other
timers (``automation.py``, ``pacing.py``): only while someone is connected, only in
the process that holds the room's lease, retried until written; a room nobody is in
writes the expiry once someone comes back (the offer has lapsed meanwhile: a Rematch
then makes a new one, app/rooms/commands/rematch.py).
"""

from __future__ import annotations

import asyncio
import logging

from .attendance import attended, pause
from .commands.rematch import expire
from .domain.errors import RETRYABLE, ServiceError
from .leases import now_ms
from .runtime import RoomRuntime
from .unit import RoomsUnit
from .writes import WritePath

log = logging.getLogger("krypkasino.rooms")


async def rematch_expiry(unit: RoomsUnit, writes: WritePath, rt: RoomRuntime, seq: int) -> None:
    """Write the expiry of the room's open offer at its deadline; ends when the room
    moved on (an answer, a new match, a close)."""
    s = unit
    room_id = rt.state.room_id
    backoff = s.settings.retry_first

    def waiting() -> bool:
        return (
            not (s.closing or rt.evicted)
            and rt.state.seq == seq
            and (rt.stale or rt.state.rematch is not None)
        )

    while waiting():
        offer = rt.state.rematch
        wait = (offer.deadline - now_ms()) / 1000 if offer is not None else 0
        if wait > 0:
            await asyncio.sleep(wait)
            continue
        if rt.stale:
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, s.settings.retry_max)
            continue
        if not await attended(s, rt):
            await pause(s, rt)
            return
        if not await s.leases.acquire(room_id):
            await asyncio.sleep(s.settings.lease_poll)
            continue
        try:
            await writes.write(rt, lambda st: expire(st, now_ms()) if st.seq == seq else [])
            return
        except asyncio.CancelledError:
            raise
        except ServiceError as exc:
            if exc.code not in RETRYABLE:
                log.info("rematch expiry refused", extra={"room": room_id, "code": exc.code})
                return
        except Exception:  # a timer task's boundary: retried with backoff
            log.exception("rematch expiry failed; retrying", extra={"room": room_id})
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, s.settings.retry_max)
