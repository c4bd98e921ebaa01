"""The rooms' unit of work: everything a command handler is given, explicitly.

Each handler module of this package (the write path, the commands, the timers,
catching up, connections) receives this one object instead of reaching back
into a service: its storage (``store``), the broker to the other processes,
the rooms held in memory, the leases on their timers, the bot chooser, the
settings and counters, and the ``scheduler`` that arms a room's timers after
it changes.  The scheduler is a Protocol here and the timers module
(app/rooms/automation.py) implements it, so the write path can ask for timers
without importing the module that itself writes moves: every import in the
package runs one way, down (docs/architecture.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.broker import Broker
from app.core.errors import RETRYABLE, ServiceError
from app.core.loops import Doorbell

from .botrunner import Chooser
from .leases import Leases
from .runtime import RoomRuntime
from .settings import ServiceSettings
from .stats import ServiceStats
from .store import RoomStore

log = logging.getLogger("krypkasino.rooms")

BrokerHandler = Callable[[str, int], Awaitable[None]]
"""A handler of a broker message kind: (room id, the number the message carries)."""


class Scheduler(Protocol):
    """Arms and disarms a room's timers (bot turns, clocks, grace periods, the pause
    between deals) after its state changed."""

    def schedule(self, rt: RoomRuntime) -> None: ...

    def cancel_turn(self, rt: RoomRuntime) -> None: ...

    def cancel_all(self, rt: RoomRuntime) -> None: ...


class NoTimers:
    """The scheduler until the timers are wired in (and for a unit that runs none)."""

    def schedule(self, rt: RoomRuntime) -> None:
        return None

    def cancel_turn(self, rt: RoomRuntime) -> None:
        return None

    def cancel_all(self, rt: RoomRuntime) -> None:
        return None


@dataclass(slots=True, eq=False)
class RoomsUnit:
    store: RoomStore
    broker: Broker
    settings: ServiceSettings
    leases: Leases
    chooser: Chooser
    """Chooses a bot's move (app/rooms/botrunner.py; wrapped by the metrics)."""
    stats: ServiceStats = field(default_factory=ServiceStats)
    rooms: dict[str, RoomRuntime] = field(default_factory=dict)
    """The rooms held in memory by id (app/rooms/registry.py loads and drops them)."""
    load_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    scheduler: Scheduler = field(default_factory=NoTimers)
    closing: bool = False
    """Set once the service stops: no timer starts and no retry goes on."""
    on_move: Callable[[float], None] | None = None
    """Metrics hook: called with the seconds a committed play took."""
    on_broker_kind: dict[str, BrokerHandler] = field(default_factory=dict)
    """Handlers of broker message kinds beside the game's own (chat, a shared review's
    change, a seat moved to another device: the features register theirs).  Not
    domain events: each only fans a moment out to the processes' open connections,
    is stored nowhere and matters to nobody who was not connected then, so it stays
    off the outbox (docs/architecture.md)."""
    doorbell: Doorbell = field(default_factory=Doorbell)
    """Rung after a commit that stored domain events, and when a stored turn notice
    falls due: this process's outbox dispatcher hands them on at once
    (app/outbox/dispatcher.py)."""
    deadlines_changed: Callable[[], None] = lambda: None
    """Called after a correspondence room changed: the deadline poller looks again at
    once (app/rooms/deadline_poller.py) rather than at its next round."""

    async def safe(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Await a step whose failure must not fail its caller (a publish after a
        commit: the move is stored, the other processes catch up by themselves)."""
        try:
            await coro
        except Exception:  # a background step: logged, and the caller goes on
            log.exception("background step failed")

    async def retrying(self, command: Callable[[], Awaitable[Any]]) -> None:
        """Run a command the room needs (not one a client waits for) until the database
        takes it, backing off while it is away."""
        delay = self.settings.retry_first
        while not self.closing:
            try:
                await command()
                return
            except ServiceError as exc:
                if exc.code not in RETRYABLE:
                    return
            except Exception:  # a task boundary: retried with backoff, never lost
                log.exception("background command failed; retrying")
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.settings.retry_max)
