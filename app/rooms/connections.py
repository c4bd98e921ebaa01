"""A room's connections: attaching one (its welcome and catch-up before anything
else reaches it) and detaching it.

Attaching has its own ordering to keep (catch up
with other processes, then, under the room's lock, welcome, patches or snapshot,
and the seat's grace timer stopped) and its own consequences (presence, the room's
timers going on, a returning player's autoplay turned off).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from app import wire

from .commands.context import Context
from .commands.match import set_autoplay
from .domain.commands import SetAutoplay
from .domain.outcomes import BACK, LEFT
from .registry import runtime, unload_if_unattended
from .runtime import RoomRuntime
from .turn_notice import store_absent


class Connections:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.unit = ctx.unit
        self.writes = ctx.writes
        self.sync = ctx.sync

    async def connect(
        self, room_id: str, seat: int | None, sink: Any, last_seq: int | None
    ) -> None:
        """Attach a connection and send it, before anything else can reach it, the
        welcome and what brings it up to date (patches after ``last_seq`` or a
        snapshot)."""
        unit = self.unit
        while True:
            rt = await runtime(unit, room_id)
            await self.sync.catch_up(room_id)  # another process may have moved the room on
            async with rt.lock:
                if rt.evicted:
                    continue
                await self.writes.ensure_fresh(rt)
                rt.idle_since = time.monotonic()
                alone = rt.hub.connection_count() == 0
                self.attach(rt, seat, sink, last_seq)
                break
        await unit.safe(self.sync.presence_changed(rt))
        if alone:  # a paused room goes on: an absent person's turn may be told now
            await store_absent(unit, rt, BACK)
        async with rt.lock:  # never beside a timer's write in flight (Automation.schedule)
            unit.scheduler.schedule(rt)  # a room nobody was in goes on
        if seat is not None and rt.state.seats[seat].autoplay:
            asyncio.create_task(
                unit.retrying(lambda: set_autoplay(self.ctx, SetAutoplay(room_id, seat, False)))
            )

    def attach(self, rt: RoomRuntime, seat: int | None, sink: Any, last_seq: int | None) -> None:
        """Under the room's lock: register the connection and stop its seat's grace timer."""
        st = rt.state
        sink.send_text(wire.welcome_message(seat, st.seq))
        rt.hub.attach(seat, sink, st.public_view, st.private_view, st.seq, last_seq)
        task = rt.grace_tasks.pop(seat, None) if seat is not None else None
        if task is not None:
            task.cancel()

    async def disconnect(self, room_id: str, seat: int | None, sink: Any) -> None:
        unit = self.unit
        rt = unit.rooms.get(room_id)
        if rt is None:
            return
        async with rt.lock:
            last = rt.hub.detach(seat, sink)
            rt.idle_since = time.monotonic()
        await unit.safe(self.sync.presence_changed(rt))
        if last and seat is not None and seat == rt.state.to_move:
            await store_absent(unit, rt, LEFT)  # told of the turn if away past the delay
        if last and unload_if_unattended(unit, room_id):
            # a correspondence room nobody here is at leaves memory at once (issue 32)
            await unit.safe(unit.leases.release([room_id]))
        elif last:
            async with rt.lock:  # never beside a timer's write in flight (Automation.schedule)
                unit.scheduler.schedule(rt)  # starts the grace period of a seat left alone
