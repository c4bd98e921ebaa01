"""Staying in step with the other server processes: catch-up and presence.

A process learns that another one moved a room on from the broker (Redis
pub/sub), and, because pub/sub delivers at most once, also by comparing the
stored seqs of the rooms it holds every heartbeat and after Redis comes back.
Either way it reads the events it lacks from the database, applies them, and
the hub brings each connection from where it is to the new seq.  Presence
(who is online, by seat, over every process) travels the same way.
"""

from __future__ import annotations

import asyncio
import logging

from app.broker import BrokerUnavailable
from app.core.errors import ServiceError, Unavailable
from app.gc_tuning import release_memory
from app.realtime.hub import Pending
from app.wire import presence_message

from .registry import evict_idle
from .runtime import RoomRuntime
from .unit import RoomsUnit
from .writes import WritePath

log = logging.getLogger("krypkasino.rooms")


class RoomSync:
    def __init__(self, unit: RoomsUnit, writes: WritePath) -> None:
        self.unit = unit
        self.writes = writes

    async def catch_up(self, room_id: str) -> None:
        """Another process may have committed events: apply them and bring every
        connection up to date.  Best effort: without the database it does nothing."""
        s = self.unit
        rt = s.rooms.get(room_id)
        if rt is None:
            return
        async with rt.lock:
            if rt.evicted:
                return
            try:
                if rt.stale:
                    await self.writes.reload(rt)
                    return
                events = await s.store.events_after(room_id, rt.state.seq)
            except (Unavailable, ServiceError):
                return
            st = rt.state
            pending: Pending = []
            try:
                for ev in events:
                    st.apply(ev)
                    pending.extend(rt.hub.prepare(ev.seq, st.public_view, st.private_view))
            except Exception:  # an event this state cannot apply: start again from storage
                log.exception("catch-up failed; reloading", extra={"room": room_id})
                self.writes.mark_stale(rt)
                return
            rt.hub.flush(pending, st.public_view, st.private_view)
            rt.hub.sync(st.seq, st.public_view, st.private_view)
            s.scheduler.schedule(rt)  # under the lock, as always (Automation.schedule)

    async def reconcile(self) -> None:
        """Catch up every room held here that the database shows further along (after
        Redis came back, and every heartbeat while processes share rooms)."""
        s = self.unit
        ids = list(s.rooms)
        try:
            stored = await s.store.room_seqs(ids)
        except Unavailable:
            return
        for room_id in ids:
            rt = s.rooms.get(room_id)
            if rt is not None and (rt.stale or stored.get(room_id, -1) > rt.state.seq):
                await self.catch_up(room_id)

    async def on_broker(self, room_id: str, seq: int, kind: str) -> None:
        """A message from another process: room ``room_id`` is at ``seq`` (or its
        presence changed, or a kind another module handles: reviews, seat moves)."""
        extra = self.unit.on_broker_kind.get(kind)
        if extra is not None:
            await extra(room_id, seq)
            return
        rt = self.unit.rooms.get(room_id)
        if rt is None:
            return
        if seq > rt.state.seq or rt.stale:
            await self.catch_up(room_id)
        if kind == "presence":
            await self.broadcast_presence(rt)

    # ---------------------------------------------------------------- presence

    async def connected(self, rt: RoomRuntime) -> list[bool]:
        """Who is online by seat, over every server process (bots always are); only
        this process's connections count while Redis is away."""
        n = rt.state.players
        local = rt.hub.seat_counts(n)
        try:
            remote = await self.unit.broker.remote_presence(rt.state.room_id, n)
        except BrokerUnavailable:  # this process's connections alone count
            remote = [0] * n
        return [
            a + b > 0 or seat.bot for a, b, seat in zip(local, remote, rt.state.seats, strict=False)
        ]

    async def presence_changed(self, rt: RoomRuntime) -> None:
        """Tell this process's connections and the other processes who is online."""
        broker = self.unit.broker
        room_id = rt.state.room_id
        try:
            await broker.set_presence(room_id, rt.hub.presence_counts(rt.state.players))
        except BrokerUnavailable:
            pass  # refreshed by housekeeping once Redis is back
        await broker.publish(room_id, rt.state.seq, "presence")
        await self.broadcast_presence(rt)

    async def broadcast_presence(self, rt: RoomRuntime) -> None:
        connected = await self.connected(rt)
        watching = await spectators(self.unit, rt.state.room_id, rt.state.players)
        rt.hub.broadcast(presence_message(connected, watching))

    async def housekeep(self) -> None:
        """Every heartbeat: renew timer leases, let rooms nobody uses leave memory,
        catch up rooms other processes moved (a safety net under the broker, whose
        messages are at most once), and refresh this process's presence reports."""
        s = self.unit
        while True:
            await asyncio.sleep(s.settings.heartbeat)
            try:
                await s.leases.renew()
                gone = evict_idle(s)
                if gone:
                    release_memory()
                    await s.leases.release(gone)
                if getattr(s.broker, "shared", False):
                    await self.reconcile()
                await self.refresh_presence()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a task boundary: the next round tries again
                log.info("housekeeping incomplete", extra={"error": type(exc).__name__})

    async def refresh_presence(self) -> None:
        """Keep this process's presence reports fresh for the others (they count for
        ``settings.presence_fresh`` seconds, six heartbeats)."""
        s = self.unit
        for rt in list(s.rooms.values()):
            if rt.hub.connection_count():
                await s.broker.set_presence(
                    rt.state.room_id, rt.hub.presence_counts(rt.state.players)
                )


async def spectators(unit: RoomsUnit, room_id: str, players: int) -> int:
    """How many spectators a room has over every process (this one's only while Redis
    is away): the ``watching`` of presence, and the public room list's count."""
    rt = unit.rooms.get(room_id)
    here = rt.hub.spectator_count() if rt is not None else 0
    try:
        everyone = await unit.broker.remote_people(room_id)
        seated = sum(await unit.broker.remote_presence(room_id, players))
    except BrokerUnavailable:  # this process's spectators alone count
        return here
    return here + max(0, everyone - seated)
