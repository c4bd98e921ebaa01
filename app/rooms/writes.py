"""The write path: validate, apply, commit, then send, and never run ahead.

Per room, one coroutine at a time (the room's lock) validates a command with
the engine (``make``), applies its events to the room's state, prepares the
patches, and commits the events in one transaction; only after the commit
returns are the patches sent and the other processes told.  A write that
loses to another process (``Conflict``) reloads the room and revalidates.  A
write that fails otherwise leaves the room *stale*: its memory may be ahead of
the database, so nothing reads it until it is reloaded, which every command
tries first and a recovery task retries with backoff (docs/architecture.md).
"""

from __future__ import annotations

import asyncio
import logging
import time

from app.core.clock import now_ms
from app.core.errors import Conflict, ErrorCode, ServiceError, Unavailable, unavailable
from app.realtime.hub import Pending

from . import turn_notice
from .deadline_rows import deadline_rows
from .domain.events import RoomEvent
from .domain.outcomes import outcomes
from .domain.specs import Make, Spec, followup
from .registry import runtime, unload_if_unattended
from .runtime import RoomRuntime
from .store import Written
from .unit import RoomsUnit

log = logging.getLogger("krypkasino.rooms")

WRITE_ATTEMPTS = 5


class WritePath:
    def __init__(self, unit: RoomsUnit) -> None:
        self.unit = unit

    async def write(self, rt: RoomRuntime, make: Make) -> list[Spec]:
        """Validate (``make``), apply, commit, then send; retried when another writer won."""
        while True:
            async with rt.lock:
                if not rt.evicted:
                    rt.idle_since = time.monotonic()
                    await self.ensure_fresh(rt)
                    done = await self._write_locked(rt, make)
                    break
            rt = await runtime(self.unit, rt.state.room_id)  # it left memory: reload
        # a correspondence room nobody here is at is held by no process (issue 32)
        unload_if_unattended(self.unit, rt.state.room_id)
        return done

    async def _write_locked(self, rt: RoomRuntime, make: Make) -> list[Spec]:
        s = self.unit
        room_id = rt.state.room_id
        for _ in range(WRITE_ATTEMPTS):
            st = rt.state
            expected, stored_status = st.seq, st.status
            specs = make(st)  # raises ServiceError: nothing changed
            if not specs:
                return specs
            try:
                at = now_ms()
                written, pending = self.apply(rt, list(specs), at)
                notice = turn_notice.with_commit(s, rt, at)  # a turn an absent person has
                if notice is not None:
                    written[-1].outbox += (notice,)
                rows = deadline_rows(st, s.settings, at)  # correspondence rooms' (issue 32)
                await s.store.commit_events(
                    room_id, expected, st.status, written, stored_status, deadlines=rows
                )
            except Conflict:
                s.stats.conflicts += 1
                log.info("write conflict; reloading", extra={"room": room_id})
                self.mark_stale(rt, recover=False)
                await self.ensure_fresh(rt)
                continue
            except BaseException as exc:
                # The events are applied in memory but not known to be stored.
                self.mark_stale(rt)
                if isinstance(exc, Unavailable):
                    s.stats.write_failures += 1
                    log.warning(
                        "write failed: database unavailable",
                        extra={"room": room_id, "error": str(exc)[:200]},
                    )
                    raise unavailable() from exc
                if isinstance(exc, Exception):
                    s.stats.write_failures += 1
                    log.exception("write failed", extra={"room": room_id})
                    raise ServiceError(
                        ErrorCode.INTERNAL, "the change could not be stored; nothing changed"
                    ) from exc
                raise  # cancelled: the room reloads before anyone reads it
            rt.hub.flush(pending, st.public_view, st.private_view)
            if any(e.due_ms is None for w in written for e in w.outbox):
                s.doorbell.ring()
            if notice is not None:  # rings the dispatcher when it falls due
                turn_notice.stored(s, rt, notice)
            await s.safe(s.broker.publish(room_id, st.seq))
            s.scheduler.schedule(rt)
            return specs
        raise ServiceError(ErrorCode.BUSY, "the room is busy; try again")

    @staticmethod
    def apply(rt: RoomRuntime, queue: list[Spec], at: int) -> tuple[list[Written], Pending]:
        """Apply the commands' events (and those that follow on their own) to the room's
        state, preparing each one's patches; returns what to store and what to send."""
        st = rt.state
        written: list[Written] = []
        pending: Pending = []
        while queue:
            spec = queue.pop(0)
            ev = RoomEvent(st.seq + 1, spec.body, at)
            st.apply(ev)
            w = Written(ev, token_hash=spec.token_hash, outbox=tuple(outcomes(st, ev)))
            if st.finished_deal is not None and st.match is not None:
                w.finished_deal = st.finished_deal
                w.match_totals = {
                    "match_no": st.match_no,
                    "cumulative": st.match.cumulative,
                    "deals_played": st.match.deals_played,
                    "finished": st.match.is_over,
                    "winners": st.match.winners(),
                }
            written.append(w)
            pending.extend(rt.hub.prepare(st.seq, st.public_view, st.private_view))
            if not queue:
                follow = followup(st)
                if follow is not None:
                    queue.append(follow)
        return written, pending

    # --------------------------------------------------------- staying in step

    def mark_stale(self, rt: RoomRuntime, recover: bool = True) -> None:
        """The room's memory may be ahead of the database: stop using it until reloaded."""
        rt.stale = True
        rt.hub.invalidate()
        if recover and (rt.recovery is None or rt.recovery.done()) and not self.unit.closing:
            rt.recovery = asyncio.create_task(self._recover(rt))

    async def ensure_fresh(self, rt: RoomRuntime) -> None:
        """Under the room's lock: reload a stale room, or refuse with ``unavailable``."""
        if not rt.stale:
            return
        try:
            await self.reload(rt)
        except Unavailable as exc:
            if rt.recovery is None or rt.recovery.done():
                rt.recovery = asyncio.create_task(self._recover(rt))
            raise unavailable() from exc

    async def reload(self, rt: RoomRuntime) -> None:
        """Under the room's lock: replace the state with the stored one and bring every
        connection to it; timers start again from the reloaded state."""
        s = self.unit
        state = await s.store.load_state(rt.state.room_id)
        if state is None:
            raise ServiceError(ErrorCode.NOT_FOUND, "the room no longer exists")
        rt.state = state
        rt.stale = False
        s.stats.recoveries += 1
        rt.hub.reset(state.seq, state.public_view, state.private_view)
        rt.hub.sync(state.seq, state.public_view, state.private_view)
        s.scheduler.cancel_turn(rt)
        s.scheduler.schedule(rt)

    async def _recover(self, rt: RoomRuntime) -> None:
        """Reload a stale room as soon as the database answers, so that play resumes
        (clients get the stored state, timers fire again) without anyone asking."""
        settings = self.unit.settings
        delay = settings.retry_first
        while rt.stale and not rt.evicted and not self.unit.closing:
            await asyncio.sleep(delay)
            delay = min(delay * 2, settings.retry_max)
            async with rt.lock:
                if not rt.stale or rt.evicted:
                    return
                try:
                    await self.reload(rt)
                except Unavailable:
                    self.unit.stats.reload_tries += 1
                    continue
                except Exception:  # a task boundary: the recovery tries again after backoff
                    log.exception("reload failed", extra={"room": rt.state.room_id})
                    continue
            log.warning(
                "room back in step with the database",
                extra={"room": rt.state.room_id, "seq": rt.state.seq},
            )
