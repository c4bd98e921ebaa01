"""A room held in memory: its committed state, its connections, its lock and timers."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from app.realtime.hub import Hub

from .domain.state import RoomState


@dataclass(slots=True)
class RoomRuntime:
    state: RoomState
    hub: Hub
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One coroutine at a time changes the room (and reads it to validate a change)."""
    turn_task: asyncio.Task[None] | None = None
    turn_seq: int = -1
    """The seq the running turn task (bot or clock) was scheduled for."""
    grace_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    notice: tuple[int, int, int] | None = None
    """(seq, seat, due ms) of the last turn notice this process stored for the room
    (turn_notice.py): a page of that seat closing again before it falls due stores
    no other."""
    idle_since: float = field(default_factory=time.monotonic)
    """When the room last changed or a connection came or went."""
    evicted: bool = False
    """Dropped from memory (``RoomService.evict_idle``): whoever still holds this
    runtime must fetch the room again, which reloads it from the database."""
    stale: bool = False
    """A write failed after its events were applied here, so ``state`` may be ahead
    of the database.  Nothing reads or sends it until the room is reloaded, which
    every command tries first and a recovery task retries until it succeeds."""
    recovery: asyncio.Task[None] | None = None

    def is_idle(self, now: float, after: float) -> bool:
        """Nothing would notice the room leaving memory: no connection, no move in
        flight or waiting for the lock, no bot, clock or grace timer running."""
        return (
            now - self.idle_since >= after
            and not self.lock.locked()
            and self.hub.connection_count() == 0
            and (self.turn_task is None or self.turn_task.done())
            and all(t.done() for t in self.grace_tasks.values())
        )
